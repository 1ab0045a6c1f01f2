//! Pseudo-Boolean models: the constraints `Σ a_i·l_i ≥ b` (also `≤`, `=`)
//! over named 0/1 variables, with an optional linear objective, written as
//! OPB for the VeriPB checker.
//!
//! A puzzle family writes its [`PbModel`] from the puzzle's *rules*, the way
//! its independent checker is written, never from its CNF: a certified run
//! proves the CNF's clauses, symmetry breaking and answer from this model
//! (Gocht, Martins, Nordström & Oertel, "Certified CNF Translations for
//! Pseudo-Boolean Solving", SAT 2022; Bogaerts, Gocht, McCreesh & Nordström,
//! "Certified Dominance and Symmetry Breaking for Combinatorial
//! Optimisation", JAIR 77, 2023).
//!
//! Variables are named, and a model's variable carries the *same name* as
//! the CNF literal the encoder gives it in its name list (`Encoded::names`
//! of the `puzzlesat` crate), so that a proof can identify the two. Names
//! follow the VeriPB extension of OPB ([`valid_name`]): a letter, then at
//! least one of `A-Za-z0-9_[]{}^-`.
//!
//! The OPB file ([`PbModel::write_opb`]) lists the constraints in the order
//! they were added; VeriPB numbers them from 1 in that order, an equality
//! taking two numbers (`≥` then `≤`): [`PbModel::first_id`] gives each
//! constraint's first number. The objective is written as `min:`; a
//! maximisation is written as the minimisation of its negation
//! ([`PbObjective::opb_value`]).

use std::collections::HashMap;
use std::fmt;
use std::io::{self, Write};

use rustsat::types::Lit;

/// A variable of a [`PbModel`] (an index into its names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PbVar(u32);

impl PbVar {
    /// The variable's index in its model, from 0 in order of creation.
    pub fn idx(self) -> usize {
        self.0 as usize
    }
    /// The positive literal.
    pub fn pos(self) -> PbLit {
        PbLit {
            var: self,
            negated: false,
        }
    }
    /// The negative literal (named as [`Self::pos`]'s pair, not `ops::Neg`:
    /// a variable has no negation, its literal has).
    #[allow(clippy::should_implement_trait)]
    pub fn neg(self) -> PbLit {
        PbLit {
            var: self,
            negated: true,
        }
    }
}

/// A literal: a variable or its negation (`~x` in OPB).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PbLit {
    /// the variable
    pub var: PbVar,
    /// true for `~var`
    pub negated: bool,
}

impl std::ops::Not for PbLit {
    type Output = PbLit;
    fn not(self) -> PbLit {
        PbLit {
            negated: !self.negated,
            ..self
        }
    }
}

impl PbLit {
    /// The literal's value under the variables' values.
    pub fn value(self, var_value: impl Fn(PbVar) -> bool) -> bool {
        var_value(self.var) != self.negated
    }
}

/// The relation of a constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `Σ ≥ rhs`
    AtLeast,
    /// `Σ ≤ rhs`
    AtMost,
    /// `Σ = rhs` (VeriPB loads it as two constraints, `≥` then `≤`)
    Equal,
}

impl Relation {
    fn opb(self) -> &'static str {
        match self {
            Relation::AtLeast => ">=",
            Relation::AtMost => "<=",
            Relation::Equal => "=",
        }
    }
}

/// One linear constraint `Σ coef·lit  rel  rhs`, with an optional comment
/// (written on the line before it) saying which rule it states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PbConstraint {
    /// the terms (coefficient, literal)
    pub terms: Vec<(i64, PbLit)>,
    /// `≥`, `≤` or `=`
    pub relation: Relation,
    /// the right-hand side
    pub rhs: i64,
    /// the rule it states, for people reading the OPB file
    pub comment: Option<String>,
}

impl PbConstraint {
    /// The left-hand side under the variables' values.
    pub fn lhs(&self, var_value: impl Fn(PbVar) -> bool) -> i64 {
        self.terms
            .iter()
            .filter(|(_, l)| l.value(&var_value))
            .map(|(a, _)| a)
            .sum()
    }
    /// Does the assignment satisfy the constraint?
    pub fn holds(&self, var_value: impl Fn(PbVar) -> bool) -> bool {
        let lhs = self.lhs(var_value);
        match self.relation {
            Relation::AtLeast => lhs >= self.rhs,
            Relation::AtMost => lhs <= self.rhs,
            Relation::Equal => lhs == self.rhs,
        }
    }
    /// How many constraints VeriPB loads for it (2 for an equality).
    pub fn loaded(&self) -> usize {
        match self.relation {
            Relation::Equal => 2,
            _ => 1,
        }
    }
}

