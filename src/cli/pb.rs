//! `puzzlesat pb FILE.opb` (also `solve|dimacs|decode|opb pb FILE.opb`)
//! `[--amo ...] [--card ...] [--pb ...]`.

use std::path::PathBuf;

use puzzlesat_encodings::amo::AmoEncoding;
use puzzlesat_encodings::card::CardEncoding;
use puzzlesat_encodings::pb::PbEncoding;

use crate::front::{choices, PuzzleArgs};
use crate::puzzles::pb::{Options, PbFile};

/// any pseudo-Boolean model, read from an OPB file (plain, gzip or xz; the PB competitions' format, linear constraints)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// the OPB file
    pub file: PathBuf,
    /// at-most-one encoding of the constraints `Σ l ≤ 1` (and the `≤` half of `Σ l = 1`)
    #[arg(long, default_value = "ladder", value_parser = choices::<AmoEncoding>())]
    pub amo: AmoEncoding,
    /// cardinality encoding of the constraints with equal coefficients (other than clauses and at-most-ones)
    #[arg(long, default_value = "totalizer", value_parser = choices::<CardEncoding>())]
    pub card: CardEncoding,
    /// PB encoding of every other constraint
    #[arg(long, default_value = "gte", value_parser = choices::<PbEncoding>())]
    pub pb: PbEncoding,
}

impl Args {
    /// The arguments for `file` with the default encodings (`dimacs --from FILE`).
    pub fn with_defaults(file: PathBuf) -> Self {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Wrap {
            #[command(flatten)]
            args: Args,
        }
        let mut args = Wrap::parse_from(["pb", "-"]).args;
        args.file = file;
        args
    }
}

impl PuzzleArgs for Args {
    type Puzzle = PbFile;
    fn inputs(&self) -> Vec<(&'static str, &std::path::Path)> {
        vec![("pb", self.file.as_path())]
    }
    fn puzzle(&self) -> anyhow::Result<PbFile> {
        let model = crate::io::opb::read_opb_file(&self.file)?;
        Ok(PbFile {
            name: self.file.display().to_string(),
            model,
            opts: Options {
                amo: self.amo,
                card: self.card,
                pb: self.pb,
            },
        })
    }
}
