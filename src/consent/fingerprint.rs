//! The content pin: which file a command runs (its "script") and that file's sha256.

use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::ground::hook_script::script_word_at;
use crate::ground::limits;
use crate::ground::paths::expand_tilde;

/// A digest for messages: `sha256:` and its first 12 hex digits; `-` when there is none.
pub(crate) fn short_sha256(sha256: Option<&str>) -> String {
    sha256.map_or_else(
        || "-".to_owned(),
        |sha| format!("sha256:{}", sha.get(..12).unwrap_or(sha)),
    )
}

/// The file the pin covers, resolved as the hook's exec will: `script_word` with `~` expanded;
/// the program (first word) without a `/` is looked up on `PATH`; any other relative path is taken
/// from `base`, the hook's working directory. `None` when the command has no such word, or a
/// program is not on `PATH`.
pub fn script_path(command: &str, base: &Path) -> Option<PathBuf> {
    locate(command, base).map(|(path, _)| path)
}

/// Whether the script a command names can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScriptState {
    /// It exists and can run (executable when it is the program, readable when an interpreter
    /// reads it).
    Ok,
    /// It does not exist (or the program is not on `PATH`).
    Missing,
    /// It exists but cannot run: no exec bit on the program, or an unreadable script.
    NotExecutable,
    /// Something other than a regular file stands there (a FIFO, a device, a directory).
    NotAFile,
    /// Larger than a script is allowed to be ([`limits::SCRIPT_MAX`]).
    TooLarge,
}

impl ScriptState {
    /// The name used in output.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Missing => "missing",
            Self::NotExecutable => "not executable",
            Self::NotAFile => "not a regular file",
            Self::TooLarge => "too large",
        }
    }
}

/// The state of the script `command` names (see [`script_path`]).
pub(crate) fn script_state(command: &str, base: &Path) -> ScriptState {
    match locate(command, base) {
        Some((path, is_program)) => path_state(&path, is_program),
        None => ScriptState::Missing,
    }
}

/// The state of `path`: it must be executable when it is the program, readable when an
/// interpreter reads it.
pub(crate) fn path_state(path: &Path, is_program: bool) -> ScriptState {
    use std::os::unix::fs::PermissionsExt as _;
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() > limits::SCRIPT_MAX => ScriptState::TooLarge,
        Ok(meta) if meta.is_file() => {
            let runnable = if is_program {
                meta.permissions().mode() & 0o111 != 0
            } else {
                limits::open_regular(path).is_ok()
            };
            if runnable {
                ScriptState::Ok
            } else {
                ScriptState::NotExecutable
            }
        }
        Ok(_) => ScriptState::NotAFile,
        Err(_) => ScriptState::Missing,
    }
}

/// The script's path, and whether it is the program itself (rather than an interpreter's input).
fn locate(command: &str, base: &Path) -> Option<(PathBuf, bool)> {
    let words = shlex::split(command)?;
    let (index, word) = script_word_at(&words)?;
    let expanded = expand_tilde(word);
    let path = Path::new(expanded.as_ref());
    if index == 0 && !expanded.contains('/') {
        which::which(path).ok().map(|p| (p, true))
    } else {
        // Hashed as the kernel will open it (a `..` after a symlink is the link's parent); the
        // allowlist records it normalised (see `consent::approval_for`).
        Some((base.join(path), index == 0))
    }
}

/// The sha256 of the file's bytes, as lowercase hex. Symlinks are followed: the pin covers the
/// content that runs. Only a regular file of at most `limits::SCRIPT_MAX` bytes is read
/// (see `limits::open_regular`), and a signal that asks the program to stop ends the reading.
pub fn sha256_file(path: &Path) -> io::Result<String> {
    let file = limits::open_regular(path)?;
    if file.metadata()?.len() > limits::SCRIPT_MAX {
        return Err(limits::too_large(limits::SCRIPT_MAX));
    }
    let mut reader = file.take(limits::SCRIPT_MAX + 1);
    let mut hasher = Sha256::new();
    // On the stack: a zeroed heap buffer would cost page faults before the first byte is read.
    let mut buf = [0_u8; 8 * 1024];
    let mut total: u64 = 0;
    loop {
        if crate::ground::interrupt::received().is_some() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
        }
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                total += n as u64;
                if total > limits::SCRIPT_MAX {
                    return Err(limits::too_large(limits::SCRIPT_MAX));
                }
                hasher.update(&buf[..n]);
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(crate::ground::digest::hex(&hasher.finalize()))
}

/// Whether a failed [`sha256_file`] means the file is there but must not be used as a script:
/// not a regular file, or too large. (A missing or unreadable file is judged by consent.)
pub(crate) fn is_refused(err: &io::Error) -> bool {
    matches!(
        err.kind(),
        io::ErrorKind::InvalidInput | io::ErrorKind::FileTooLarge
    )
}

#[cfg(test)]
mod tests {
    use super::{ScriptState, script_state, sha256_file};
    use crate::ground::digest::hex;
    use crate::ground::hook_script::script_word;
    use sha2::{Digest as _, Sha256};
    use std::os::unix::fs::PermissionsExt as _;

    #[test]
    fn script_word_follows_hermes() {
        let cases = [
            ("/bin/echo hi", Some("/bin/echo")),
            ("nice -n 10 /p/h.sh", Some("/p/h.sh")),
            ("/usr/bin/env bash /p/h.sh", Some("/p/h.sh")),
            ("my-binary --verbose", Some("my-binary")),
            ("python3 -c 'print(1)'", Some("python3")),
            ("python3 hooks/Guard.PY", Some("hooks/Guard.PY")),
            ("~/x/guard --strict", Some("~/x/guard")),
            ("'/p/with space/h.sh' a", Some("/p/with space/h.sh")),
            ("python3 'unterminated", None),
            ("", None),
        ];
        for (command, want) in cases {
            assert_eq!(script_word(command).as_deref(), want, "{command}");
        }
    }

    #[test]
    fn sha256_matches_known_digest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"test").unwrap();
        assert_eq!(
            sha256_file(&path).unwrap(),
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
        );
        assert_eq!(hex(&Sha256::digest(b"test")), sha256_file(&path).unwrap());
    }

    #[test]
    fn script_states() {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path();
        std::fs::write(base.join("plain.sh"), "echo").unwrap();
        std::fs::write(base.join("run.sh"), "echo").unwrap();
        std::fs::set_permissions(base.join("run.sh"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
        assert_eq!(script_state("./run.sh --x", base), ScriptState::Ok);
        assert_eq!(script_state("./plain.sh", base), ScriptState::NotExecutable);
        assert_eq!(
            script_state("sh plain.sh", base),
            ScriptState::Ok,
            "read by an interpreter"
        );
        assert_eq!(script_state("./gone.sh", base), ScriptState::Missing);
        assert_eq!(
            script_state("no-such-program-4711", base),
            ScriptState::Missing
        );
        assert_eq!(script_state("sh", base), ScriptState::Ok);
    }
}
