//! VeriPB proof steps as values (syntax 3.0 of the format, checked by
//! `veripb` 3.0.2): every rule the project's proofs use is a variant of
//! [`Step`], over typed constraint references ([`Ref`]), literals and
//! constraints, and is written to text in one place, this module's
//! `Display`, so that a misspelt keyword or a missing `;` cannot compile.
//!
//! The `pigeons` crate (the VeriPB writer of RustSAT's proof logging)
//! was the first candidate; measured on the Enigma n = 8 proof it writes
//! 4 % faster, and it does not fit: its weakening names no variable, it
//! has no labels, it writes syntax 2.0, and its coefficients are `isize`
//! where the lex orders' weights are [`Big`] (docs/certify.md, "The proof
//! writer").

use std::fmt::{self, Display, Write as _};

/// A non-negative integer of any size (the lex orders' weights are powers
/// of two up to `2^(k−1)`), written in decimal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Big {
    /// base 10^18 digits, least significant first, no trailing zeros
    digits: Vec<u64>,
}

const BASE: u64 = 1_000_000_000_000_000_000;

impl Big {
    /// Zero.
    pub fn zero() -> Self {
        Big::default()
    }
    /// `v`.
    pub fn from_u64(v: u64) -> Self {
        let mut b = Big::zero();
        if v > 0 {
            b.digits.push(v % BASE);
            if v >= BASE {
                b.digits.push(v / BASE);
            }
        }
        b
    }
    /// `v`.
    pub fn from_u128(v: u128) -> Self {
        let base = BASE as u128;
        let mut b = Big::zero();
        let mut rest = v;
        while rest > 0 {
            b.digits.push((rest % base) as u64);
            rest /= base;
        }
        b
    }
    /// `2^e`.
    pub fn pow2(e: usize) -> Self {
        let mut b = Big { digits: vec![1] };
        for _ in 0..e {
            let copy = b.clone();
            b.add_assign(&copy);
        }
        b
    }
    /// `self += other`.
    pub fn add_assign(&mut self, other: &Big) {
        let mut carry = 0;
        for i in 0..self.digits.len().max(other.digits.len()) {
            if i == self.digits.len() {
                self.digits.push(0);
            }
            let s = self.digits[i] + other.digits.get(i).copied().unwrap_or(0) + carry;
            self.digits[i] = s % BASE;
            carry = s / BASE;
        }
        if carry > 0 {
            self.digits.push(carry);
        }
    }
    /// `self − other` (`self ≥ other`).
    pub fn sub(&self, other: &Big) -> Big {
        assert!(self.cmp_value(other).is_ge(), "Big::sub underflow");
        let mut out = self.clone();
        let mut borrow = 0;
        for i in 0..out.digits.len() {
            let o = other.digits.get(i).copied().unwrap_or(0) + borrow;
            if out.digits[i] >= o {
                out.digits[i] -= o;
                borrow = 0;
            } else {
                out.digits[i] = out.digits[i] + BASE - o;
                borrow = 1;
            }
        }
        while out.digits.last() == Some(&0) {
            out.digits.pop();
        }
        out
    }
    /// Whether it is zero.
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }
    /// Compares the values.
    pub fn cmp_value(&self, other: &Big) -> std::cmp::Ordering {
        self.digits
            .len()
            .cmp(&other.digits.len())
            .then_with(|| self.digits.iter().rev().cmp(other.digits.iter().rev()))
    }
}

impl Display for Big {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.digits.split_last() {
            None => write!(f, "0"),
            Some((top, rest)) => {
                write!(f, "{top}")?;
                for d in rest.iter().rev() {
                    write!(f, "{d:018}")?;
                }
                Ok(())
            }
        }
    }
}

/// A variable as the proof names it (`x12`, `p[1][2]`, `u0`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Var(pub String);

/// A literal as the proof writes it: a variable's name, negated by `~`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lit(String);

impl Lit {
    /// The literal of `var`, negated or not.
    pub fn new(var: &str, negated: bool) -> Self {
        Lit(if negated {
            format!("~{var}")
        } else {
            var.to_string()
        })
    }
    /// A literal from its text (`x`, `~x`), as a name function gives it.
    pub fn from_text(text: impl Into<String>) -> Self {
        Lit(text.into())
    }
    /// Whether it is negated.
    pub fn is_neg(&self) -> bool {
        self.0.starts_with('~')
    }
    /// Its variable.
    pub fn var(&self) -> Var {
        Var(self.0.trim_start_matches('~').to_string())
    }
    /// The text (`~x`).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Not for Lit {
    type Output = Lit;
    fn not(self) -> Lit {
        match self.0.strip_prefix('~') {
            Some(v) => Lit(v.to_string()),
            None => Lit(format!("~{}", self.0)),
        }
    }
}