/// Minimise or maximise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PbSense {
    /// smaller is better
    Minimize,
    /// larger is better
    Maximize,
}

/// The objective `Σ coef·lit + offset`, with its sense.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PbObjective {
    /// minimise or maximise
    pub sense: PbSense,
    /// the terms (coefficient, literal)
    pub terms: Vec<(i64, PbLit)>,
    /// a constant added to the terms' sum
    pub offset: i64,
}

impl PbObjective {
    /// The objective's value (as the puzzle counts it) under the variables'
    /// values.
    pub fn value(&self, var_value: impl Fn(PbVar) -> bool) -> i64 {
        self.offset
            + self
                .terms
                .iter()
                .filter(|(_, l)| l.value(&var_value))
                .map(|(a, _)| a)
                .sum::<i64>()
    }
    /// The value of the OPB file's `min:` objective (terms only, no offset;
    /// negated for a maximisation) when the puzzle's objective is `value`:
    /// what VeriPB's `conclusion BOUNDS` speaks of.
    pub fn opb_value(&self, value: i64) -> i64 {
        match self.sense {
            PbSense::Minimize => value - self.offset,
            PbSense::Maximize => -(value - self.offset),
        }
    }
    /// The puzzle's objective value for an OPB `min:` value (the inverse of
    /// [`PbObjective::opb_value`]).
    pub fn from_opb_value(&self, opb: i64) -> i64 {
        match self.sense {
            PbSense::Minimize => opb + self.offset,
            PbSense::Maximize => -opb + self.offset,
        }
    }
    /// The `min:` terms of the OPB file.
    pub fn opb_terms(&self) -> Vec<(i64, PbLit)> {
        match self.sense {
            PbSense::Minimize => self.terms.clone(),
            PbSense::Maximize => self.terms.iter().map(|&(a, l)| (-a, l)).collect(),
        }
    }
}

/// Is `name` a variable name VeriPB reads in an OPB file: a letter, then at
/// least one of `A-Za-z0-9_[]{}^-`?
pub fn valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && name.len() >= 2
        && chars.all(|c| c.is_ascii_alphanumeric() || "_[]{}^-".contains(c))
}

/// A pseudo-Boolean model: named variables, linear constraints, an optional
/// objective, and header lines (comments at the top of the OPB file).
#[derive(Clone, Debug, Default)]
pub struct PbModel {
    names: Vec<String>,
    index: HashMap<String, PbVar>,
    constraints: Vec<PbConstraint>,
    objective: Option<PbObjective>,
    header: Vec<String>,
}

impl PbModel {
    /// An empty model.
    pub fn new() -> Self {
        PbModel::default()
    }

    // ---- variables

