//! `puzzlesat solve|dimacs|decode rook-tour --instance FILE [--tour]
//! [--encoding position|successor] [--symmetry none|lex-leader] [--amo ...]`.

use std::path::PathBuf;

use puzzlesat_encodings::amo::AmoEncoding;

use crate::puzzles::rook_tour::encode::{
    default_amo, ClassSymmetry, Connectivity, Encoding, Links, Options, Symmetry,
};
use crate::puzzles::rook_tour::model::Instance;
use crate::puzzles::rook_tour::RookTour;
use crate::front::{choices, PuzzleArgs};

/// Numbered paths / tours on a board (prime rook tour, Numbrix)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// instance file (TOML, see docs/rook-tour.md)
    #[arg(long)]
    pub instance: PathBuf,
    /// require a closed tour (R·C next to 1), whatever the file says
    #[arg(long)]
    pub tour: bool,
    /// CNF encoding
    #[arg(long, default_value = "position", value_parser = choices::<Encoding>())]
    pub encoding: Encoding,
    /// symmetry breaking of the instance: none, lex-leader (its solutions
    /// are the classes) or first-row (the lex-leader clauses on the first
    /// row only: at least one solution per class)
    #[arg(long, default_value = "none", value_parser = choices::<Symmetry>())]
    pub symmetry: Symmetry,
    /// with --all / --count and --symmetry none: the symmetry breaking of
    /// the class representatives enumerated and expanded by the group
    /// (first-row or lex-leader; --no-classes enumerates every solution)
    /// [default: first-row]; refused where nothing counts by classes
    #[arg(long, value_parser = choices::<ClassSymmetry>())]
    pub class_symmetry: Option<ClassSymmetry>,
    /// at-most-one encoding of the position encoding's one-hot constraints
    /// [default: pairwise up to 100 cells, ladder above]
    #[arg(long, value_parser = choices::<AmoEncoding>())]
    pub amo: Option<AmoEncoding>,
    /// position encoding: forward links only (the source's model) or also the redundant backward links
    #[arg(long, default_value = "both", value_parser = choices::<Links>())]
    pub links: Links,
    /// position encoding, with the built-in enumeration engine: check the
    /// path's connectivity on partial assignments (lazy: a dead end or a
    /// region that cannot be covered fails at once, with a clause that
    /// explains it)
    #[arg(long, default_value = "none", value_parser = choices::<Connectivity>())]
    pub connectivity: Connectivity,
}

impl PuzzleArgs for Args {
    type Puzzle = RookTour;
    fn inputs(&self) -> Vec<(&'static str, &std::path::Path)> {
        vec![("--instance", &self.instance)]
    }
    fn puzzle(&self) -> anyhow::Result<RookTour> {
        if self.connectivity == Connectivity::Lazy && self.encoding != Encoding::Position {
            anyhow::bail!(
                "--connectivity lazy reads the position encoding's \"cell holds k\" literals: drop it, or use --encoding position (not {})",
                self.encoding.name()
            );
        }
        let mut inst = Instance::from_file(&self.instance)?;
        inst.tour |= self.tour;
        let opts = Options {
            encoding: self.encoding,
            symmetry: self.symmetry,
            amo: self.amo.unwrap_or(default_amo(inst.n())),
            links: self.links,
            connectivity: self.connectivity,
        };
        Ok(RookTour {
            class_symmetry: self.class_symmetry.unwrap_or_default(),
            ..RookTour::new(inst, opts)
        })
    }
    fn class_option(&self) -> Option<String> {
        self.class_symmetry
            .map(|s| format!("--class-symmetry {}", s.name()))
    }
}
