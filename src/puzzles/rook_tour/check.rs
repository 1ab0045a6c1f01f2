//! The independent checker, written from the puzzle's rules (never from the
//! CNF, and without the encodings' `allowed` table): the board's shape, every
//! value 1..=R·C exactly once, consecutive values orthogonally adjacent, R·C
//! adjacent to 1 for a tour, marked cells in their set, `exactly` sets only in
//! their marked cells, givens kept.

use super::model::{Instance, Numbering};

/// `Ok(())` if `sol` obeys every rule of `inst`, else the first broken rule.
pub fn check(inst: &Instance, sol: &Numbering) -> Result<(), String> {
    let n = inst.n();
    if sol.values.len() != inst.rows || sol.values.iter().any(|r| r.len() != inst.cols) {
        return Err(format!("the board is not {}x{}", inst.rows, inst.cols));
    }
    // where each value is
    let mut place = vec![None; n + 1];
    for r in 0..inst.rows {
        for c in 0..inst.cols {
            let v = sol.values[r][c] as usize;
            if v < 1 || v > n {
                return Err(format!(
                    "cell {},{} holds {v}, outside 1..={n}",
                    r + 1,
                    c + 1
                ));
            }
            if let Some((r0, c0)) = place[v] {
                return Err(format!(
                    "value {v} is in cells {},{} and {},{}",
                    r0 + 1,
                    c0 + 1,
                    r + 1,
                    c + 1
                ));
            }
            place[v] = Some((r, c));
        }
    }
    let pos = |v: usize| place[v].expect("n cells hold n distinct values in 1..=n");
    let adjacent =
        |a: (usize, usize), b: (usize, usize)| a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1;
    for v in 1..n {
        if !adjacent(pos(v), pos(v + 1)) {
            return Err(format!("{v} and {} are not orthogonal neighbours", v + 1));
        }
    }
    if inst.tour && !adjacent(pos(n), pos(1)) {
        return Err(format!("not a tour: {n} is not next to 1"));
    }
    for r in 0..inst.rows {
        for c in 0..inst.cols {
            let cell = r * inst.cols + c;
            let v = sol.values[r][c];
            if let Some(g) = inst.givens[cell] {
                if v != g {
                    return Err(format!(
                        "cell {},{} is given {g} but holds {v}",
                        r + 1,
                        c + 1
                    ));
                }
            }
            for (i, set) in inst.sets.iter().enumerate() {
                let marked = inst.marks[cell] == Some(i);
                let member = set.values.contains(&v);
                if marked && !member {
                    return Err(format!(
                        "cell {},{} is marked '{}' but holds {v}",
                        r + 1,
                        c + 1,
                        set.name
                    ));
                }
                if set.exactly && member && !marked {
                    return Err(format!(
                        "cell {},{} holds {v} of the set '{}' but is not marked with it",
                        r + 1,
                        c + 1,
                        set.name
                    ));
                }
            }
        }
    }
    Ok(())
}
