//! The state files this tool writes (the consent allowlist, the loop guard's state): read without
//! a lock (writes are atomic renames, so a reader never sees half a file), changed read-modify-
//! write under an exclusive lock on `<file>.lock`, and replaced atomically (a temporary file in
//! the same folder, flushed, renamed over it) with mode 0600. Errors name which file failed.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::ground::paths::lock_path;

/// Which state file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// `shell-hooks-allowlist.json`, shared with Hermes.
    Allowlist,
    /// The quality-gate loop guard's counts.
    GateState,
    /// What was said to a person about guards that did not run, per session.
    ToldState,
    /// The audit log kept by default (its lock is taken only to start it anew).
    AuditLog,
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Allowlist => "allowlist",
            Self::GateState => "loop guard state file",
            Self::ToldState => "told-guards state file",
            Self::AuditLog => "audit log",
        })
    }
}

/// Why a state file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// The file exists but does not hold what it should; it is never overwritten.
    #[error("{path}: not a valid {kind} ({reason}); fix or remove it, it is left untouched", path = .path.display())]
    Corrupt {
        /// Which of the files this tool keeps (the allowlist, the loop guard's state).
        kind: FileKind,
        /// Where it is.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading, locking or writing failed.
    #[error("{action} the {kind} {path}: {error}", path = .path.display())]
    Io {
        /// Which of the files this tool keeps.
        kind: FileKind,
        /// What was being done ("cannot read", "cannot lock", ...).
        action: &'static str,
        /// Where it is.
        path: PathBuf,
        /// What the system said (in the message, so it is not repeated as a cause).
        error: io::Error,
    },
}

/// A state kept per session (`{"sessions": {...}}`), or an empty one when the file does not
/// exist; a file that is not such JSON is corrupt (and never overwritten).
pub(crate) fn sessions(kind: FileKind, path: &Path) -> Result<serde_json::Value, StateError> {
    let Some(bytes) = read(kind, path)? else {
        return Ok(serde_json::json!({"sessions": {}}));
    };
    let state: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|err| corrupt(kind, path, &err))?;
    if state["sessions"].is_object() {
        Ok(state)
    } else {
        Err(corrupt(kind, path, &"no \"sessions\" object"))
    }
}

/// Replaces the file with `state`, pretty-printed (see [`replace`]).
pub(crate) fn replace_json(
    kind: FileKind,
    path: &Path,
    state: &serde_json::Value,
) -> Result<(), StateError> {
    let mut bytes = serde_json::to_vec_pretty(state).map_err(|err| corrupt(kind, path, &err))?;
    bytes.push(b'\n');
    replace(kind, path, &bytes)
}

fn corrupt(kind: FileKind, path: &Path, reason: &dyn fmt::Display) -> StateError {
    StateError::Corrupt {
        kind,
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

/// The file's bytes (a regular file, capped), or `None` when it does not exist.
pub(crate) fn read(kind: FileKind, path: &Path) -> Result<Option<Vec<u8>>, StateError> {
    match crate::ground::limits::read(path, crate::ground::limits::ALLOWLIST_MAX) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(StateError::Io {
            kind,
            action: "cannot read",
            path: path.to_path_buf(),
            error,
        }),
    }
}

/// The longest a writer waits for another to release the lock before it gives up with an error.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(10);

/// Runs `body` holding the exclusive lock of the state file `path` (`<path>.lock`, next to it;
/// the folder is created mode 0700 when missing). The lock ends with the process, however it
/// ends. The lock file is never followed through a symlink (a dangling one would create its
/// target), must be a regular file, and is waited for at most [`LOCK_WAIT`], or until a signal
/// asks the program to stop.
pub(crate) fn locked<R>(
    kind: FileKind,
    path: &Path,
    body: impl FnOnce() -> Result<R, StateError>,
) -> Result<R, StateError> {
    let io_err = |action, error| StateError::Io {
        kind,
        action,
        path: path.to_path_buf(),
        error,
    };
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder_of(path))
        .map_err(|e| io_err("cannot create the folder of", e))?;
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .custom_flags(lock_open_flags())
        .open(lock_path(path))
        .map_err(|e| io_err("cannot open the lock of", e))?;
    if !lock.metadata().is_ok_and(|m| m.is_file()) {
        let err = io::Error::new(
            io::ErrorKind::InvalidInput,
            "the lock is not a regular file",
        );
        return Err(io_err("cannot lock", err));
    }
    wait_for(&lock).map_err(|e| io_err("cannot lock", e))?;
    body()
}

/// `O_NOFOLLOW | O_NONBLOCK`: a symlink is refused, a FIFO never blocks the open.
fn lock_open_flags() -> i32 {
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    i32::try_from(flags.bits()).unwrap_or(0)
}

/// Takes the lock, waiting while another process holds it: at most [`LOCK_WAIT`], and not
/// past a signal that asks the program to stop.
fn wait_for(lock: &File) -> io::Result<()> {
    let until = Instant::now() + LOCK_WAIT;
    loop {
        match lock.try_lock() {
            Ok(()) => return Ok(()),
            Err(fs::TryLockError::Error(err)) => return Err(err),
            Err(fs::TryLockError::WouldBlock) => {}
        }
        if crate::ground::interrupt::received().is_some() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
        }
        if Instant::now() >= until {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("another process has held it for {}s", LOCK_WAIT.as_secs()),
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Replaces the state file `path` with `bytes` atomically (a temporary file in the same folder,
/// flushed, renamed over it; mode 0600). Call it under [`locked`].
pub(crate) fn replace(kind: FileKind, path: &Path, bytes: &[u8]) -> Result<(), StateError> {
    let dir = folder_of(path);
    let prefix = temp_prefix(path);
    remove_stale_temps(dir, &prefix);
    write_atomic(dir, path, &prefix, bytes).map_err(|error| StateError::Io {
        kind,
        action: "cannot write",
        path: path.to_path_buf(),
        error,
    })
}

fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Temporary files of a write start with this (and end in `.tmp`).
fn temp_prefix(path: &Path) -> String {
    let name = path.file_name().map_or_else(
        || "state".into(),
        |name| name.to_string_lossy().into_owned(),
    );
    format!(".{name}.")
}

/// Under the lock no other write is under way, so any temporary file left here is from a writer
/// that was killed mid-write: it never became the file, and goes.
fn remove_stale_temps(dir: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(prefix) && name.ends_with(".tmp") {
            let _ = fs::remove_file(entry.path());
        }
    }
}

pub(crate) fn write_atomic(dir: &Path, path: &Path, prefix: &str, bytes: &[u8]) -> io::Result<()> {
    let mut tmp = tempfile::Builder::new()
        .prefix(prefix)
        .suffix(".tmp")
        .tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|err| err.error)?;
    // Make the rename itself durable; not every filesystem supports syncing a folder.
    if let Ok(folder) = File::open(dir) {
        let _ = folder.sync_all();
    }
    Ok(())
}
