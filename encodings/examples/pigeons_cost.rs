//! What the `pigeons` crate (the VeriPB writer of RustSAT's proof logging)
//! would cost against this crate's typed steps ([`puzzlesat_encodings::proof`]),
//! measured on a kept proof: the `pol`, `rup`, `del` and `red` lines of a
//! `.pbp` file (99 % of the Enigma n = 8 proof's lines) are read back into
//! both writers' values, then each writer writes them all to memory, five
//! times; the fastest time and the bytes are printed (docs/certify.md,
//! "The proof writer").
//!
//! ```sh
//! cargo run --release -p puzzlesat-encodings --features pigeons --example pigeons_cost -- PROOF.pbp
//! ```
//!
//! pigeons 0.2.3 cannot write every step as it stands in the file: it has
//! no labels (`@name`: a label is given to it as id 1 here), its
//! coefficients and multipliers are `isize`/`usize` (a larger one skips
//! the step; the count is printed), and it writes the syntax of VeriPB 2.0.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use pigeons::{
    Axiom, ConstraintId, ConstraintLike, OperationLike, OperationSequence, Proof, Substitution,
    VarLike,
};
use puzzlesat_encodings::proof::{self, Big, Coef, Constraint, Op, Ref, Step, Value, Var};

/// A constraint as pigeons takes it.
struct PgConstraint<'a> {
    terms: Vec<(isize, Axiom<&'a str>)>,
    rhs: isize,
}

impl<'a> ConstraintLike<&'a str> for PgConstraint<'a> {
    fn rhs(&self) -> isize {
        self.rhs
    }
    fn sum_iter(&self) -> impl Iterator<Item = (isize, Axiom<&'a str>)> {
        self.terms.iter().copied()
    }
}

