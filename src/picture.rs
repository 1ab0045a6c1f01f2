//! A picture of an answer (`--svg FILE`): a puzzle describes its solution
//! as shapes on a board of unit cells ([`Picture`], data), and this module
//! draws pictures as SVG with plotters' SVG backend (the crate that draws
//! the experiment plots). Coordinates are in cells: `(x, y)` with x to the
//! right and y down, the centre of cell (row r, column c) at
//! `(c + 0.5, r + 0.5)` ([`centre`]). Several answers are drawn side by
//! side in one file, row by row ([`svg`]).

use plotters::prelude::{DrawingBackend, SVGBackend};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontDesc, FontFamily, FontStyle, RGBColor, ShapeStyle, TextStyle};

/// Pixels per cell.
pub const CELL_PX: f64 = 44.0;

/// The most answers one file draws (the first ones: the rest are said on
/// stderr by the caller).
pub const MAX_PICTURES: usize = 400;

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colour(pub u8, pub u8, pub u8);

impl Colour {
    /// white
    pub const WHITE: Colour = Colour(255, 255, 255);
    /// black
    pub const BLACK: Colour = Colour(0, 0, 0);
    /// a light grey, for marked cells
    pub const SHADE: Colour = Colour(205, 205, 205);
    /// the path of a tour
    pub const PATH: Colour = Colour(200, 40, 40);

    /// Colour `i` of `k` evenly spaced hues (a palette for `k` colours).
    pub fn palette(i: usize, k: usize) -> Colour {
        // hue around the wheel, pastel (saturation 0.55, value 0.95)
        let h = 360.0 * i as f64 / k.max(1) as f64;
        let (s, v) = (0.55, 0.95);
        let c = v * s;
        let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
        let (r, g, b) = match (h / 60.0) as u32 {
            0 => (c, x, 0.0),
            1 => (x, c, 0.0),
            2 => (0.0, c, x),
            3 => (0.0, x, c),
            4 => (x, 0.0, c),
            _ => (c, 0.0, x),
        };
        let m = v - c;
        let to = |u: f64| ((u + m) * 255.0).round() as u8;
        Colour(to(r), to(g), to(b))
    }

    /// A shade from white (`t = 0`) to a deep blue (`t = 1`).
    pub fn ramp(t: f64) -> Colour {
        let t = t.clamp(0.0, 1.0);
        let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
        Colour(mix(255.0, 60.0), mix(255.0, 110.0), mix(255.0, 200.0))
    }

    fn rgb(self) -> RGBColor {
        RGBColor(self.0, self.1, self.2)
    }
}

/// A point in cell units.
pub type Point = (f64, f64);

/// The centre of cell (row `r`, column `c`).
pub fn centre(r: usize, c: usize) -> Point {
    (c as f64 + 0.5, r as f64 + 0.5)
}

/// One shape of a picture.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// cell (row, col) filled, with a thin border and a label in its middle
    Cell {
        /// row
        row: usize,
        /// column
        col: usize,
        /// its fill
        fill: Colour,
        /// the text in it (may be empty)
        label: String,
    },
    /// a line through points, closed back to the first one or not
    Line {
        /// the points, in order
        points: Vec<Point>,
        /// its colour
        colour: Colour,
        /// its width in cells
        width: f64,
        /// a closed loop
        closed: bool,
    },
    /// a filled disc
    Disc {
        /// its centre
        centre: Point,
        /// its radius in cells
        radius: f64,
        /// its fill
        fill: Colour,
    },
    /// an arrow from one point to another (a line and a head)
    Arrow {
        /// where it starts
        from: Point,
        /// where its head is
        to: Point,
        /// its colour
        colour: Colour,
    },
    /// text centred on a point
    Text {
        /// its centre
        at: Point,
        /// the text
        text: String,
        /// its height in cells
        size: f64,
    },
}

/// A picture: shapes on a `width` × `height` area (in cells) with a title
/// above it.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// the area's width, in cells
    pub width: f64,
    /// the area's height, in cells
    pub height: f64,
    /// above the drawing (wrapped to its width)
    pub title: String,
    /// the shapes, drawn in order
    pub shapes: Vec<Shape>,
}

impl Picture {
    /// An empty picture of `width` × `height` cells.
    pub fn new(width: f64, height: f64, title: impl Into<String>) -> Self {
        Picture {
            width,
            height,
            title: title.into(),
            shapes: vec![],
        }
    }

    /// Adds a shape.
    pub fn add(&mut self, s: Shape) -> &mut Self {
        self.shapes.push(s);
        self
    }

