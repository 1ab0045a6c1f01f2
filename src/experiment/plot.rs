//! Plots of an experiment's rows, each written as SVG and PNG (plotters):
//! - `time`: seconds (encode + solve, median over repeats, solved rows)
//!   against instance size, one line per configuration, log scale;
//! - `clauses`: CNF clauses against instance size, log scale;
//! - `cactus`: the classic solver-competition plot, instances solved
//!   against the time limit needed, one line per configuration.
//!
//! Text is drawn with a TrueType font read at run time (`PUZZLESAT_FONT`,
//! else DejaVu Sans or Liberation Sans from the usual system folders).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{anyhow, Context};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::grid::Grid;
use super::row::Row;
use super::summary::{by_config, median};

/// Font files tried in order (after `$PUZZLESAT_FONT`).
const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation/LiberationSans-Regular.ttf",
    "/Library/Fonts/Arial.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
];

/// Registers a font for plot text once; the error says where it looked.
pub fn ensure_font() -> anyhow::Result<()> {
    static FONT: OnceLock<Result<(), String>> = OnceLock::new();
    FONT.get_or_init(|| {
        let chosen = std::env::var_os("PUZZLESAT_FONT").map(PathBuf::from);
        // the font a user names must be a font file (a FIFO or a device is
        // refused, not read without end)
        if let Some(path) = &chosen {
            let bytes = crate::io::input::read_bytes(path, crate::io::input::DATA_CAP)
                .map_err(|e| format!("PUZZLESAT_FONT: {e:#}"))?;
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            return plotters::style::register_font("sans-serif", FontStyle::Normal, bytes)
                .map_err(|_| format!("PUZZLESAT_FONT {}: not a TrueType font", path.display()));
        }
        for path in FONT_PATHS.iter().map(PathBuf::from) {
            if let Ok(bytes) = crate::io::input::read_bytes(&path, crate::io::input::DATA_CAP) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return Ok(());
                }
            }
        }
        Err(format!(
            "no TrueType font found for the plots (set PUZZLESAT_FONT to a .ttf file; tried {})",
            FONT_PATHS.join(", ")
        ))
    })
    .clone()
    .map_err(|e| anyhow!(e))
}

/// A line of a plot: its label and its points.
type Series = (String, Vec<(f64, f64)>);

/// The x position of each size: the number itself when every size is a
/// number, else its index (labelled with the size's text).
fn size_positions(grid: &Grid) -> (Vec<f64>, bool) {
    let numeric: Option<Vec<f64>> = grid.sizes.iter().map(|s| s.parse::<f64>().ok()).collect();
    match numeric {
        Some(v) => (v, true),
        None => ((0..grid.sizes.len()).map(|i| i as f64).collect(), false),
    }
}

/// Per configuration, a value per size from the rows at that size.
fn per_size(grid: &Grid, rows: &[Row], value: impl Fn(&[&Row]) -> Option<f64>) -> Vec<Series> {
    let (xs, _) = size_positions(grid);
    by_config(grid, rows)
        .into_iter()
        .map(|(config, g)| {
            let points = grid
                .sizes
                .iter()
                .zip(&xs)
                .filter_map(|(s, &x)| {
                    let at: Vec<&Row> = g
                        .iter()
                        .copied()
                        .filter(|r| r.params.get(&grid.size_param) == Some(s))
                        .collect();
                    // a log axis has no place for 0 (e.g. no CNF at all)
                    value(&at).filter(|&y| y > 0.0).map(|y| (x, y))
                })
                .collect();
            (config, points)
        })
        .collect()
}

/// The series of the three plots.
pub fn series(grid: &Grid, rows: &[Row]) -> [(String, Vec<Series>); 3] {
    let time = per_size(grid, rows, |at| {
        median(
            &mut at
                .iter()
                .filter(|r| r.solved())
                .map(|r| r.time())
                .collect::<Vec<_>>(),
        )
    });
    let clauses = per_size(grid, rows, |at| {
        let c: Vec<f64> = at
            .iter()
            .filter_map(|r| r.clauses)
            .map(|c| c as f64)
            .collect();
        (!c.is_empty()).then(|| c.iter().sum::<f64>() / c.len() as f64)
    });
    let cactus = by_config(grid, rows)
        .into_iter()
        .map(|(config, g)| {
            let mut t: Vec<f64> = g.iter().filter(|r| r.solved()).map(|r| r.time()).collect();
            t.sort_by(f64::total_cmp);
            (
                config,
                t.into_iter()
                    .enumerate()
                    .map(|(i, t)| ((i + 1) as f64, t))
                    .collect(),
            )
        })
        .collect();
    [
        ("time".into(), time),
        ("clauses".into(), clauses),
        ("cactus".into(), cactus),
    ]
}