/// One line in pigeons' values.
enum PgStep<'a> {
    Pol(OperationSequence<&'a str>),
    Rup(PgConstraint<'a>, Vec<ConstraintId>),
    Del(Vec<ConstraintId>),
    Red(PgConstraint<'a>, Vec<Substitution<&'a str>>),
}

fn axiom(text: &str) -> Axiom<&str> {
    match text.strip_prefix('~') {
        Some(v) => v.neg_axiom(),
        None => text.pos_axiom(),
    }
}

fn big(text: &str) -> Big {
    text.bytes().fold(Big::zero(), |acc, d| {
        // acc·10 + d, by doublings
        let mut two = acc.clone();
        two.add_assign(&acc);
        let mut eight = two.clone();
        for _ in 0..2 {
            let e = eight.clone();
            eight.add_assign(&e);
        }
        eight.add_assign(&two);
        eight.add_assign(&Big::from_u64(u64::from(d - b'0')));
        eight
    })
}

fn pg_id(text: &str) -> ConstraintId {
    match text.parse::<i64>() {
        Ok(n) if n < 0 => ConstraintId::last(n.unsigned_abs() as usize),
        Ok(n) => ConstraintId::abs(n as usize),
        Err(_) => ConstraintId::abs(1), // a label: pigeons has none
    }
}

fn our_ref(text: &str) -> Ref {
    match (text.strip_prefix('@'), text.parse::<i64>()) {
        (Some(label), _) => Ref::Label(label.to_string()),
        (None, Ok(n)) if n < 0 => Ref::Last(n.unsigned_abs()),
        (None, Ok(n)) => Ref::Id(n as u64),
        (None, Err(_)) => panic!("'{text}' is not a constraint reference"),
    }
}

fn is_ref(text: &str) -> bool {
    text.starts_with('@') || text.parse::<i64>().is_ok()
}

/// `Σ c l >= k` from its words (`+1 x 2 ~y >= 3`).
fn constraint(words: &[&'static str]) -> Option<(Constraint, Option<PgConstraint<'static>>)> {
    let ge = words.iter().position(|w| *w == ">=")?;
    let degree: i64 = words.get(ge + 1)?.parse().ok()?;
    let mut ours = vec![];
    let mut pg = Some(vec![]);
    for pair in words[..ge].chunks(2) {
        let (c, l) = (pair[0], pair[1]);
        let (sign, digits) = match c.as_bytes()[0] {
            b'+' => (Some(true), &c[1..]),
            b'-' => (Some(false), &c[1..]),
            _ => (None, c),
        };
        ours.push((
            match sign {
                Some(s) => Coef::Signed(s, big(digits)),
                None => Coef::Unsigned(digits.parse().ok()?),
            },
            proof::Lit::from_text(l),
        ));
        let c_pg = digits
            .parse::<isize>()
            .ok()
            .map(|v| if sign == Some(false) { -v } else { v });
        pg = match (pg, c_pg) {
            (Some(mut t), Some(v)) => {
                t.push((v, axiom(l)));
                Some(t)
            }
            _ => None,
        };
    }
    let rhs = isize::try_from(degree).ok();
    Some((
        Constraint {
            terms: ours,
            degree,
        },
        pg.zip(rhs).map(|(terms, rhs)| PgConstraint { terms, rhs }),
    ))
}

/// A `pol` line's operations, in both writers' values: pigeons' built on
/// a stack of sequences as the checker reads them (None where a multiplier
/// is past `usize`). pigeons' weakening names no variable (`w`): a `v w`
/// is given to it as `w`, and `weakened` counts them.
fn pol(
    words: &[&'static str],
    weakened: &mut usize,
) -> (Vec<Op>, Option<OperationSequence<&'static str>>) {
    let mut ours = vec![];
    let mut stack: Vec<OperationSequence<&str>> = vec![];
    let mut fits = true;
    let mut i = 0;
    while i < words.len() {
        let (w, next) = (words[i], words.get(i + 1).copied());
        let top =
            |stack: &mut Vec<OperationSequence<&'static str>>| stack.pop().expect("an operand");
        match (w, next) {
            ("+", _) => {
                ours.push(Op::Add);
                let (b, a) = (top(&mut stack), top(&mut stack));
                stack.push(a + b);
            }
            ("s", _) => {
                ours.push(Op::Sat);
                let a = top(&mut stack);
                stack.push(a.saturate());
            }
            (c, Some("*")) => {
                ours.push(Op::Mul(big(c)));
                let a = top(&mut stack);
                match c.parse::<usize>() {
                    Ok(m) => stack.push(a * m),
                    Err(_) => {
                        fits = false;
                        stack.push(a);
                    }
                }
                i += 1;
            }
            (c, Some("d")) => {
                let d: usize = c.parse().expect("a divisor");
                ours.push(Op::Div(d as u64));
                let a = top(&mut stack);
                stack.push(a / d);
                i += 1;
            }
            (v, Some("w")) => {
                ours.push(Op::Weaken(Var(v.to_string())));
                *weakened += 1;
                let a = top(&mut stack);
                stack.push(a.weaken());
                i += 1;
            }
            (r, _) if is_ref(r) => {
                ours.push(Op::Ref(our_ref(r)));
                stack.push(pg_id(r).into());
            }
            (l, _) => {
                ours.push(Op::Axiom(proof::Lit::from_text(l)));
                stack.push(axiom(l).into());
            }
        }
        i += 1;
    }
    let seq = stack.pop().expect("an operation");
    (ours, (fits && stack.is_empty()).then_some(seq))
}

/// A `red C : x -> v …;` line's witness.
fn witness(words: &[&'static str]) -> (proof::Witness, Vec<Substitution<&'static str>>) {
    let mut ours = vec![];
    let mut pg = vec![];
    for t in words.chunks(3) {
        let (x, to) = (t[0], t[2]);
        let (value, sub) = match to {
            "0" => (Value::False, x.substitute_fixed(false)),
            "1" => (Value::True, x.substitute_fixed(true)),
            l => (
                Value::Lit(proof::Lit::from_text(l)),
                x.substitute_literal(axiom(l)),
            ),
        };
        ours.push((Var(x.to_string()), value));
        pg.push(sub);
    }
    (ours, pg)
}

/// Writes `steps` as the project's proof writer does: each step's text
/// formatted into one reused line, then written.
fn write_ours<'s>(out: &mut Vec<u8>, steps: impl Iterator<Item = &'s Step>) -> io::Result<()> {
    use std::fmt::Write as _;
    let mut line = String::new();
    for s in steps {
        line.clear();
        let _ = writeln!(line, "{s}");
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// Writes `steps` through a pigeons `Proof` (its header and its ending
/// included).
fn write_pigeons<'s>(
    out: &mut Vec<u8>,
    steps: impl Iterator<Item = &'s PgStep<'static>>,
) -> io::Result<()> {
    let mut p = Proof::new(out, 0, false)?;
    for s in steps {
        match s {
            PgStep::Pol(ops) => {
                p.operations(ops)?;
            }
            PgStep::Rup(c, hints) => {
                p.reverse_unit_prop(c, hints.iter().copied())?;
            }
            PgStep::Del(ids) => {
                p.delete_ids::<&str, PgConstraint, _, _>(ids.iter().copied(), None)?;
            }
            PgStep::Red(c, subs) => {
                p.redundant(c, subs.iter().copied(), None)?;
            }
        }
    }
    Ok(())
}

fn main() -> io::Result<()> {
    let path = std::env::args()
        .nth(1)
        .expect("usage: pigeons_cost PROOF.pbp");
    let text: &'static str = Box::leak(std::fs::read_to_string(&path)?.into_boxed_str());
    let (mut ours, mut pg, mut same) = (vec![], vec![], vec![]);
    let (mut lines, mut other, mut unfit, mut weakened) = (0usize, 0usize, 0usize, 0usize);
    for line in text.lines() {
        lines += 1;
        let words: Vec<&'static str> = line.trim_end_matches(';').split_whitespace().collect();
        // a label before the rule: kept by ours, dropped for pigeons
        let (label, words) = match words.first() {
            Some(w) if w.starts_with('@') => (Some(&w[1..]), &words[1..]),
            _ => (None, &words[..]),
        };
        let (step, pg_step) = match words.first().copied() {
            Some("pol") => {
                let (ops, seq) = pol(&words[1..], &mut weakened);
                (Step::Pol(ops), seq.map(PgStep::Pol))
            }
            Some("rup") => {
                let colon = words.iter().position(|w| *w == ":").unwrap_or(words.len());
                let (c, c_pg) = constraint(&words[1..colon]).expect("a rup constraint");
                let hints = words.get(colon + 1..).unwrap_or(&[]);
                (
                    Step::Rup(c, hints.iter().map(|h| our_ref(h)).collect()),
                    c_pg.map(|c| PgStep::Rup(c, hints.iter().map(|h| pg_id(h)).collect())),
                )
            }
            Some("del") if words.get(1) == Some(&"id") => (
                Step::Del(words[2..].iter().map(|r| our_ref(r)).collect()),
                Some(PgStep::Del(words[2..].iter().map(|r| pg_id(r)).collect())),
            ),
            Some("red") if !line.ends_with("subproof") => {
                let colon = words.iter().position(|w| *w == ":").expect("a witness");
                let (c, c_pg) = constraint(&words[1..colon]).expect("a red constraint");
                let (w, subs) = witness(&words[colon + 1..]);
                (Step::Red(c, w, false), c_pg.map(|c| PgStep::Red(c, subs)))
            }
            _ => {
                other += 1;
                continue;
            }
        };
        let Some(pg_step) = pg_step else {
            unfit += 1;
            continue;
        };
        ours.push(match label {
            Some(l) => step.labelled(l),
            None => step,
        });
        pg.push(pg_step);
        same.push(!line.contains('@') && !words.contains(&"w"));
    }
    println!(
        "{path}: {lines} lines; measured {} (pol, rup, del, red), {other} of other rules, {unfit} with a number pigeons cannot hold; {weakened} weakenings written by pigeons without their variable",
        ours.len()
    );

    let exact: Vec<usize> = (0..ours.len()).filter(|&i| same[i]).collect();
    let mut out: Vec<u8> = Vec::with_capacity(text.len() * 2);
    for (what, which) in [
        ("all measured lines", (0..ours.len()).collect::<Vec<_>>()),
        ("the lines both write alike (no label, no weakening)", exact),
    ] {
        let (mut best_ours, mut best_pg) = (Duration::MAX, Duration::MAX);
        let (mut bytes_ours, mut bytes_pg) = (0, 0);
        for _ in 0..5 {
            out.clear();
            let t = Instant::now();
            write_ours(&mut out, which.iter().map(|&i| &ours[i]))?;
            best_ours = best_ours.min(t.elapsed());
            bytes_ours = out.len();
            out.clear();
            let t = Instant::now();
            write_pigeons(&mut out, which.iter().map(|&i| &pg[i]))?;
            best_pg = best_pg.min(t.elapsed());
            bytes_pg = out.len();
        }
        println!("{what} ({} lines):", which.len());
        println!(
            "  ours (proof::Step, Display): {:.3} s, {bytes_ours} bytes",
            best_ours.as_secs_f64()
        );
        println!(
            "  pigeons 0.2.3:               {:.3} s, {bytes_pg} bytes",
            best_pg.as_secs_f64()
        );
    }
    Ok(())
}
