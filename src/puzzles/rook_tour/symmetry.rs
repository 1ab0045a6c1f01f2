//! The symmetries of a numbered-path board: a symmetry of the rectangle (the
//! board group of `puzzlesat_encodings::perm::board_group`: 8 elements for a
//! square, 4 otherwise) combined with a map
//! of the values that keeps paths paths — the identity or the reversal
//! `v ↦ n+1-v` for paths; for tours also the rotations `v ↦ v+t (mod n)`
//! and their reversals. An element is kept when it maps the rules onto
//! themselves: the value table of every cell (givens, sets, `exactly`
//! complements, see [`Instance::allowed`]) goes to the table of its image
//! cell with the values mapped, `allowed[g(c)] = φ(allowed[c])`. Those
//! elements form a group (the stabiliser of the table), and every one maps
//! solutions to solutions, so lex-leader clauses over the group
//! (Crawford, Ginsberg, Luks & Roy, "Symmetry-breaking predicates for search
//! problems", KR 1996) keep exactly one solution per class.

use puzzlesat_encodings::perm::{board_group, Perm};

use super::model::{Cell, Instance, Numbering};

/// One symmetry: a permutation of the cells and one of the values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSymmetry {
    /// e.g. `rot90`, `flip-h+reverse`, `shift 3`
    pub name: String,
    /// `cells[c]` is the image of cell `c`
    pub cells: Vec<Cell>,
    /// `values[v]` is the image of value `v` (index 0 unused)
    pub values: Vec<u32>,
}

impl BoardSymmetry {
    /// The image of a solution: cell `g(c)` gets `φ(value of c)`.
    pub fn apply(&self, sol: &Numbering) -> Numbering {
        let old = sol.cells();
        let mut new = vec![0; old.len()];
        for (c, &v) in old.iter().enumerate() {
            new[self.cells[c]] = self.values[v as usize];
        }
        let cols = sol.values[0].len();
        Numbering::from_cells(old.len() / cols, cols, &new)
    }
    /// The permutation of the "cell c holds k" literals, indexed
    /// `c·n + (k−1)`: the product of the cell and value permutations.
    pub fn on_holds(&self) -> Perm {
        let bijection = "a board symmetry permutes the cells and the values";
        let cells =
            Perm::from_images(self.cells.iter().map(|&c| c as u32).collect()).expect(bijection);
        let values =
            Perm::from_images(self.values[1..].iter().map(|&v| v - 1).collect()).expect(bijection);
        cells.product(&values)
    }

    /// True for the identity.
    pub fn is_identity(&self) -> bool {
        self.cells.iter().enumerate().all(|(i, &c)| i == c)
            && self
                .values
                .iter()
                .enumerate()
                .all(|(i, &v)| i == v as usize)
    }
}

/// The value maps that keep a path a path (a tour a tour).
fn value_maps(n: usize, tour: bool) -> Vec<(String, Vec<u32>)> {
    let n32 = n as u32;
    let mut maps = vec![("".to_string(), (0..=n32).collect::<Vec<u32>>())];
    maps.push((
        "reverse".into(),
        std::iter::once(0)
            .chain((1..=n32).map(|v| n32 + 1 - v))
            .collect(),
    ));
    if tour {
        for t in 1..n32 {
            maps.push((
                format!("shift {t}"),
                std::iter::once(0)
                    .chain((1..=n32).map(|v| (v - 1 + t) % n32 + 1))
                    .collect(),
            ));
            maps.push((
                format!("reverse+shift {t}"),
                std::iter::once(0)
                    .chain((1..=n32).map(|v| (n32 - v + t) % n32 + 1))
                    .collect(),
            ));
        }
    }
    maps
}

/// Every symmetry of the board and the values that maps the rules onto
/// themselves, each once (under its first name), the identity first.
pub fn symmetries(inst: &Instance) -> Vec<BoardSymmetry> {
    let n = inst.n();
    let allowed = inst.allowed();
    let mut out = vec![];
    for (map, perm) in board_group(inst.rows, inst.cols) {
        let gname = map.name();
        let cells: Vec<Cell> = perm.images().iter().map(|&c| c as Cell).collect();
        for (vname, values) in value_maps(n, inst.tour) {
            let keeps_rules = (0..n)
                .all(|c| (1..=n).all(|v| allowed[c][v] == allowed[cells[c]][values[v] as usize]));
            // on thin boards some maps coincide (1×n: flip-v is the identity)
            let seen = out
                .iter()
                .any(|g: &BoardSymmetry| g.cells == cells && g.values == values);
            if keeps_rules && !seen {
                let name = match (gname, vname.as_str()) {
                    (g, "") => g.to_string(),
                    ("id", v) => v.to_string(),
                    (g, v) => format!("{g}+{v}"),
                };
                out.push(BoardSymmetry {
                    name,
                    cells: cells.clone(),
                    values,
                });
            }
        }
    }
    out
}
