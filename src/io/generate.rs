//! Generated benchmark formulas with known answers, for the backend tests,
//! the benches and `tests/cnf`:
//!
//! - the pigeonhole principle PHP(n+1, n) (n+1 pigeons, n holes): UNSAT,
//!   and exponentially hard for resolution (Haken, "The intractability of
//!   resolution", TCS 1985), so a small n already makes CDCL work;
//! - PHP(n, n): SAT (same clauses, one pigeon fewer);
//! - uniform random 3-SAT with a fixed seed (Mitchell, Selman & Levesque,
//!   "Hard and easy distributions of SAT problems", AAAI 1992): at the
//!   clause/variable ratio ≈ 4.26 about half the instances are satisfiable
//!   and they are hardest; the answer of a given seed is whatever a solver
//!   proves (the tests cross-check the backends against each other).
//!
//! The random generator is SplitMix64 (Steele, Lea & Flood, OOPSLA 2014),
//! written out here so the formulas never change with a dependency.

use puzzlesat_encodings::{ClauseDatabase, Cnf};
use rustsat::instances::ManageVars;
use rustsat::types::{Lit, Var};

/// PHP(pigeons, holes): variable `p*holes + h` says pigeon p sits in hole
/// h. Every pigeon in some hole; no two pigeons share a hole. UNSAT iff
/// pigeons > holes.
pub fn pigeonhole(pigeons: u32, holes: u32) -> Cnf {
    let mut cnf = Cnf::new();
    let x = |p: u32, h: u32| Var::new(p * holes + h).pos_lit();
    for p in 0..pigeons {
        // pigeon p sits somewhere
        let some_hole: Vec<Lit> = (0..holes).map(|h| x(p, h)).collect();
        cnf.add(&some_hole);
    }
    for h in 0..holes {
        for p in 0..pigeons {
            for q in p + 1..pigeons {
                // pigeons p and q do not share hole h
                cnf.add(&[!x(p, h), !x(q, h)]);
            }
        }
    }
    cnf.increase_next_free(Var::new(pigeons * holes));
    cnf
}

/// SplitMix64: a tiny, fixed pseudo-random generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (n > 0; the modulo bias is negligible here).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Uniform random k-SAT: `clauses` clauses of `k` distinct variables out of
/// `vars` (k ≤ vars), each negated with probability 1/2.
pub fn random_ksat(vars: u32, clauses: usize, k: u32, seed: u64) -> Cnf {
    assert!(k <= vars, "random_ksat: k = {k} > {vars} variables");
    let mut rng = SplitMix64::new(seed);
    let mut cnf = Cnf::new();
    let mut clause: Vec<Lit> = Vec::with_capacity(k as usize);
    for _ in 0..clauses {
        clause.clear();
        while clause.len() < k as usize {
            let v = Var::new(rng.below(u64::from(vars)) as u32);
            if clause.iter().any(|l| l.var() == v) {
                continue;
            }
            clause.push(if rng.next_u64() & 1 == 1 { v.neg_lit() } else { v.pos_lit() });
        }
        cnf.add(&clause);
    }
    cnf.increase_next_free(Var::new(vars));
    cnf
}

/// Random 3-SAT at the threshold ratio 4.26 (rounded to whole clauses).
pub fn random_3sat_threshold(vars: u32, seed: u64) -> Cnf {
    random_ksat(vars, (f64::from(vars) * 4.26).round() as usize, 3, seed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pigeonhole_counts() {
        // n+1 pigeon clauses + n * C(n+1, 2) hole clauses
        let cnf = pigeonhole(5, 4);
        assert_eq!(cnf.n_vars(), 20);
        assert_eq!(cnf.len(), 5 + 4 * 10);
    }

    #[test]
    fn random_3sat_is_reproducible_and_well_formed() {
        let a = random_3sat_threshold(50, 7);
        let b = random_3sat_threshold(50, 7);
        assert_eq!(a.len(), 213);
        assert_eq!(a.clauses().collect::<Vec<_>>(), b.clauses().collect::<Vec<_>>());
        for c in a.clauses() {
            assert_eq!(c.len(), 3);
            assert!(c[0].var() != c[1].var() && c[0].var() != c[2].var() && c[1].var() != c[2].var());
        }
    }
}
