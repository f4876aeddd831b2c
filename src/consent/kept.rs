//! What was approved is kept: the bytes of each approved script, content-addressed by sha256
//! under `<home>/hermes-hooks/approved/`, so a script that changed since its review can be shown
//! as a diff of exactly what changed. A missing copy only means no diff.

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest as _, Sha256};

use crate::ground::limits;

/// The folder of kept copies, beside the allowlist: `<home>/hermes-hooks/approved`.
pub(crate) fn folder(allowlist: &Path) -> PathBuf {
    allowlist
        .parent()
        .unwrap_or_else(|| Path::new("."))
        .join("hermes-hooks")
        .join("approved")
}

/// Whether `sha256` can name a kept copy: 64 lowercase hex digits (an allowlist is read from disk
/// and may hold anything, such as a path).
fn is_digest(sha256: &str) -> bool {
    sha256.len() == 64
        && sha256
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn digest(bytes: &[u8]) -> String {
    crate::ground::digest::hex(&Sha256::digest(bytes))
}

/// Keeps a copy of `script` as approved with `sha256`. When the file no longer has that content
/// (it changed since it was hashed) nothing is kept; a copy already there is left as it is.
pub(crate) fn keep(allowlist: &Path, script: &Path, sha256: &str) -> io::Result<()> {
    if !is_digest(sha256) {
        return Ok(());
    }
    let dir = folder(allowlist);
    let copy = dir.join(sha256);
    if copy.is_file() {
        return Ok(());
    }
    let bytes = limits::read(script, limits::SCRIPT_MAX)?;
    if digest(&bytes) != sha256 {
        return Ok(());
    }
    create_private_dir(&dir)?;
    crate::ground::statefile::write_atomic(&dir, &copy, ".approved-", &bytes)
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt as _;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
}

/// The kept copy of the script approved with `sha256`, when there is one and its content still
/// has that digest.
pub(crate) fn read(allowlist: &Path, sha256: &str) -> Option<Vec<u8>> {
    if !is_digest(sha256) {
        return None;
    }
    let bytes = limits::read(&folder(allowlist).join(sha256), limits::SCRIPT_MAX).ok()?;
    (digest(&bytes) == sha256).then_some(bytes)
}

/// A unified diff from the approved copy to the script as it is now. `None` when either side is
/// missing or binary.
pub(crate) fn diff(approved: &[u8], now: &[u8]) -> Option<String> {
    if approved.contains(&0) || now.contains(&0) {
        return None;
    }
    let old = String::from_utf8_lossy(approved);
    let new = String::from_utf8_lossy(now);
    let diff = similar::TextDiff::configure()
        .timeout(Duration::from_secs(1))
        .diff_lines(old.as_ref(), new.as_ref());
    Some(
        diff.unified_diff()
            .context_radius(3)
            .header("approved", "now")
            .to_string(),
    )
}

/// The diff of `script` against the copy kept when it was approved with `pinned`, when both can
/// be read.
pub(crate) fn diff_since_approval(allowlist: &Path, script: &Path, pinned: &str) -> Option<String> {
    let approved = read(allowlist, pinned)?;
    let now = limits::read(script, limits::SCRIPT_MAX).ok()?;
    diff(&approved, &now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_a_copy_by_digest_and_diffs_against_it() {
        use std::os::unix::fs::PermissionsExt as _;
        let home = tempfile::tempdir().expect("tempdir");
        let allowlist = home.path().join("shell-hooks-allowlist.json");
        let script = home.path().join("guard.sh");
        std::fs::write(&script, "#!/bin/sh\necho one\n").expect("write");
        let sha = digest(b"#!/bin/sh\necho one\n");
        keep(&allowlist, &script, &sha).expect("keep");
        let copy = folder(&allowlist).join(&sha);
        let mode = std::fs::metadata(&copy).expect("copy").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        std::fs::write(&script, "#!/bin/sh\necho two\n").expect("write");
        let diff = diff_since_approval(&allowlist, &script, &sha).expect("a diff");
        assert!(diff.contains("-echo one\n+echo two\n"), "{diff}");
        // Content that no longer has the digest is not kept; a name that is no digest is no path.
        let other = digest(b"something else");
        keep(&allowlist, &script, &other).expect("keep");
        assert!(!folder(&allowlist).join(&other).exists());
        assert_eq!(read(&allowlist, "../shell-hooks-allowlist.json"), None);
    }
}
