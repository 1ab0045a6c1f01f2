//! One module per puzzle family: `model` (instance and solution types),
//! `encode` (its CNF variants), `check` (independent checker), `cli` (its
//! clap arguments, turned into the puzzle by
//! [`PuzzleArgs`](crate::front::PuzzleArgs)), and where the analysis gives
//! one, `reference` (structured non-SAT solver).
//!
//! A family is registered by one line of [`puzzles!`] below: it declares the
//! module and its `solve`/`dimacs`/`decode` subcommand; `list` and `--help`
//! are generated from the clap definitions.

/// Declares the puzzle modules and [`PuzzleCmd`], the subcommand naming a
/// puzzle: one line `Variant => module,` per family, whose `module::cli::Args`
/// implements [`PuzzleCommand`](crate::front::PuzzleCommand) (the doc
/// comment of the `Args` struct is the subcommand's help).
macro_rules! puzzles {
    ($($variant:ident => $module:ident,)*) => {
        $(pub mod $module;)*

        /// The puzzles: one variant per family.
        #[derive(Debug, clap::Subcommand)]
        pub enum PuzzleCmd {
            $(
                #[allow(missing_docs)]
                $variant($module::cli::Args),
            )*
        }

        impl PuzzleCmd {
            /// The puzzle's command handlers.
            pub fn command(&self) -> &dyn crate::front::PuzzleCommand {
                match self {
                    $(PuzzleCmd::$variant(a) => a,)*
                }
            }
        }
    };
}

puzzles! {
    RookTour => rook_tour,
    AlienTiles => alien_tiles,
    Enigma => enigma,
    Magic => magic,
    Queens => queens,
}
