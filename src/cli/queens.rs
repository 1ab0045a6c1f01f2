//! `puzzlesat solve|dimacs|decode queens -n N [--encoding matrix|columns]
//! [--amo ...] [--alldiff ...]`.

use puzzlesat_encodings::alldiff::AllDiffEncoding;
use puzzlesat_encodings::amo::AmoEncoding;

use crate::puzzles::queens::{Encoding, Options, Queens, Symmetry};
use crate::front::{choices, PuzzleArgs};

/// N-queens: n non-attacking queens on an n×n board (Bezzel 1848; counts: OEIS A000170)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// board side, 1 to 1000 (--max-clauses bounds it further)
    #[arg(short, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub n: usize,
    /// board: matrix (a Boolean per cell) or columns (an order-encoded column per row, all different)
    #[arg(long, default_value = "matrix", value_parser = choices::<Encoding>())]
    pub encoding: Encoding,
    /// at-most-one encoding of rows, columns and diagonals
    #[arg(long, default_value = "pairwise", value_parser = choices::<AmoEncoding>())]
    pub amo: AmoEncoding,
    /// all-different encoding of the columns, with --encoding columns
    #[arg(long, default_value = "permutation", value_parser = choices::<AllDiffEncoding>())]
    pub alldiff: AllDiffEncoding,
    /// symmetry breaking of the class representatives that --all / --count
    /// enumerate and expand by the board's 8 symmetries: first-row (the
    /// lex-leader clauses on the first row only), lex-leader (one per class)
    /// or left-half (the first row's queen in the left half) [default:
    /// first-row]; refused where nothing counts by classes
    #[arg(long, value_parser = choices::<Symmetry>())]
    pub class_symmetry: Option<Symmetry>,
}

impl PuzzleArgs for Args {
    type Puzzle = Queens;
    fn puzzle(&self) -> anyhow::Result<Queens> {
        let opts = Options {
            encoding: self.encoding,
            amo: self.amo,
            alldiff: self.alldiff,
        };
        Ok(Queens {
            class_symmetry: self.class_symmetry.unwrap_or_default(),
            ..Queens::new(self.n, opts)
        })
    }
    fn class_option(&self) -> Option<String> {
        self.class_symmetry
            .map(|s| format!("--class-symmetry {}", s.name()))
    }
}
