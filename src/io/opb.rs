//! OPB files in: [`read_opb_file`] opens a file (plain, gzip, xz or bzip2,
//! recognised by its magic bytes) and reads it with the encodings crate's
//! reader ([`puzzlesat_encodings::opb::read_opb`]).

use std::path::Path;

use anyhow::Context;
use puzzlesat_encodings::opb::read_opb;
use puzzlesat_encodings::PbModel;

/// Reads an OPB file into a PB model; errors name the file and the line.
pub fn read_opb_file(path: &Path) -> anyhow::Result<PbModel> {
    let file = super::input::open_regular(path, std::fs::OpenOptions::new().read(true))?;
    let input = super::dimacs::decompress(std::io::BufReader::new(file))
        .with_context(|| format!("reading {}", path.display()))?;
    read_opb(input).with_context(|| format!("reading {}", path.display()))
}