impl Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A coefficient: unsigned (`3`, the constraint sums written from the
/// model) or signed (`+3`, `-3`, the dominance blocks').
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Coef {
    /// `3`
    Unsigned(u64),
    /// `+3` (true) or `-3` (false)
    Signed(bool, Big),
}

impl Coef {
    /// `+1`.
    pub fn one() -> Self {
        Coef::Signed(true, Big::from_u64(1))
    }
    /// `+c`.
    pub fn plus(c: u64) -> Self {
        Coef::Signed(true, Big::from_u64(c))
    }
}

impl Display for Coef {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Coef::Unsigned(c) => write!(f, "{c}"),
            Coef::Signed(true, c) => write!(f, "+{c}"),
            Coef::Signed(false, c) => write!(f, "-{c}"),
        }
    }
}

/// `Σ c·l ≥ degree`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Constraint {
    /// the terms
    pub terms: Vec<(Coef, Lit)>,
    /// the right-hand side
    pub degree: i64,
}

impl Constraint {
    /// `+1 l1 +1 l2 … >= 1`: a clause, the signed terms of the dominance
    /// blocks.
    pub fn clause(lits: impl IntoIterator<Item = Lit>) -> Self {
        Constraint::at_least(lits.into_iter().map(|l| (1, l)), 1)
    }
    /// `+c1 l1 +c2 l2 … >= degree` (signed terms).
    pub fn at_least(terms: impl IntoIterator<Item = (u64, Lit)>, degree: i64) -> Self {
        Constraint {
            terms: terms.into_iter().map(|(c, l)| (Coef::plus(c), l)).collect(),
            degree,
        }
    }
}

impl Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for (c, l) in &self.terms {
            write!(f, "{c} {l} ")?;
        }
        write!(f, ">= {}", self.degree)
    }
}

/// A reference to a constraint of the proof's database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ref {
    /// by its id (the model's constraints from 1, then each rule's)
    Id(u64),
    /// the `n`-th last (`-n`)
    Last(u64),
    /// by the label its rule was given (`@name`)
    Label(String),
    /// the definition half of the encoding in which the literal occurs,
    /// a placeholder the proof writer replaces by its id (the blocks are
    /// written before the definitions are numbered)
    Half(Lit),
}

impl Display for Ref {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Ref::Id(id) => write!(f, "{id}"),
            Ref::Last(n) => write!(f, "-{n}"),
            Ref::Label(l) => write!(f, "@{l}"),
            Ref::Half(l) => write!(f, "{{half {l}}}"),
        }
    }
}

/// An operation of a `pol` step (reverse Polish notation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Op {
    /// push a constraint
    Ref(Ref),
    /// push a literal axiom `l ≥ 0`
    Axiom(Lit),
    /// multiply the top by a constant
    Mul(Big),
    /// add the top two
    Add,
    /// divide the top by a constant, rounding up
    Div(u64),
    /// saturate the top
    Sat,
    /// weaken the top: drop the variable's terms
    Weaken(Var),
}

impl Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Op::Ref(r) => write!(f, "{r}"),
            Op::Axiom(l) => write!(f, "{l}"),
            Op::Mul(c) => write!(f, "{c} *"),
            Op::Add => f.write_str("+"),
            Op::Div(d) => write!(f, "{d} d"),
            Op::Sat => f.write_str("s"),
            Op::Weaken(v) => write!(f, "{v} w"),
        }
    }
}

/// A `pol` step's operations built as a sum: each operand after the first
/// is followed by `+`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolSum {
    ops: Vec<Op>,
    operands: usize,
}

impl PolSum {
    /// An empty sum.
    pub fn new() -> Self {
        PolSum::default()
    }
    /// Adds `r`.
    pub fn add(&mut self, r: Ref) -> &mut Self {
        self.operand([Op::Ref(r)])
    }
    /// Adds `r` multiplied by `m` (as it is for 1).
    pub fn add_times(&mut self, r: Ref, m: u64) -> &mut Self {
        if m == 1 {
            self.add(r)
        } else {
            self.operand([Op::Ref(r), Op::Mul(Big::from_u64(m))])
        }
    }
    /// Adds `r` multiplied by `m`, always written.
    pub fn add_scaled(&mut self, r: Ref, m: Big) -> &mut Self {
        self.operand([Op::Ref(r), Op::Mul(m)])
    }
    /// Adds the axiom `l ≥ 0` multiplied by `m`.
    pub fn add_axiom(&mut self, l: Lit, m: Big) -> &mut Self {
        self.operand([Op::Axiom(l), Op::Mul(m)])
    }
    fn operand<const N: usize>(&mut self, ops: [Op; N]) -> &mut Self {
        self.ops.extend(ops);
        if self.operands > 0 {
            self.ops.push(Op::Add);
        }
        self.operands += 1;
        self
    }
    /// Applies `op` (a weakening, a division, saturation) to the sum.
    pub fn then(&mut self, op: Op) -> &mut Self {
        self.ops.push(op);
        self
    }
    /// The `pol` step.
    pub fn step(self) -> Step {
        Step::Pol(self.ops)
    }
}

