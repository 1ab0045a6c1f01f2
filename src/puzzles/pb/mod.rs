//! Any pseudo-Boolean model, read from an OPB file (the format of the PB
//! competitions: Roussel & Manquinho, "Input/Output Format and Solver
//! Requirements for the Competitions of Pseudo-Boolean Solvers"): each
//! constraint is encoded by the `--amo`, `--card` or `--pb` encoding its
//! shape calls for, the objective minimised by the runner's bound search.
//! The model is the file itself ([`Puzzle::pb_model`]), so that
//! `--certify` derives the encoding from it by redundance (Gocht, Martins,
//! Nordström & Oertel, "Certified CNF Translations for Pseudo-Boolean
//! Solving", SAT 2022). Docs: `docs/pb.md`.

pub mod encode;

use std::fmt;

use puzzlesat_encodings::amo::AmoEncoding;
use puzzlesat_encodings::card::CardEncoding;
use puzzlesat_encodings::pb::PbEncoding;
use puzzlesat_encodings::solve::Sense;
use puzzlesat_encodings::{Assignment, Cnf, PbModel};
use serde::Serialize;

use crate::puzzle::{Encoded, Puzzle};
use crate::report::NoDetails;
use puzzlesat_encodings::pbmodel::PbSense;

/// The encodings of the constraints, by shape.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `Σ l ≤ 1` (and the `≤` half of `Σ l = 1`)
    pub amo: AmoEncoding,
    /// `Σ l ≥ k` with equal coefficients, other than a clause or an
    /// at-most-one
    pub card: CardEncoding,
    /// every other constraint
    pub pb: PbEncoding,
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "amo={} card={} pb={}", self.amo, self.card, self.pb)
    }
}

/// A model read from an OPB file, with the encodings of its constraints.
#[derive(Clone, Debug)]
pub struct PbFile {
    /// the file's name, as given
    pub name: String,
    /// the model the file states
    pub model: PbModel,
    /// the encodings
    pub opts: Options,
}

/// An assignment of the model's variables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PbSolution {
    /// each variable's value, in the order the file first names them
    #[serde(skip)]
    pub values: Vec<bool>,
    /// the literals as a competition `v` line lists them: `x1`, `-x2`, …
    pub literals: Vec<String>,
}

impl Puzzle for PbFile {
    type Solution = PbSolution;
    type Map = Vec<puzzlesat_encodings::Lit>;
    type Details = NoDetails;

    fn describe(&self) -> String {
        format!(
            "pb {} ({} variables, {} constraints) {}",
            self.name,
            self.model.n_vars(),
            self.model.constraints().len(),
            self.opts
        )
    }

    fn encode(&self, cnf: &mut Cnf) -> anyhow::Result<Encoded<Self::Map>> {
        let x = encode::encode(cnf, &self.model, &self.opts);
        let names = self
            .model
            .vars()
            .map(|v| (self.model.name(v).to_string(), x[v.idx()]))
            .collect();
        let objective = self.model.objective().map(|o| {
            encode::objective(
                o,
                &x,
                match o.sense {
                    PbSense::Minimize => Sense::Minimize,
                    PbSense::Maximize => Sense::Maximize,
                },
            )
        });
        let enc = Encoded::new(x.clone(), x, names);
        Ok(match objective {
            Some(o) => enc.with_objective(o),
            None => enc,
        })
    }

    fn decode(&self, map: &Self::Map, model: &Assignment) -> anyhow::Result<PbSolution> {
        let values: Vec<bool> = map.iter().map(|&l| model.lit(l)).collect();
        let literals = self
            .model
            .vars()
            .map(|v| {
                let sign = if values[v.idx()] { "" } else { "-" };
                format!("{sign}{}", self.model.name(v))
            })
            .collect();
        Ok(PbSolution { values, literals })
    }

    fn check(&self, sol: &PbSolution) -> Result<(), String> {
        if sol.values.len() != self.model.n_vars() {
            return Err(format!(
                "{} values for {} variables",
                sol.values.len(),
                self.model.n_vars()
            ));
        }
        self.model.check(|v| sol.values[v.idx()])
    }

    fn render(&self, sol: &PbSolution) -> String {
        // competition `v` lines, about 80 characters each
        let mut lines = vec![];
        let mut line = String::from("v");
        for l in &sol.literals {
            if line.len() + l.len() > 78 && line.len() > 1 {
                lines.push(std::mem::replace(&mut line, String::from("v")));
            }
            line.push(' ');
            line.push_str(l);
        }
        lines.push(line);
        lines.join("\n")
    }

    fn estimated_clauses(&self) -> u64 {
        encode::estimated_clauses(&self.model)
    }

    fn objective_of(&self, sol: &PbSolution) -> Option<i64> {
        let o = self.model.objective()?;
        Some(o.value(|v| sol.values[v.idx()]))
    }

    fn pb_model(&self) -> Option<PbModel> {
        Some(self.model.clone())
    }
}
