//! The split of a run into cubes: the first d = ⌈log₂ K⌉ splitting
//! literals the puzzle proposes, 2^d cubes covering every assignment once
//! (cube-and-conquer, Heule, Kullmann, Wieringa & Biere, "Cube and
//! Conquer: Guiding CDCL SAT Solvers by Lookaheads", 2011).

use anyhow::bail;
use rustsat::types::Lit;

/// The most cubes `--cubes` may ask for.
pub const MAX_CUBES: u32 = 1 << 16;

/// The splitting literals of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// the first d literals proposed (distinct variables)
    pub literals: Vec<Lit>,
}

impl Split {
    /// The first ⌈log₂ count⌉ of `candidates` over distinct variables.
    pub fn new(candidates: &[Lit], count: u32) -> anyhow::Result<Split> {
        if !(2..=MAX_CUBES).contains(&count) {
            bail!("--cubes {count}: expected 2 to {MAX_CUBES}");
        }
        let depth = count.next_power_of_two().trailing_zeros() as usize;
        let mut literals: Vec<Lit> = vec![];
        for &l in candidates {
            if literals.len() == depth {
                break;
            }
            if literals.iter().all(|k| k.var() != l.var()) {
                literals.push(l);
            }
        }
        if literals.len() < depth {
            bail!(
                "--cubes {count} needs {depth} splitting literals; this instance offers {}",
                literals.len()
            );
        }
        Ok(Split { literals })
    }
    /// How many cubes: 2^d.
    pub fn cubes(&self) -> u32 {
        1 << self.literals.len()
    }
    /// The assumptions of cube `index`.
    pub fn cube(&self, index: u32) -> Vec<Lit> {
        self.literals
            .iter()
            .enumerate()
            .map(|(j, &l)| if index >> j & 1 == 1 { l } else { !l })
            .collect()
    }
    /// The literals as DIMACS numbers.
    pub fn dimacs(&self) -> Vec<i32> {
        self.literals.iter().map(|l| l.to_ipasir()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzlesat_encodings::lit;

    #[test]
    fn cubes_cover_every_sign_pattern_once() {
        let cands = [lit(0, false), lit(0, true), lit(3, true), lit(5, false)];
        let s = Split::new(&cands, 3).unwrap();
        assert_eq!(s.literals, vec![lit(0, false), lit(3, true)]);
        assert_eq!(s.cubes(), 4);
        let all: std::collections::BTreeSet<Vec<Lit>> = (0..4).map(|i| s.cube(i)).collect();
        assert_eq!(all.len(), 4);
        assert_eq!(s.cube(1), vec![lit(0, false), !lit(3, true)]);
        assert!(Split::new(&cands, 16).is_err());
        assert!(Split::new(&cands, 1).is_err());
    }
}