/// Writes `time`, `clauses` (when the grid has sizes) and `cactus`, as
/// `.svg` and `.png`, into `dir`. Returns the files written.
pub fn write_all(grid: &Grid, rows: &[Row], dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if rows.is_empty() {
        return Ok(vec![]);
    }
    ensure_font()?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let (_, numeric) = size_positions(grid);
    let size_label = if grid.size_param.is_empty() {
        "size".to_string()
    } else {
        grid.size_param.clone()
    };
    let mut written = vec![];
    for (name, series) in series(grid, rows) {
        let is_cactus = name == "cactus";
        if !is_cactus && grid.sizes.is_empty() {
            continue;
        }
        let plot = Plot {
            title: match name.as_str() {
                "time" => format!(
                    "{}: seconds (encode + solve, median) vs {size_label}",
                    grid.name
                ),
                "clauses" => format!("{}: CNF clauses vs {size_label}", grid.name),
                _ => format!("{}: instances solved vs time (cactus)", grid.name),
            },
            x_label: if is_cactus {
                "instances solved".into()
            } else {
                size_label.clone()
            },
            y_label: if name == "clauses" {
                "clauses (log)".into()
            } else {
                "seconds (log)".into()
            },
            x_names: if is_cactus || numeric {
                None
            } else {
                Some(
                    grid.sizes
                        .iter()
                        .map(|s| super::summary::short_label(s))
                        .collect(),
                )
            },
            series,
        };
        let size = (
            900,
            CHART_HEIGHT + LEGEND_LINE * plot.series.len() as u32 + 10,
        );
        // both files appear whole or not at all (renamed into place)
        let svg = dir.join(format!("{name}.svg"));
        let mut text = String::new();
        plot.draw(SVGBackend::with_string(&mut text, size).into_drawing_area())
            .with_context(|| format!("drawing {}", svg.display()))?;
        crate::io::write_string_atomic(&svg, &text)?;
        let png = dir.join(format!("{name}.png"));
        // the encoder writes the temporary file by its name (whose
        // extension, `.png`, picks the format)
        let drawn = (|| {
            let partial = crate::io::output::Pending::new(dir, &format!("{name}.png"))?;
            let root = BitMapBackend::new(partial.path(), size).into_drawing_area();
            plot.draw(root.clone())?;
            root.present().map_err(|e| anyhow!("{e}"))?;
            drop(root);
            partial.replace(&png)?;
            anyhow::Ok(())
        })();
        drawn.with_context(|| format!("writing {}", png.display()))?;
        written.push(svg);
        written.push(png);
    }
    Ok(written)
}

/// Tableau's ten colours (told apart easily, also in print), then plotters'
/// 99-colour palette.
fn series_color(i: usize) -> RGBAColor {
    const TABLEAU: [(u8, u8, u8); 10] = [
        (31, 119, 180),
        (255, 127, 14),
        (44, 160, 44),
        (214, 39, 40),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ];
    match TABLEAU.get(i) {
        Some(&(r, g, b)) => RGBColor(r, g, b).to_rgba(),
        None => Palette99::pick(i).to_rgba(),
    }
}

/// Height of the chart; the legend goes below it, one line per series.
const CHART_HEIGHT: u32 = 520;
const LEGEND_LINE: u32 = 20;

/// One plot, drawable on any backend.
struct Plot {
    title: String,
    x_label: String,
    y_label: String,
    /// category names for a non-numeric x axis
    x_names: Option<Vec<String>>,
    series: Vec<Series>,
}

impl Plot {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> anyhow::Result<()>
    where
        DB::ErrorType: 'static,
    {
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow!("{e:?}");
        root.fill(&WHITE).map_err(err)?;
        let (chart_area, legend_area) = root.split_vertically(CHART_HEIGHT);
        let points = self.series.iter().flat_map(|(_, p)| p.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
        );
        for &(x, y) in points {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if !x0.is_finite() {
            // nothing solved: an empty frame with the title says so
            (x0, x1, y0, y1) = (0.0, 1.0, 1.0, 10.0);
        }
        let pad = ((x1 - x0) * 0.05).max(0.5);
        // whole decades, so the log axis always has labelled ticks
        let y0 = 10f64.powf(y0.max(1e-4).log10().floor()) * 0.999;
        let y1 = 10f64.powf((y1.max(1e-4) * 1.2).log10().ceil());
        let mut chart = ChartBuilder::on(&chart_area)
            .caption(&self.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x0 - pad..x1 + pad, (y0..y1).log_scale())
            .map_err(err)?;
        let names = self.x_names.clone();
        let x_fmt = move |x: &f64| match &names {
            Some(n) if (x - x.round()).abs() < 1e-6 && *x >= 0.0 => {
                n.get(x.round() as usize).cloned().unwrap_or_default()
            }
            Some(_) => String::new(),
            None if (x - x.round()).abs() < 1e-6 => format!("{}", x.round() as i64),
            None => String::new(),
        };
        let y_fmt = |y: &f64| {
            if *y >= 1e5 || *y < 1e-3 {
                format!("{y:.0e}")
            } else {
                format!("{}", (y * 1000.0).round() / 1000.0)
            }
        };
        chart
            .configure_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        for (i, (label, pts)) in self.series.iter().enumerate() {
            let color = series_color(i);
            chart
                .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
                .map_err(err)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, color.filled())))
                .map_err(err)?;
            // the legend, below the chart where it hides no data
            let y = (LEGEND_LINE * i as u32 + LEGEND_LINE / 2) as i32;
            legend_area
                .draw(&PathElement::new(
                    vec![(80, y), (110, y)],
                    color.stroke_width(3),
                ))
                .map_err(err)?;
            legend_area
                .draw(&Circle::new((95, y), 4, color.filled()))
                .map_err(err)?;
            legend_area
                .draw(&Text::new(
                    if pts.is_empty() {
                        format!("{label} (no point: nothing solved)")
                    } else {
                        label.clone()
                    },
                    (120, y - 7),
                    ("sans-serif", 14).into_font().color(&BLACK),
                ))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
        Ok(())
    }
}
