//! Brute force over every click matrix, for tiny `(n, c)`: the reference the
//! CNF is compared with. For each reachable board it finds the fewest clicks
//! reaching it; the hardest board is the one whose fewest is largest (the
//! question of Gent, Linton & Smith, APES-22-2000).

use std::collections::{HashMap, HashSet};

use super::model::{effect, Grid};

/// What brute force finds about the hardest goals of an `(n, c)` game.
#[derive(Clone, Debug)]
pub struct Hardest {
    /// the largest number of clicks any reachable board needs
    pub clicks: u32,
    /// every click matrix that is minimal for its board and has that many clicks
    pub optimal: Vec<Grid>,
    /// how many distinct boards those reach
    pub goals: usize,
    /// how many boards are reachable at all
    pub reachable: usize,
}

/// Enumerates all `c^(n²)` click matrices (refuses more than 2^26).
pub fn hardest(n: usize, c: u32) -> Hardest {
    let cells = n * n;
    let count = (c as u64)
        .checked_pow(cells as u32)
        .filter(|&k| k <= 1 << 26)
        .expect("too many click matrices for brute force");
    let decode = |code: u64| Grid {
        n,
        cells: (0..cells)
            .map(|p| ((code / (c as u64).pow(p as u32)) % c as u64) as u32)
            .collect(),
    };
    let mut fewest: HashMap<Vec<u32>, u32> = HashMap::new();
    for code in 0..count {
        let k = decode(code);
        let t = k.total();
        let e = fewest.entry(effect(&k, c).cells).or_insert(t);
        *e = (*e).min(t);
    }
    let clicks = fewest.values().copied().max().unwrap_or(0);
    let mut optimal = vec![];
    let mut goals = HashSet::new();
    for code in 0..count {
        let k = decode(code);
        if k.total() == clicks {
            let g = effect(&k, c).cells;
            if fewest[&g] == clicks {
                goals.insert(g);
                optimal.push(k);
            }
        }
    }
    Hardest {
        clicks,
        optimal,
        goals: goals.len(),
        reachable: fewest.len(),
    }
}
