//! The cover check of certified cube-and-conquer (Heule, Kullmann & Marek,
//! "Solving and Verifying the Boolean Pythagorean Triples problem via
//! Cube-and-Conquer", SAT 2016): the cubes whose UNSAT answers were proved
//! must leave no assignment out. Checked here on the cubes as they were
//! written into the proved formulas, not on how they were generated: they
//! are 2^d conjunctions over the same d distinct variables with pairwise
//! different sign patterns, so they are all 2^d sign patterns, and every
//! assignment agrees with exactly one of them.

use std::collections::BTreeSet;
use std::fmt;

use rustsat::types::{Lit, Var};

/// A passed cover check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cover {
    /// the split variables (DIMACS numbers, positive)
    pub vars: Vec<u32>,
    /// cubes checked: 2^vars
    pub cubes: usize,
}

impl fmt::Display for Cover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let vars: Vec<String> = self.vars.iter().map(u32::to_string).collect();
        write!(
            f,
            "cover checked: the {} cubes are the {} sign patterns of {} distinct variables ({}), so every assignment lies in one of them",
            self.cubes,
            self.cubes,
            self.vars.len(),
            vars.join(", ")
        )
    }
}

/// Checks that `cubes` (each a conjunction of literals) cover every
/// assignment as a complete binary split; the error says which condition
/// fails.
pub fn check_cover(cubes: &[Vec<Lit>]) -> Result<Cover, String> {
    let Some(first) = cubes.first() else {
        return Err("no cubes".into());
    };
    let vars: BTreeSet<Var> = first.iter().map(|l| l.var()).collect();
    if vars.len() != first.len() {
        return Err("the first cube names a variable twice".into());
    }
    let d = vars.len();
    if d >= usize::BITS as usize - 1 || cubes.len() != 1 << d {
        return Err(format!(
            "{} cubes over {d} variables: a complete split has {}",
            cubes.len(),
            1u128 << d.min(127)
        ));
    }
    let mut patterns = BTreeSet::new();
    for (i, c) in cubes.iter().enumerate() {
        let these: BTreeSet<Var> = c.iter().map(|l| l.var()).collect();
        if these != vars || c.len() != d {
            return Err(format!(
                "cube {i} is not over the split variables of cube 0"
            ));
        }
        let mut pattern: Vec<(Var, bool)> = c.iter().map(|l| (l.var(), l.is_pos())).collect();
        pattern.sort();
        if !patterns.insert(pattern) {
            return Err(format!(
                "cube {i} repeats the sign pattern of an earlier cube"
            ));
        }
    }
    Ok(Cover {
        vars: vars.iter().map(|v| v.idx32() + 1).collect(),
        cubes: cubes.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use puzzlesat_encodings::lit;

    #[test]
    fn a_complete_split_covers_and_others_do_not() {
        let (a, b) = (lit(2, false), lit(7, true));
        let all = vec![vec![a, b], vec![!a, b], vec![a, !b], vec![!a, !b]];
        let c = check_cover(&all).unwrap();
        assert_eq!((c.vars.clone(), c.cubes), (vec![3, 8], 4));
        assert!(c.to_string().starts_with("cover checked: the 4 cubes"));
        // a pattern twice (one left out)
        let twice = vec![vec![a, b], vec![!a, b], vec![a, !b], vec![a, b]];
        assert!(check_cover(&twice).unwrap_err().contains("repeats"));
        // a cube missing
        assert!(check_cover(&all[..3]).is_err());
        // a cube over another variable
        let other = vec![vec![a, b], vec![!a, b], vec![a, !b], vec![!a, lit(9, true)]];
        assert!(check_cover(&other).unwrap_err().contains("cube 3"));
        // a variable twice in a cube
        assert!(check_cover(&[vec![a, !a], vec![a, a]]).is_err());
        assert!(check_cover(&[]).is_err());
    }
}
