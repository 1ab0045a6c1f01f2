//! `puzzlesat solve|dimacs|decode enigma`: the three methods behind one
//! command line, and `--table A..B` for Table 2 of Cambazard, O'Sullivan &
//! Smith with this machine's numbers next to the paper's.

use std::path::Path;
use std::process::ExitCode;
use std::str::FromStr;

use anyhow::bail;

use puzzlesat_encodings::PbModel;
use crate::front::{
    choices, decode_generic, dimacs_generic, pb_model_generic, Common, Cubes, DimacsTarget,
    PuzzleCommand,
};
use crate::methods::enigma::Methods;
use crate::puzzles::enigma::encode::{BoardOptions, Dominance, Redundant, Symmetry};
use crate::puzzles::enigma::partitions::BoundKind;
use crate::puzzles::enigma::{Enigma, EnigmaSolution, Method};

/// An inclusive range `A..B` (or a single `N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeRange {
    /// first
    pub from: usize,
    /// last (inclusive)
    pub to: usize,
}

impl FromStr for SizeRange {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let parse = |x: &str| {
            x.trim()
                .parse::<usize>()
                .map_err(|_| format!("'{x}' is not a board size"))
        };
        let r = match s.split_once("..") {
            Some((a, b)) => SizeRange {
                from: parse(a)?,
                to: parse(b.trim_start_matches('='))?,
            },
            None => {
                let n = parse(s)?;
                SizeRange { from: n, to: n }
            }
        };
        if r.from > r.to {
            return Err(format!("empty range {s}"));
        }
        Ok(r)
    }
}

/// Enigma 1225 "rows are columns" on an n×n board (Cambazard, O'Sullivan & Smith)
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// board side n: 1 to 12 for --method board, 1 to 100 for partitions, 1 to 400 for reference (boards exist for n ≥ 3)
    #[arg(short = 'n', long = "size")]
    pub n: Option<usize>,
    /// method: partitions (SAT over cycle types), board (the whole board in
    /// CNF) or reference (structured search, no SAT); dimacs/decode always
    /// use the board CNF
    #[arg(long, value_parser = choices::<Method>())]
    pub method: Option<Method>,
    /// board CNF: permutation symmetry breaking, none or cycles
    #[arg(long, default_value = "cycles", value_parser = choices::<Symmetry>())]
    pub symmetry: Symmetry,
    /// board CNF: redundant constraints, a list of occ3, ubnval, gcd, staircase (or none, all)
    #[arg(long, default_value = "occ3,ubnval,gcd,staircase")]
    pub redundant: Redundant,
    /// board CNF: dominance constraints, none, counts or orbits12
    #[arg(long, default_value = "orbits12", value_parser = choices::<Dominance>())]
    pub dominance: Dominance,
    /// partitions: bound a cycle type must beat, orbits or paper (n²·UBNVAL)
    #[arg(long = "score-bound", default_value = "orbits", value_parser = choices::<BoundKind>())]
    pub ub: BoundKind,
    /// partitions: do not start from the {2, …, 2} cycle type
    #[arg(long)]
    pub no_warm_start: bool,
    /// solve every n in A..B (A and B from 1 to 400 within the method's range of -n) and print a Table-2-style table
    #[arg(long)]
    pub table: Option<SizeRange>,
}

impl Args {
    /// The methods' options these arguments give (`--max-clauses` and
    /// `--strategy` from the common ones).
    pub fn methods(&self, common: &Common) -> Methods {
        Methods {
            board: BoardOptions {
                symmetry: self.symmetry,
                redundant: self.redundant,
                dominance: self.dominance,
            },
            bound: self.ub,
            warm_start: !self.no_warm_start,
            board_strategy: common.strategy,
            max_clauses: common.max_clauses,
        }
    }
    fn method(&self) -> Method {
        self.method.unwrap_or_default()
    }
    fn size(&self) -> anyhow::Result<usize> {
        match self.n {
            Some(n) => Ok(n),
            None => bail!("enigma needs the board size: -n N (or --table A..B for solve)"),
        }
    }
    fn board_puzzle(&self, common: &Common) -> anyhow::Result<Enigma> {
        self.methods(common).board(self.size()?)
    }
}

impl PuzzleCommand for Args {
    fn solve(&self, common: &Common, cubes: &Cubes) -> anyhow::Result<ExitCode> {
        if common.certify && self.method() == Method::Reference {
            bail!("--certify backs UNSAT answers: the reference method uses no SAT solver (use --method board or partitions)");
        }
        let opts = common.run_options(cubes)?;
        if let Some(range) = self.table {
            let limits = common.limits();
            let out = &mut std::io::stdout().lock();
            self.methods(common).table(
                self.method(),
                range.from..=range.to,
                &opts,
                &limits,
                common.json,
                out,
            )?;
            return Ok(ExitCode::SUCCESS);
        }
        let n = self.size()?;
        let method = self.method();
        if method != Method::Board && (common.all || common.count) {
            bail!(
                "--all and --count enumerate boards of the board CNF: use them with --method board"
            );
        }
        let limits = common.limits();
        let watchdog = common.watchdog(
            format!("enigma n={n} method={method}"),
            "solutions",
            &common.solver,
            &limits,
        );
        let r = self
            .methods(common)
            .run(method, n, &opts, limits, &mut common.progress())?;
        drop(watchdog);
        common.print(r, EnigmaSolution::render, |s| Some(s.picture()))
    }

    fn dimacs(&self, common: &Common, target: &DimacsTarget) -> anyhow::Result<ExitCode> {
        if matches!(self.method, Some(m) if m != Method::Board) {
            bail!(
                "dimacs writes the board CNF: --method {} has no single CNF",
                self.method()
            );
        }
        let p = self.board_puzzle(common)?;
        dimacs_generic(&p, common, target)
    }

    fn decode(
        &self,
        common: &Common,
        model: &Path,
        bound: Option<i64>,
    ) -> anyhow::Result<ExitCode> {
        if matches!(self.method, Some(m) if m != Method::Board) {
            bail!(
                "decode reads models of the board CNF: --method {} has no single CNF",
                self.method()
            );
        }
        let p = self.board_puzzle(common)?;
        decode_generic(&p, common, model, bound)
    }

    /// The board's model, whatever the method (the rules are the same).
    fn pb_model(&self, common: &Common) -> anyhow::Result<PbModel> {
        pb_model_generic(&self.board_puzzle(common)?, common)
    }
}
