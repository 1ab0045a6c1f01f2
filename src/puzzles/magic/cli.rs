//! `puzzlesat solve|dimacs|decode magic ...`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context};
use puzzlesat_encodings::amo::AmoEncoding;

use super::{twostage, CellEncoding, Givens, Magic, Method, Options, SumEncoding, Symmetry};
use crate::front::{choices, decode_generic, dimacs_generic, Common, DimacsTarget, PuzzleCommand};

/// Magic squares: n×n, 1..n² once each, all lines summing to n(n²+1)/2.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// order of the square, 1 to 1000 (taken from --given if omitted; --max-clauses bounds it further)
    #[arg(short, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub n: Option<usize>,
    /// enumerate every solution (the count is exact when it ends on UNSAT)
    #[arg(long)]
    pub all: bool,
    /// with --all: stop after this many (at least 1)
    #[arg(long, requires = "all", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// auto (two-stage to find a free square with the default encoding options, else encoding), encoding (the single CNF: finds, counts, refutes), two-stage (finds under the balanced-digits restriction, docs/magic.md)
    #[arg(long, default_value = "auto", value_parser = choices::<Method>())]
    pub method: Method,
    /// cell representation: direct (one-hot), order (order-encoded integers), digits (two order-encoded base-n digits)
    #[arg(long, default_value = "digits", value_parser = choices::<CellEncoding>())]
    pub encoding: CellEncoding,
    /// line sums: gte, adder, dpw (pseudo-Boolean over direct literals), unary (order-encoded partial sums of values or digits)
    #[arg(long, default_value = "unary", value_parser = choices::<SumEncoding>())]
    pub sum: SumEncoding,
    /// at-most-one encoding of the exactly-one constraints
    #[arg(long, default_value = "ladder", value_parser = choices::<AmoEncoding>())]
    pub amo: AmoEncoding,
    /// symmetry breaking: none, order (the seed's three constraints), lex-leader (8 symmetries), diagonals (order constraints for the group of 2^k·k!·4 maps)
    #[arg(long, default_value = "none", value_parser = choices::<Symmetry>())]
    pub symmetry: Symmetry,
    /// with --symmetry lex-leader, order or diagonals: also break the complement map v -> n²+1-v (fully with lex-leader, partly otherwise)
    #[arg(long)]
    pub complement: bool,
    /// the seed's redundant constraint: the sum of all cells is n·S
    #[arg(long)]
    pub total: bool,
    /// with --encoding digits: leave out the redundant digit counts (each digit value n times as high and as low digit)
    #[arg(long)]
    pub no_digit_counts: bool,
    /// restrict to associative squares (opposite cells sum to n²+1): NOT redundant, a subclass
    #[arg(long)]
    pub associative: bool,
    /// completion: a file of n lines of n cells (a value, or 0 . _ for free)
    #[arg(long)]
    pub given: Option<PathBuf>,
}

impl Args {
    /// The instance these arguments describe.
    pub fn puzzle(&self) -> anyhow::Result<Magic> {
        let options = Options {
            cells: self.encoding,
            sum: self.sum,
            amo: self.amo,
            symmetry: self.symmetry,
            complement: self.complement,
            total: self.total,
            digit_counts: self.encoding == CellEncoding::Digits && !self.no_digit_counts,
            associative: self.associative,
        };
        let givens = match (&self.given, self.n) {
            (Some(path), n) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("reading {}", path.display()))?;
                let g = Givens::parse(&text).with_context(|| format!("in {}", path.display()))?;
                if let Some(n) = n {
                    if n != g.n {
                        bail!(
                            "-n {n} but {} holds a {}×{} square",
                            path.display(),
                            g.n,
                            g.n
                        );
                    }
                }
                g
            }
            (None, Some(n)) => Givens::free(n),
            (None, None) => bail!("give the order with -n N (or a --given file)"),
        };
        if givens.n == 0 {
            bail!("the order n must be at least 1");
        }
        Ok(Magic { givens, options })
    }
}

impl Args {
    /// The method `--method` stands for on this instance.
    pub fn method(&self, p: &Magic, common: &Common) -> anyhow::Result<Method> {
        let finding = !self.all && !common.count && p.givens.count() == 0;
        match self.method {
            Method::Auto => Ok(
                if finding && p.givens.n >= 3 && p.options == Options::default() && !common.certify {
                    Method::TwoStage
                } else {
                    Method::Encoding
                },
            ),
            Method::TwoStage if !finding => bail!(
                "--method two-stage finds one free square under a restriction: it cannot count (--all, --count) or complete --given cells; use --method encoding"
            ),
            Method::TwoStage if p.options != Options::default() => bail!(
                "--method two-stage has its own encoding: leave the encoding options at their defaults, or use --method encoding"
            ),
            m => Ok(m),
        }
    }
}

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common) -> anyhow::Result<ExitCode> {
        let p = self.puzzle()?;
        match self.method(&p, common)? {
            Method::TwoStage => {
                common.check_budget(&p)?;
                let mut progress = common.progress();
                match twostage::report(
                    p.givens.n,
                    &common.solver,
                    common.seed,
                    common.limits(),
                    &mut progress,
                )? {
                    Some(r) => common.print(r, |s| s.to_string()),
                    None => {
                        let _ = writeln!(progress, "c two-stage: the restriction holds no square of order {}: solving the single CNF", p.givens.n);
                        common.solve(&p, self.all, self.limit)
                    }
                }
            }
            _ => common.solve(&p, self.all, self.limit),
        }
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