    /// The variable named `name`, created on first use.
    ///
    /// # Panics
    /// If `name` is not a [`valid_name`] (names are chosen by code, so a bad
    /// one is a bug).
    pub fn var(&mut self, name: &str) -> PbVar {
        if let Some(&v) = self.index.get(name) {
            return v;
        }
        assert!(valid_name(name), "'{name}' is not a VeriPB variable name");
        let v = PbVar(self.names.len() as u32);
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), v);
        v
    }
    /// The variable named `name`, if the model has one.
    pub fn lookup(&self, name: &str) -> Option<PbVar> {
        self.index.get(name).copied()
    }
    /// The name of `v`.
    pub fn name(&self, v: PbVar) -> &str {
        &self.names[v.idx()]
    }
    /// The literal as OPB writes it: `x` or `~x`.
    pub fn lit_str(&self, l: PbLit) -> String {
        let tilde = if l.negated { "~" } else { "" };
        format!("{tilde}{}", self.name(l.var))
    }
    /// Every variable, in order of creation.
    pub fn vars(&self) -> impl Iterator<Item = PbVar> {
        (0..self.names.len() as u32).map(PbVar)
    }
    /// Number of variables.
    pub fn n_vars(&self) -> usize {
        self.names.len()
    }

    /// The CNF literal of each model variable (indexed by [`PbVar::idx`]),
    /// found by name in an encoder's name list; None for a model variable
    /// the CNF does not name (an auxiliary variable of the model). `Err`
    /// names a variable whose name is listed twice with different literals.
    pub fn cnf_literals(&self, names: &[(String, Lit)]) -> Result<Vec<Option<Lit>>, String> {
        let mut lits = vec![None; self.n_vars()];
        for (name, l) in names {
            if let Some(v) = self.lookup(name) {
                match lits[v.idx()] {
                    Some(old) if old != *l => {
                        return Err(format!("'{name}' names two literals, {old:?} and {l:?}"))
                    }
                    _ => lits[v.idx()] = Some(*l),
                }
            }
        }
        Ok(lits)
    }

    // ---- constraints

    /// Adds `c`; returns its index in [`PbModel::constraints`].
    pub fn add(&mut self, c: PbConstraint) -> usize {
        self.constraints.push(c);
        self.constraints.len() - 1
    }
    /// Adds `Σ terms rel rhs` stating `rule`.
    pub fn linear(
        &mut self,
        terms: Vec<(i64, PbLit)>,
        relation: Relation,
        rhs: i64,
        rule: impl Into<Option<String>>,
    ) -> usize {
        self.add(PbConstraint {
            terms,
            relation,
            rhs,
            comment: rule.into(),
        })
    }
    /// Adds `Σ lits ≥ k`.
    pub fn at_least(&mut self, lits: &[PbLit], k: i64, rule: impl Into<Option<String>>) -> usize {
        self.linear(ones(lits), Relation::AtLeast, k, rule)
    }
    /// Adds `Σ lits ≤ k`.
    pub fn at_most(&mut self, lits: &[PbLit], k: i64, rule: impl Into<Option<String>>) -> usize {
        self.linear(ones(lits), Relation::AtMost, k, rule)
    }
    /// Adds `Σ lits = k`.
    pub fn exactly(&mut self, lits: &[PbLit], k: i64, rule: impl Into<Option<String>>) -> usize {
        self.linear(ones(lits), Relation::Equal, k, rule)
    }
    /// Adds the clause `∨ lits` (`Σ lits ≥ 1`).
    pub fn clause(&mut self, lits: &[PbLit], rule: impl Into<Option<String>>) -> usize {
        self.at_least(lits, 1, rule)
    }
    /// The constraints, in order.
    pub fn constraints(&self) -> &[PbConstraint] {
        &self.constraints
    }
    /// VeriPB's constraint number of the first constraint it loads for
    /// constraint `i` (numbers start at 1; an equality loads `≥` as this
    /// number and `≤` as the next).
    pub fn first_id(&self, i: usize) -> usize {
        1 + self.constraints[..i]
            .iter()
            .map(PbConstraint::loaded)
            .sum::<usize>()
    }
    /// How many constraints VeriPB loads from the OPB file (equalities
    /// twice): the number its `f` rule checks.
    pub fn loaded(&self) -> usize {
        self.constraints.iter().map(PbConstraint::loaded).sum()
    }

    // ---- objective and header

    /// Sets the objective.
    pub fn set_objective(&mut self, objective: PbObjective) {
        self.objective = Some(objective);
    }
    /// The objective, if any.
    pub fn objective(&self) -> Option<&PbObjective> {
        self.objective.as_ref()
    }
    /// Adds a header line (a comment at the top of the OPB file).
    pub fn comment(&mut self, line: impl Into<String>) {
        self.header.push(line.into());
    }
    /// The header lines.
    pub fn header(&self) -> &[String] {
        &self.header
    }

    // ---- evaluation

    /// Checks an assignment (a value for every variable) against every
    /// constraint: `Err` names the first one it violates.
    pub fn check(&self, var_value: impl Fn(PbVar) -> bool) -> Result<(), String> {
        for (i, c) in self.constraints.iter().enumerate() {
            if !c.holds(&var_value) {
                return Err(format!(
                    "constraint {} ({}) is violated: {}",
                    self.first_id(i),
                    c.comment.as_deref().unwrap_or("no comment"),
                    self.constraint_str(c)
                ));
            }
        }
        Ok(())
    }
    /// Checks an assignment given by the names of the true variables (every
    /// other variable false); an unknown name is an error.
    pub fn check_named<'a>(
        &self,
        true_vars: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), String> {
        let mut values = vec![false; self.n_vars()];
        for name in true_vars {
            let v = self
                .lookup(name)
                .ok_or_else(|| format!("the model has no variable '{name}'"))?;
            values[v.idx()] = true;
        }
        self.check(|v| values[v.idx()])
    }

    // ---- OPB

    /// One constraint as an OPB line, without a label: `1 x 2 ~y >= 2 ;`.
    pub fn constraint_str(&self, c: &PbConstraint) -> String {
        format!(
            "{} {} {} ;",
            self.terms_str(&c.terms),
            c.relation.opb(),
            c.rhs
        )
    }
    /// Terms as OPB writes them: `+1 x -2 ~y`.
    pub fn terms_str(&self, terms: &[(i64, PbLit)]) -> String {
        let parts: Vec<String> = terms
            .iter()
            .map(|&(a, l)| format!("{a:+} {}", self.lit_str(l)))
            .collect();
        parts.join(" ")
    }
    /// Writes the OPB file: the header `* #variable= N #constraint= M`, the
    /// header lines as comments, the objective as `min:` (see
    /// [`PbObjective::opb_terms`]), then each constraint after its comment.
    pub fn write_opb(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "* #variable= {} #constraint= {}",
            self.n_vars(),
            self.constraints.len()
        )?;
        for h in &self.header {
            writeln!(out, "* {h}")?;
        }
        if let Some(obj) = &self.objective {
            let sense = match obj.sense {
                PbSense::Minimize => "minimise",
                PbSense::Maximize => "maximise (written as min: of its negation)",
            };
            writeln!(
                out,
                "* objective: {sense}, plus the constant {}",
                obj.offset
            )?;
            writeln!(out, "min: {} ;", self.terms_str(&obj.opb_terms()))?;
        }
        for c in &self.constraints {
            if let Some(rule) = &c.comment {
                writeln!(out, "* {rule}")?;
            }
            writeln!(out, "{}", self.constraint_str(c))?;
        }
        Ok(())
    }
    /// The OPB file as a string.
    pub fn to_opb(&self) -> String {
        let mut buf = vec![];
        self.write_opb(&mut buf).expect("writing to memory");
        String::from_utf8(buf).expect("OPB is ASCII")
    }
}