    /// A board of labelled cells (`labels[r][c]`, fills `fill(r, c)`).
    pub fn board(
        labels: &[Vec<String>],
        title: impl Into<String>,
        fill: impl Fn(usize, usize) -> Colour,
    ) -> Self {
        let rows = labels.len();
        let cols = labels.first().map_or(0, Vec::len);
        let mut p = Picture::new(cols as f64, rows as f64, title);
        for (r, row) in labels.iter().enumerate() {
            for (c, label) in row.iter().enumerate() {
                p.add(Shape::Cell {
                    row: r,
                    col: c,
                    fill: fill(r, c),
                    label: label.clone(),
                });
            }
        }
        p
    }
}

/// Margin around each picture, in cells.
const MARGIN: f64 = 0.4;
/// The title's font size, a title line's height, the band's padding and a
/// character's width (sans-serif averages about 0.55 em), in cells.
const TITLE_FONT: f64 = 0.4;
const TITLE_LINE: f64 = 0.5;
const TITLE_PAD: f64 = 0.3;
const TITLE_CHAR: f64 = 0.55 * TITLE_FONT;

/// The title's lines, wrapped at spaces to fit `width` cells (a word longer
/// than that stands on its own line, and the picture is drawn wider).
fn title_lines(title: &str, width: f64) -> Vec<String> {
    let fits = ((width / TITLE_CHAR).floor() as usize).max(1);
    let mut lines: Vec<String> = vec![];
    for word in title.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= fits => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// The width a picture takes with its title, in cells.
fn width_with_title(p: &Picture) -> f64 {
    title_lines(&p.title, p.width)
        .iter()
        .map(|l| l.chars().count() as f64 * TITLE_CHAR)
        .fold(p.width, f64::max)
}

/// The title band's height of a picture, in cells.
fn title_band(p: &Picture) -> f64 {
    TITLE_PAD + TITLE_LINE * title_lines(&p.title, p.width).len().max(1) as f64
}

/// The SVG document of `pictures`, side by side in rows (at most
/// [`MAX_PICTURES`] of them).
pub fn svg(pictures: &[Picture]) -> anyhow::Result<String> {
    let pictures = &pictures[..pictures.len().min(MAX_PICTURES)];
    let k = pictures.len().max(1);
    let per_row = (k as f64).sqrt().ceil() as usize;
    let tile_w = pictures.iter().map(width_with_title).fold(1.0, f64::max) + 2.0 * MARGIN;
    let band = pictures.iter().map(title_band).fold(0.0, f64::max);
    let tile_h = pictures.iter().map(|p| p.height).fold(1.0, f64::max) + 2.0 * MARGIN + band;
    let rows = k.div_ceil(per_row);
    let size = (
        (tile_w * per_row as f64 * CELL_PX).ceil() as u32,
        (tile_h * rows as f64 * CELL_PX).ceil() as u32,
    );
    let mut text = String::new();
    {
        let mut b = SVGBackend::with_string(&mut text, size);
        b.draw_rect(
            (0, 0),
            (size.0 as i32, size.1 as i32),
            &plotters::style::WHITE,
            true,
        )
        .map_err(fail)?;
        for (i, p) in pictures.iter().enumerate() {
            let origin = (
                (i % per_row) as f64 * tile_w + (tile_w - p.width) / 2.0,
                (i / per_row) as f64 * tile_h + MARGIN + band,
            );
            draw(&mut b, p, origin)?;
        }
        b.present().map_err(fail)?;
    }
    Ok(text)
}

/// Draws `p` with its top-left corner at `origin` (cells).
fn draw(b: &mut SVGBackend, p: &Picture, origin: Point) -> anyhow::Result<()> {
    let px = |(x, y): Point| {
        (
            ((origin.0 + x) * CELL_PX).round() as i32,
            ((origin.1 + y) * CELL_PX).round() as i32,
        )
    };
    let font = |size: f64| {
        TextStyle::from(FontDesc::new(
            FontFamily::SansSerif,
            size * CELL_PX,
            FontStyle::Normal,
        ))
        .color(&plotters::style::BLACK)
        .pos(Pos::new(HPos::Center, VPos::Center))
    };
    let lines = title_lines(&p.title, p.width);
    let top = -title_band(p) + TITLE_PAD / 2.0;
    for (i, line) in lines.iter().enumerate() {
        let y = top + (i as f64 + 0.5) * TITLE_LINE;
        b.draw_text(line, &font(TITLE_FONT), px((p.width / 2.0, y)))
            .map_err(fail)?;
    }
    for s in &p.shapes {
        match s {
            Shape::Cell {
                row,
                col,
                fill,
                label,
            } => {
                let (x, y) = (*col as f64, *row as f64);
                b.draw_rect(px((x, y)), px((x + 1.0, y + 1.0)), &fill.rgb(), true)
                    .map_err(fail)?;
                b.draw_rect(
                    px((x, y)),
                    px((x + 1.0, y + 1.0)),
                    &Colour(90, 90, 90).rgb(),
                    false,
                )
                .map_err(fail)?;
                if !label.is_empty() {
                    let size = if label.chars().count() > 3 { 0.3 } else { 0.42 };
                    b.draw_text(label, &font(size), px(centre(*row, *col)))
                        .map_err(fail)?;
                }
            }
            Shape::Line {
                points,
                colour,
                width,
                closed,
            } => {
                let mut path: Vec<(i32, i32)> = points.iter().map(|&q| px(q)).collect();
                if *closed {
                    if let Some(&first) = path.first() {
                        path.push(first);
                    }
                }
                let style = ShapeStyle {
                    color: colour.rgb().to_rgba(),
                    filled: false,
                    stroke_width: (width * CELL_PX).round().max(1.0) as u32,
                };
                b.draw_path(path, &style).map_err(fail)?;
            }
            Shape::Disc {
                centre,
                radius,
                fill,
            } => {
                let r = (radius * CELL_PX).round().max(1.0) as u32;
                b.draw_circle(px(*centre), r, &fill.rgb(), true)
                    .map_err(fail)?;
            }
            Shape::Arrow { from, to, colour } => {
                let (dx, dy) = (to.0 - from.0, to.1 - from.1);
                let len = (dx * dx + dy * dy).sqrt().max(1e-9);
                let (ux, uy) = (dx / len, dy / len);
                let head = 0.18;
                let back = (to.0 - ux * head, to.1 - uy * head);
                let left = (back.0 - uy * head * 0.5, back.1 + ux * head * 0.5);
                let right = (back.0 + uy * head * 0.5, back.1 - ux * head * 0.5);
                let style = ShapeStyle {
                    color: colour.rgb().to_rgba(),
                    filled: false,
                    stroke_width: 2,
                };
                b.draw_path(vec![px(*from), px(back)], &style)
                    .map_err(fail)?;
                b.fill_polygon(vec![px(*to), px(left), px(right)], &colour.rgb())
                    .map_err(fail)?;
            }
            Shape::Text { at, text, size } => {
                b.draw_text(text, &font(*size), px(*at)).map_err(fail)?;
            }
        }
    }
    Ok(())
}

/// A drawing error in words.
fn fail<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the SVG: {e:?}")
}

