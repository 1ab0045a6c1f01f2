//! Text read line by line, each line with its number: the one line reader
//! of the OPB, DIMACS and solver-output parsers, so that an error always
//! names its line and nothing grows past a bound the caller sets.

use std::io::{self, BufRead, Read};

/// Why a line could not be read.
#[derive(Debug)]
pub enum LineError {
    /// reading failed on this line (1-based)
    Io {
        /// the line being read
        line: usize,
        /// the error
        error: io::Error,
    },
    /// the line (1-based) is longer than the bound
    TooLong {
        /// the line
        line: usize,
        /// the bound, in bytes
        max: usize,
    },
}

/// The lines of a stream as bytes, numbered from 1, without their `\n`;
/// with [`NumberedLines::at_most`], each at most that many bytes (a longer
/// one is a [`LineError::TooLong`], not a buffer that grows).
pub struct NumberedLines<R> {
    input: R,
    line: usize,
    max: Option<usize>,
    buf: Vec<u8>,
}

impl<R: BufRead> NumberedLines<R> {
    /// The lines of `input`, however long.
    pub fn new(input: R) -> Self {
        NumberedLines {
            input,
            line: 0,
            max: None,
            buf: Vec::new(),
        }
    }

    /// The lines of `input`, each at most `max` bytes.
    pub fn at_most(input: R, max: usize) -> Self {
        NumberedLines {
            max: Some(max),
            ..Self::new(input)
        }
    }

    /// How many lines have been read.
    pub fn read(&self) -> usize {
        self.line
    }

    /// The next line and its number (None at the end).
    pub fn next_line(&mut self) -> Result<Option<(usize, &[u8])>, LineError> {
        self.buf.clear();
        let line = self.line + 1;
        let read = match self.max {
            Some(max) => (&mut self.input)
                .take(max as u64 + 1)
                .read_until(b'\n', &mut self.buf),
            None => self.input.read_until(b'\n', &mut self.buf),
        };
        let n = read.map_err(|error| LineError::Io { line, error })?;
        if n == 0 {
            return Ok(None);
        }
        self.line = line;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
        } else if let Some(max) = self.max.filter(|&max| n > max) {
            return Err(LineError::TooLong { line, max });
        }
        Ok(Some((line, &self.buf)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_numbered_without_their_newline_and_bounded() {
        let mut lines = NumberedLines::new(&b"a b\n\nlast"[..]);
        assert_eq!(lines.next_line().unwrap(), Some((1, &b"a b"[..])));
        assert_eq!(lines.next_line().unwrap(), Some((2, &b""[..])));
        assert_eq!(lines.next_line().unwrap(), Some((3, &b"last"[..])));
        assert_eq!(lines.next_line().unwrap(), None);
        let mut lines = NumberedLines::at_most(&b"1234\n12345\n"[..], 4);
        assert_eq!(lines.next_line().unwrap(), Some((1, &b"1234"[..])));
        match lines.next_line() {
            Err(LineError::TooLong { line: 2, max: 4 }) => {}
            other => panic!("expected line 2 too long, got {other:?}"),
        }
    }
}