/// What a witness maps a variable to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// `0`
    False,
    /// `1`
    True,
    /// a literal
    Lit(Lit),
}

impl Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Value::False => f.write_str("0"),
            Value::True => f.write_str("1"),
            Value::Lit(l) => write!(f, "{l}"),
        }
    }
}

/// A witness: `x -> 0 y -> ~z`.
pub type Witness = Vec<(Var, Value)>;

/// What a proof concludes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conclusion {
    /// `NONE`
    None,
    /// `SAT`
    Sat,
    /// `UNSAT : id`
    Unsat(Ref),
    /// `BOUNDS v : id v` (`None`: `INF`)
    Bounds(Option<i64>, Ref),
}

/// One step of a VeriPB proof (a line, or a part of a subproof).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `pseudo-Boolean proof version 3.0`
    Header,
    /// `f N;`: the model's constraints loaded
    Formula(usize),
    /// `% text`
    Comment(String),
    /// `@label STEP`: the step's constraint named
    Labelled(String, Box<Step>),
    /// `rup C;`, or `rup C : hints;`
    Rup(Constraint, Vec<Ref>),
    /// `pol …;`
    Pol(Vec<Op>),
    /// `red C : witness;`, or `red C : witness : subproof` (the subproof's
    /// steps follow)
    Red(Constraint, Witness, bool),
    /// `dom C : witness;`, or `dom C : witness : subproof`
    Dom(Constraint, Witness, bool),
    /// `proofgoal #n`
    ProofGoal(u32),
    /// `proofgoal id`: the goal of the database's constraint `id` under
    /// the witness (one the checker cannot match by syntax)
    ProofGoalOf(Ref),
    /// `qed : id;`, or `qed;`
    Qed(Option<Ref>),
    /// `ia C : id;`, or `ia C;` (the checker searches the database)
    Ia(Constraint, Option<Ref>),
    /// `e C : id;`: the constraint `id` is `C`
    Equals(Constraint, Ref),
    /// `solx l…;`: a solution, excluded
    Solx(Vec<Lit>),
    /// `soli l…;`: a solution, the objective-improving constraint added
    Soli(Vec<Lit>),
    /// `del id …;`
    Del(Vec<Ref>),
    /// `deld …;`
    Deld(Vec<Ref>),
    /// a preorder: `def_order NAME` over `vars` left variables `u0…` and
    /// right ones `v0…` by `def ≥ 0`, its transitivity proved by the sum of
    /// the two hypotheses and the negated goal (fresh variables `w0…`)
    DefOrder {
        /// the order's name
        name: String,
        /// the number of variables it compares
        vars: usize,
        /// its definition over `u0…` and `v0…`
        def: Constraint,
    },
    /// `load_order NAME vars…;`
    LoadOrder(String, Vec<Lit>),
    /// `output NONE;`
    OutputNone,
    /// `conclusion …;`
    Conclusion(Conclusion),
    /// `end pseudo-Boolean proof;`
    End,
    /// steps written on one line, separated by spaces (a short subproof)
    Inline(Vec<Step>),
}

/// `C : witness` (an empty witness leaves `C :`, as the checker reads it).
fn with_witness(f: &mut fmt::Formatter, c: &Constraint, w: &Witness) -> fmt::Result {
    write!(f, "{c} :")?;
    for (v, to) in w {
        write!(f, " {v} -> {to}")?;
    }
    Ok(())
}

fn list<T: Display>(f: &mut fmt::Formatter, items: &[T]) -> fmt::Result {
    for x in items {
        write!(f, " {x}")?;
    }
    Ok(())
}

