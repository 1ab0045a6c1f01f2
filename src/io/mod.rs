//! Files in and out: DIMACS CNF reading and writing, WCNF and OPB writing
//! ([`dimacs`]), SAT-competition solver output (`s`/`v` lines, MiniSat
//! result files: [`solver_output`]), generated formulas with known answers
//! for tests and benches ([`generate`]), the one way to read a file the
//! user names ([`input`]: regular files only, under a size cap) and the one
//! way to write a file ([`output`]: checked before any work, whole or not
//! at all), and [`show`] (input quoted in a message).

pub mod dimacs;
pub mod generate;
pub mod input;
pub mod output;
pub mod solver_output;

use std::path::Path;

pub use output::{write_atomic, write_string_atomic};

/// Input bytes as they may appear in a one-line message: control bytes,
/// NUL and non-ASCII escaped (`\x00`, `\n`, `\xff`), cut after 40 bytes.
pub fn show(bytes: &[u8]) -> String {
    const MAX: usize = 40;
    let mut s = bytes[..bytes.len().min(MAX)].escape_ascii().to_string();
    if bytes.len() > MAX {
        s.push_str("...");
    }
    s
}

/// A message on one line: its lines joined by `; ` (TOML's messages
/// span lines).
pub fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// 1-based line and column (in characters) of a byte offset of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// A TOML parse error of `file` as one line: `FILE:LINE:COL: message`.
pub fn toml_error(file: &Path, text: &str, e: &toml::de::Error) -> String {
    let (line, col) = line_col(text, e.span().map_or(0, |s| s.start));
    format!("{}:{line}:{col}: {}", file.display(), one_line(e.message()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn show_escapes_and_cuts() {
        assert_eq!(show(b"a\0b\xff\n"), "a\\x00b\\xff\\n");
        assert_eq!(show(&[b'x'; 50]).len(), 43);
    }
}
