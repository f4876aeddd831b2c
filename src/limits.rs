//! Size caps on the files hermes-hooks parses, so a huge (or endless) file is refused with a clear
//! message before a parser spends time and memory on it. Real files are far below them.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::Path;

const MIB: u64 = 1024 * 1024;

/// `config.yaml` (Hermes's whole configuration).
pub const CONFIG_MAX: u64 = 8 * MIB;
/// A `HOOK.md`, `HOOK.yaml` or `plugin.yaml`.
pub const MANIFEST_MAX: u64 = MIB;
/// The consent allowlist, and the loop guard's state.
pub const ALLOWLIST_MAX: u64 = 16 * MIB;

/// Reads `path` whole, refusing more than `max` bytes (`ErrorKind::FileTooLarge`).
pub fn read(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let file = File::open(path)?;
    let hint = file.metadata().map_or(0, |m| m.len().min(max));
    let mut bytes = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("larger than {} MiB; refusing to parse it", max / MIB),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn files_over_the_cap_are_refused_not_truncated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, vec![b'x'; 2 * 1024 * 1024 + 1]).unwrap();
        let err = read(&path, 2 * 1024 * 1024).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        assert_eq!(err.to_string(), "larger than 2 MiB; refusing to parse it");
        assert_eq!(
            read(&path, 3 * 1024 * 1024).unwrap().len(),
            2 * 1024 * 1024 + 1
        );
    }
}
