//! One way to read a file the user names (an instance, a goal board, a
//! given square, a solver's output, a cube file, a font): only a regular
//! file is read (a FIFO, a device or a directory is refused before a byte
//! is read, and opening never blocks), and only up to a size cap checked
//! before reading (`/dev/zero` or a 3 GB file as a goal board is an error,
//! not 3 GB of memory). Text loses a UTF-8 byte order mark at its head.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use anyhow::{bail, Context};

/// The cap of a text file a person writes: an instance, a goal board, a
/// given square, a solver's `s`/`v` output (64 MiB).
pub const TEXT_CAP: u64 = 64 << 20;

/// The cap of a file the program appends records to (a cube file) or
/// reads as data (a font): 1 GiB.
pub const DATA_CAP: u64 = 1 << 30;

/// The UTF-8 byte order mark some editors put at the head of a text file.
pub const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Opens `path` with `options` (non-blocking, so a FIFO never hangs the
/// open) and refuses it unless it is a regular file; the error names it.
pub fn open_regular(path: &Path, options: &mut OpenOptions) -> anyhow::Result<File> {
    let f = options
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .with_context(|| format!("reading {}", path.display()))?;
    let m = f
        .metadata()
        .with_context(|| format!("reading {}", path.display()))?;
    if !m.is_file() {
        bail!(
            "reading {}: not a regular file ({}): refused, give a file",
            path.display(),
            kind(&m)
        );
    }
    // reads block as on any file from here on
    // SAFETY: fcntl on a descriptor this function owns.
    unsafe {
        let fd = std::os::fd::AsRawFd::as_raw_fd(&f);
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK);
    }
    Ok(f)
}

/// What a file that is not regular is, in words.
fn kind(m: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = m.file_type();
    if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

/// Refuses an open file of more than `cap` bytes, before it is read.
pub fn check_size(path: &Path, f: &File, cap: u64) -> anyhow::Result<()> {
    let size = f
        .metadata()
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    if size > cap {
        bail!(
            "reading {}: {size} bytes, over the {cap} bytes such a file may have: refused",
            path.display()
        );
    }
    Ok(())
}

/// The bytes of the regular file `path`, at most `cap` of them (a larger
/// file is refused before it is read; one that grows past the cap while it
/// is read is refused too).
pub fn read_bytes(path: &Path, cap: u64) -> anyhow::Result<Vec<u8>> {
    let f = open_regular(path, OpenOptions::new().read(true))?;
    check_size(path, &f, cap)?;
    let mut bytes = vec![];
    f.take(cap + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", path.display()))?;
    if bytes.len() as u64 > cap {
        bail!(
            "reading {}: more than the {cap} bytes such a file may have: refused",
            path.display()
        );
    }
    Ok(bytes)
}

/// The UTF-8 text of the regular file `path` ([`read_bytes`] with
/// [`TEXT_CAP`]), without a byte order mark at its head.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = read_bytes(path, TEXT_CAP)?;
    let body = bytes.strip_prefix(BOM).unwrap_or(&bytes).to_vec();
    String::from_utf8(body).map_err(|e| {
        anyhow::anyhow!(
            "reading {}: not UTF-8 text (byte {} is not)",
            path.display(),
            e.utf8_error().valid_up_to() + 1
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn special_files_and_large_files_are_refused() {
        let e = read_text(Path::new("/dev/zero")).unwrap_err();
        assert!(format!("{e:#}").contains("not a regular file (a device)"), "{e:#}");
        let dir = tempfile::tempdir().unwrap();
        let e = read_text(dir.path()).unwrap_err();
        assert!(format!("{e:#}").contains("a directory"), "{e:#}");
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a plain system call on a path this test owns.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = read_text(&fifo).unwrap_err();
        assert!(format!("{e:#}").contains("a FIFO"), "{e:#}");
        let big = dir.path().join("big");
        std::fs::write(&big, vec![b'0'; 100]).unwrap();
        let e = read_bytes(&big, 10).unwrap_err();
        assert!(format!("{e:#}").contains("100 bytes, over the 10"), "{e:#}");
        let bom = dir.path().join("bom");
        std::fs::write(&bom, b"\xEF\xBB\xBF1 2\n").unwrap();
        assert_eq!(read_text(&bom).unwrap(), "1 2\n");
    }
}
