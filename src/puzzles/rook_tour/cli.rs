//! `puzzlesat solve|dimacs|decode rook-tour --instance FILE [--tour]
//! [--encoding position|successor] [--symmetry none|lex-leader] [--amo ...]`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use puzzlesat_encodings::amo::AmoEncoding;

use super::encode::{Encoding, Links, Options, Symmetry};
use super::model::Instance;
use super::RookTour;
use crate::cli::{decode_generic, dimacs_generic, exit_code, Common, PuzzleCommand};
use crate::run::{self, Status};

/// Arguments of `rook-tour`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// instance file (TOML, see docs/rook-tour.md)
    #[arg(long)]
    pub instance: PathBuf,
    /// require a closed tour (R·C next to 1), whatever the file says
    #[arg(long)]
    pub tour: bool,
    /// enumerate every solution (count proven by the final UNSAT)
    #[arg(long)]
    pub all: bool,
    /// stop enumerating after this many solutions
    #[arg(long)]
    pub limit: Option<u64>,
    /// CNF encoding
    #[arg(long, default_value = "position")]
    pub encoding: Encoding,
    /// symmetry breaking
    #[arg(long, default_value = "none")]
    pub symmetry: Symmetry,
    /// at-most-one encoding of the position encoding's one-hot constraints
    #[arg(long, default_value = "ladder")]
    pub amo: AmoEncoding,
    /// position encoding: forward links only (the seed's model) or also the redundant backward links
    #[arg(long, default_value = "both")]
    pub links: Links,
}

impl Args {
    /// The puzzle these arguments describe.
    pub fn puzzle(&self) -> anyhow::Result<RookTour> {
        let mut inst = Instance::from_file(&self.instance)?;
        inst.tour |= self.tour;
        let opts = Options {
            encoding: self.encoding,
            symmetry: self.symmetry,
            amo: self.amo,
            links: self.links,
        };
        Ok(RookTour::new(inst, opts))
    }
}

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common) -> anyhow::Result<ExitCode> {
        let p = self.puzzle()?;
        let opts = common.run_options(self.all, self.limit);
        let report = run::run(&p, &opts, common.limits(), &mut common.progress())?;
        let mut out = std::io::stdout().lock();
        if common.json {
            serde_json::to_writer(&mut out, &report)?;
            writeln!(out)?;
            return Ok(exit_code(report.status));
        }
        run::print_text(&p, &report, &mut out)?;
        if p.opts.symmetry == Symmetry::LexLeader {
            let names: Vec<&str> = p.group.iter().map(|g| g.name.as_str()).collect();
            writeln!(
                out,
                "symmetry group of the board and values ({} elements): {}",
                p.group.len(),
                names.join(", ")
            )?;
            if let (Status::All, Some(n)) = (report.status, report.count) {
                let total: usize = report
                    .solutions
                    .iter()
                    .map(|s| super::class_of(&p.group, s).len())
                    .sum();
                writeln!(
                    out,
                    "exactly {n} classes under this group: lex-leader clauses keep the lex-least member of each class, \
                     enumeration ended on UNSAT; the classes' images (each checked) hold {total} solutions in all"
                )?;
            }
        }
        Ok(exit_code(report.status))
    }

    fn dimacs(
        &self,
        common: &Common,
        output: Option<&PathBuf>,
        map: Option<&PathBuf>,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode> {
        dimacs_generic(&self.puzzle()?, common, output, map, bound)
    }

    fn decode(&self, common: &Common, model: &std::path::Path) -> anyhow::Result<ExitCode> {
        decode_generic(&self.puzzle()?, common, model)
    }
}