impl Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Step::Header => f.write_str("pseudo-Boolean proof version 3.0"),
            Step::Formula(n) => write!(f, "f {n};"),
            Step::Comment(text) => write!(f, "% {text}"),
            Step::Labelled(label, step) => write!(f, "@{label} {step}"),
            Step::Rup(c, hints) => {
                write!(f, "rup {c}")?;
                if !hints.is_empty() {
                    f.write_str(" :")?;
                    list(f, hints)?;
                }
                f.write_char(';')
            }
            Step::Pol(ops) => {
                f.write_str("pol")?;
                list(f, ops)?;
                f.write_char(';')
            }
            Step::Red(c, w, sub) | Step::Dom(c, w, sub) => {
                let rule = if matches!(self, Step::Red(..)) {
                    "red"
                } else {
                    "dom"
                };
                write!(f, "{rule} ")?;
                with_witness(f, c, w)?;
                if *sub {
                    f.write_str(" : subproof")
                } else {
                    f.write_char(';')
                }
            }
            Step::ProofGoal(n) => write!(f, "proofgoal #{n}"),
            Step::ProofGoalOf(r) => write!(f, "proofgoal {r}"),
            Step::Qed(None) => f.write_str("qed;"),
            Step::Qed(Some(r)) => write!(f, "qed : {r};"),
            Step::Ia(c, None) => write!(f, "ia {c};"),
            Step::Ia(c, Some(r)) => write!(f, "ia {c} : {r};"),
            Step::Equals(c, r) => write!(f, "e {c} : {r};"),
            Step::Solx(lits) => {
                f.write_str("solx")?;
                list(f, lits)?;
                f.write_char(';')
            }
            Step::Soli(lits) => {
                f.write_str("soli")?;
                list(f, lits)?;
                f.write_char(';')
            }
            Step::Del(refs) => {
                f.write_str("del id")?;
                list(f, refs)?;
                f.write_char(';')
            }
            Step::Deld(refs) => {
                f.write_str("deld")?;
                list(f, refs)?;
                f.write_char(';')
            }
            Step::DefOrder { name, vars, def } => {
                let names = |f: &mut fmt::Formatter, p: &str| -> fmt::Result {
                    for j in 0..*vars {
                        write!(f, " {p}{j}")?;
                    }
                    Ok(())
                };
                writeln!(f, "def_order {name}")?;
                f.write_str("  vars left")?;
                names(f, "u")?;
                f.write_str("; right")?;
                names(f, "v")?;
                f.write_str("; end;\n")?;
                writeln!(f, "  def {def}; end;")?;
                f.write_str("  transitivity vars fresh_right")?;
                names(f, "w")?;
                f.write_str("; end;\n")?;
                f.write_str("    proof proofgoal #1 pol 1 2 + 3 +; qed : -1; qed;\n")?;
                f.write_str("  end;\n")?;
                f.write_str("end;")
            }
            Step::LoadOrder(name, vars) => {
                write!(f, "load_order {name}")?;
                list(f, vars)?;
                f.write_char(';')
            }
            Step::OutputNone => f.write_str("output NONE;"),
            Step::Conclusion(c) => match c {
                Conclusion::None => f.write_str("conclusion NONE;"),
                Conclusion::Sat => f.write_str("conclusion SAT;"),
                Conclusion::Unsat(r) => write!(f, "conclusion UNSAT : {r};"),
                Conclusion::Bounds(Some(v), r) => write!(f, "conclusion BOUNDS {v} : {r} {v};"),
                Conclusion::Bounds(None, r) => write!(f, "conclusion BOUNDS INF : {r} INF;"),
            },
            Step::End => f.write_str("end pseudo-Boolean proof;"),
            Step::Inline(steps) => {
                for (i, s) in steps.iter().enumerate() {
                    if i > 0 {
                        f.write_char(' ')?;
                    }
                    write!(f, "{s}")?;
                }
                Ok(())
            }
        }
    }
}

impl Step {
    /// The step with its constraint named `@label`.
    pub fn labelled(self, label: impl Into<String>) -> Step {
        Step::Labelled(label.into(), Box::new(self))
    }
    /// `rup C;` for the clause of `lits` (signed terms: `+1 l`).
    pub fn rup_clause(lits: impl IntoIterator<Item = Lit>) -> Step {
        Step::Rup(Constraint::clause(lits), vec![])
    }
    /// Replaces each reference of the step (and of its inner steps) by `f`'s
    /// answer: `Err` passes on `f`'s.
    pub fn map_refs<E>(
        &mut self,
        f: &mut impl FnMut(&Ref) -> Result<Option<Ref>, E>,
    ) -> Result<(), E> {
        let mut one = |r: &mut Ref| -> Result<(), E> {
            if let Some(new) = f(r)? {
                *r = new;
            }
            Ok(())
        };
        match self {
            Step::Labelled(_, s) => s.map_refs(f),
            Step::Inline(steps) => steps.iter_mut().try_for_each(|s| s.map_refs(f)),
            Step::Rup(_, refs) | Step::Del(refs) | Step::Deld(refs) => {
                refs.iter_mut().try_for_each(one)
            }
            Step::Pol(ops) => ops.iter_mut().try_for_each(|op| match op {
                Op::Ref(r) => one(r),
                _ => Ok(()),
            }),
            Step::Qed(Some(r))
            | Step::Ia(_, Some(r))
            | Step::Equals(_, r)
            | Step::ProofGoalOf(r) => one(r),
            _ => Ok(()),
        }
    }
}