/// Writes the SVG of `pictures` to `path` (whole or not at all).
pub fn write(path: &std::path::Path, pictures: &[Picture]) -> anyhow::Result<()> {
    let text = svg(pictures)?;
    crate::io::write_string_atomic(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_become_svg_elements() {
        let mut p = Picture::board(
            &[
                vec!["1".into(), "2".into()],
                vec!["3".into(), String::new()],
            ],
            "a board",
            |r, c| Colour::palette(r * 2 + c, 4),
        );
        p.add(Shape::Disc {
            centre: centre(1, 1),
            radius: 0.3,
            fill: Colour::BLACK,
        });
        p.add(Shape::Line {
            points: vec![centre(0, 0), centre(0, 1), centre(1, 0)],
            colour: Colour::PATH,
            width: 0.05,
            closed: true,
        });
        p.add(Shape::Arrow {
            from: (0.0, 0.0),
            to: (1.0, 1.0),
            colour: Colour::BLACK,
        });
        let s = svg(&[p.clone(), p]).unwrap();
        assert!(
            s.starts_with("<svg") && s.trim_end().ends_with("</svg>"),
            "{s}"
        );
        assert_eq!(s.matches("<circle").count(), 2);
        // background + 2 × 4 cells, each filled and bordered
        assert_eq!(s.matches("<rect").count(), 1 + 2 * 8);
        assert_eq!(s.matches(">\na board\n</text>").count(), 2);
        assert_eq!(s.matches(">\n3\n</text>").count(), 2);
        assert_eq!(s.matches("<polyline").count(), 2 * 2);
        assert_eq!(s.matches("<polygon").count(), 2);
    }

    #[test]
    fn a_long_title_is_wrapped_to_its_picture() {
        let title = "goal in 3 colours; numbers: clicks (10 in all)";
        let lines = title_lines(title, 4.0);
        assert_eq!(lines.join(" "), title);
        assert!(lines.len() > 1, "{lines:?}");
        for l in &lines {
            assert!(l.chars().count() as f64 * TITLE_CHAR <= 4.0, "{l}");
        }
        let p = Picture::new(4.0, 4.0, title);
        assert_eq!(width_with_title(&p), 4.0);
        // a word wider than the picture widens it
        assert!(width_with_title(&Picture::new(1.0, 1.0, "wonderful")) > 1.0);
    }

    #[test]
    fn palettes_are_distinct() {
        let cols: std::collections::BTreeSet<(u8, u8, u8)> = (0..12)
            .map(|i| {
                let c = Colour::palette(i, 12);
                (c.0, c.1, c.2)
            })
            .collect();
        assert_eq!(cols.len(), 12);
        assert_eq!(Colour::ramp(0.0), Colour::WHITE);
    }
}
