//! `puzzlesat solve|dimacs|decode rook-tour --instance FILE [--tour]
//! [--encoding position|successor] [--symmetry none|lex-leader] [--amo ...]`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use puzzlesat_encodings::amo::AmoEncoding;

use super::encode::{Encoding, Links, Options, Symmetry};
use super::model::Instance;
use super::RookTour;
use crate::front::{choices, decode_generic, dimacs_generic, Common, DimacsTarget, PuzzleCommand};

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
    /// stop enumerating after this many solutions (with --all; at least 1)
    #[arg(long, requires = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// CNF encoding
    #[arg(long, default_value = "position", value_parser = choices::<Encoding>())]
    pub encoding: Encoding,
    /// symmetry breaking
    #[arg(long, default_value = "none", value_parser = choices::<Symmetry>())]
    pub symmetry: Symmetry,
    /// at-most-one encoding of the position encoding's one-hot constraints
    #[arg(long, default_value = "ladder", value_parser = choices::<AmoEncoding>())]
    pub amo: AmoEncoding,
    /// position encoding: forward links only (the seed's model) or also the redundant backward links
    #[arg(long, default_value = "both", value_parser = choices::<Links>())]
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
        common.solve(&self.puzzle()?, self.all, self.limit)
    }
    fn dimacs(&self, common: &Common, target: &DimacsTarget) -> anyhow::Result<ExitCode> {
        dimacs_generic(&self.puzzle()?, common, target)
    }
    fn decode(
        &self,
        common: &Common,
        model: &Path,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode> {
        decode_generic(&self.puzzle()?, common, model, bound)
    }
}