impl fmt::Display for PbModel {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.to_opb())
    }
}

/// The terms `1·l` of `lits`.
pub fn ones(lits: &[PbLit]) -> Vec<(i64, PbLit)> {
    lits.iter().map(|&l| (1, l)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for good in ["Q1_2", "x[1][2]^3", "F1_1-3", "ab", "s{a1}"] {
            assert!(valid_name(good), "{good}");
        }
        for bad in ["x", "1x", "_b", "x>=3", "F1_1=3", "a b", "", "x.y"] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn opb_ids_and_check() {
        let mut m = PbModel::new();
        let (a, b, c) = (m.var("aa"), m.var("bb"), m.var("cc"));
        assert_eq!(m.var("bb"), b);
        m.exactly(&[a.pos(), b.pos()], 1, "one of a, b".to_string());
        m.clause(&[!a.pos(), c.pos()], None);
        m.linear(vec![(2, a.pos()), (3, c.neg())], Relation::AtMost, 3, None);
        m.set_objective(PbObjective {
            sense: PbSense::Maximize,
            terms: vec![(1, a.pos()), (1, b.pos())],
            offset: 5,
        });
        assert_eq!(m.first_id(0), 1);
        assert_eq!(m.first_id(1), 3);
        assert_eq!(m.first_id(2), 4);
        assert_eq!(m.loaded(), 4);
        let opb = m.to_opb();
        assert!(opb.starts_with("* #variable= 3 #constraint= 3\n"), "{opb}");
        assert!(opb.contains("min: -1 aa -1 bb ;\n"), "{opb}");
        assert!(opb.contains("* one of a, b\n+1 aa +1 bb = 1 ;\n"), "{opb}");
        assert!(opb.contains("+1 ~aa +1 cc >= 1 ;\n"), "{opb}");
        assert!(opb.contains("+2 aa +3 ~cc <= 3 ;\n"), "{opb}");
        // a = c = 1: all hold; a = 1, c = 0: the clause fails
        assert_eq!(m.check_named(["aa", "cc"]), Ok(()));
        let err = m.check_named(["aa"]).unwrap_err();
        assert!(err.starts_with("constraint 3 "), "{err}");
        assert!(m.check_named(["zz"]).is_err());
        let obj = m.objective().unwrap();
        assert_eq!(obj.value(|v| v == a), 6);
        assert_eq!(obj.opb_value(6), -1);
        assert_eq!(obj.from_opb_value(-1), 6);
    }
}
