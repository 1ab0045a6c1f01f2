//! `puzzlesat solve|dimacs|decode magic ...`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context};
use puzzlesat_encodings::amo::AmoEncoding;

use crate::front::{choices, Common, Cubes, PuzzleArgs};
use crate::methods;
use crate::puzzles::magic::{
    CellEncoding, Decisions, Givens, Magic, Method, Options, SumEncoding, Symmetry,
};

/// Magic squares: n×n, 1..n² once each, all lines summing to n(n²+1)/2; find, count, complete
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// order of the square, 1 to 1000 (taken from --given if omitted; --max-clauses bounds it further)
    #[arg(short, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub n: Option<usize>,
    /// auto (staged to find a free square with the default encoding options on a solver with a conflict limit, else encoding), encoding (the single CNF: finds, counts, refutes), staged (finds under the balanced-digits restriction, docs/magic.md), reference (counts every square of order 1 to 5 without SAT: row and column partitions into line sets, then the diagonals; --count, with --cubes K, --jobs and --cube-file)
    #[arg(long, default_value = "auto", value_parser = choices::<Method>())]
    pub method: Method,
    /// with the staged method: the place values of the digits of F−1, strictly decreasing from below n² to 1, comma-separated (default: n·m,n,m,1 with m = ⌈√n⌉; 3,1 for n = 3)
    #[arg(long, value_delimiter = ',', value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub places: Option<Vec<usize>>,
    /// cell representation: direct (one-hot), order (order-encoded integers), digits (two order-encoded base-n digits) [default: digits]
    #[arg(long, value_parser = choices::<CellEncoding>())]
    pub encoding: Option<CellEncoding>,
    /// line sums: gte, adder, dpw (pseudo-Boolean over direct literals), unary (order-encoded partial sums of values or digits), table (line value sets), pairs (unary over order cells, pair sums shared between sets) [default: unary; pairs to count at n = 4 with order cells]
    #[arg(long, value_parser = choices::<SumEncoding>())]
    pub sum: Option<SumEncoding>,
    /// at-most-one encoding of the exactly-one constraints [default: ladder; commander to count at n = 4]
    #[arg(long, value_parser = choices::<AmoEncoding>())]
    pub amo: Option<AmoEncoding>,
    /// symmetry breaking: none, order (the source's three constraints), lex-leader (8 symmetries), diagonals (order constraints for the group of 2^k·k!·4 maps)
    #[arg(long, default_value = "none", value_parser = choices::<Symmetry>())]
    pub symmetry: Symmetry,
    /// with --symmetry lex-leader, order or diagonals: also break the complement map v -> n²+1-v (fully with lex-leader, partly otherwise)
    #[arg(long)]
    pub complement: bool,
    /// the source's redundant constraint: the sum of all cells is n·S
    #[arg(long)]
    pub total: bool,
    /// with --encoding digits: leave out the redundant digit counts (each digit value n times as high and as low digit)
    #[arg(long)]
    pub no_digit_counts: bool,
    /// restrict to associative squares (opposite cells sum to n²+1): NOT redundant, a subclass
    #[arg(long)]
    pub associative: bool,
    /// redundant: every other set of n cells whose sum the line sums imply (n = 4: corners, centre, middle pairs of opposite sides) sums to S too; n ≤ 5 [default: on to count at n = 4]
    #[arg(long, conflicts_with = "no_implied_sums")]
    pub implied_sums: bool,
    /// leave out the implied sums (--implied-sums) where counting would add them
    #[arg(long)]
    pub no_implied_sums: bool,
    /// what a count branches on: all (every variable), cells (the cells' order literals; a model is blocked by its decisions) [default: cells to count, except with --sum adder]
    #[arg(long, value_parser = choices::<Decisions>())]
    pub decisions: Option<Decisions>,
    /// completion: a file of n lines of n cells (a value, or 0 . _ for free)
    #[arg(long)]
    pub given: Option<PathBuf>,
}

impl PuzzleArgs for Args {
    type Puzzle = Magic;
    fn inputs(&self) -> Vec<(&'static str, &std::path::Path)> {
        self.given.iter().map(|p| ("--given", p.as_path())).collect()
    }
    /// The instance with the defaults for finding (and for `dimacs`,
    /// `decode`, `opb`).
    fn puzzle(&self) -> anyhow::Result<Magic> {
        self.puzzle_for(false)
    }
    /// The staged method where `--method` picks it (the single CNF if its
    /// restriction holds no square), else the encoding.
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        let p = self.puzzle_for(common.all || common.count)?;
        match self.method(&p, common)? {
            Method::Staged => {
                let found = methods::magic::staged(
                    p.givens.n,
                    self.places.as_deref(),
                    common.max_clauses,
                    &common.run_options(cubes)?,
                    common.limits(),
                    &mut common.progress(),
                )?;
                match found {
                    Some(r) => common.print(r, |s| s.to_string(), |s| Some(s.picture())),
                    None => common.solve(&p, cubes),
                }
            }
            Method::Reference => {
                let report = methods::magic::count_by_line_sets(
                    p.givens.n,
                    cubes.options()?.as_ref(),
                    &common.limits(),
                    &mut common.progress(),
                )?;
                common.print(report, |s| s.to_string(), |s| Some(s.picture()))
            }
            _ => common.solve(&p, cubes),
        }
    }
}

impl Args {
    /// The instance, with the defaults for counting (`counting`: `--all` or
    /// `--count`) or for finding.
    pub fn puzzle_for(&self, counting: bool) -> anyhow::Result<Magic> {
        let givens = match (&self.given, self.n) {
            (Some(path), n) => {
                let text = crate::io::input::read_text(path)?;
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
        let base = if counting {
            Options::counting(givens.n)
        } else {
            Options::default()
        };
        let cells = self.encoding.unwrap_or(base.cells);
        // the shared pair sums add order-encoded cells
        let sum = self.sum.unwrap_or(
            if base.sum == SumEncoding::Pairs && cells != CellEncoding::Order {
                SumEncoding::Unary
            } else {
                base.sum
            },
        );
        let options = Options {
            cells,
            sum,
            amo: self.amo.unwrap_or(base.amo),
            symmetry: self.symmetry,
            complement: self.complement,
            total: self.total,
            digit_counts: cells == CellEncoding::Digits && !self.no_digit_counts,
            associative: self.associative,
            implied_sums: self.implied_sums || (base.implied_sums && !self.no_implied_sums),
            // the adder's sums do not propagate from fixed cells
            decisions: self.decisions.unwrap_or(if sum == SumEncoding::Adder {
                Decisions::All
            } else {
                base.decisions
            }),
        };
        Ok(Magic { givens, options })
    }

    /// The method `--method` stands for on this instance.
    pub fn method(&self, p: &Magic, common: &Common) -> anyhow::Result<Method> {
        let method = self.chosen_method(p, common)?;
        if method == Method::Encoding && self.places.is_some() {
            bail!("--places belongs to the staged method, not to the single CNF (--method encoding, or counting, completing, certifying)");
        }
        Ok(method)
    }

    fn chosen_method(&self, p: &Magic, common: &Common) -> anyhow::Result<Method> {
        let finding = !common.all && !common.count && p.givens.count() == 0;
        match self.method {
            Method::Auto => Ok(
                if finding
                    && p.givens.n >= 3
                    && p.options == Options::default()
                    && !common.certify
                    && common.solver.capabilities().conflict_limit
                {
                    Method::Staged
                } else {
                    Method::Encoding
                },
            ),
            Method::Staged if !finding => bail!(
                "--method staged finds one free square under a restriction: it cannot count (--all, --count) or complete --given cells; use --method encoding"
            ),
            Method::Staged if p.options != Options::default() => bail!(
                "--method staged has its own encoding: leave the encoding options at their defaults, or use --method encoding"
            ),
            Method::Reference if !common.count || common.all => bail!(
                "--method reference counts the squares (--count); it does not list them (--all) or find one"
            ),
            Method::Reference if p.givens.count() > 0 => {
                bail!("--method reference counts free squares: not with --given cells")
            }
            Method::Reference if p.options != Options::counting(p.givens.n) => bail!(
                "--method reference counts every square without a CNF: leave --symmetry, --complement and the encoding options at their defaults"
            ),
            Method::Reference if common.certify => bail!(
                "--certify backs UNSAT answers: the reference method uses no SAT solver (use --method encoding)"
            ),
            m => Ok(m),
        }
    }
}
