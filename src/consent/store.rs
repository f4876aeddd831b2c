//! The allowlist file, Hermes-compatible: read tolerantly (BOM, unknown keys and entries kept),
//! written read-modify-write under an exclusive lock on `<file>.lock`, atomically (temporary file
//! in the same folder, flushed, renamed) with mode 0600, in the bytes Python's
//! `json.dumps(indent=2, sort_keys=True)` writes.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use crate::paths::lock_path;

/// Why the allowlist could not be used.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file exists but is not an allowlist; it is never overwritten.
    #[error("{path}: not a valid allowlist ({reason}); fix or remove it, it is left untouched", path = .path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Reading, locking or writing failed.
    #[error("{action} {path}: {source}", path = .path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
}

/// One approval to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approval {
    /// Canonical event name.
    pub event: String,
    /// The command exactly as declared.
    pub command: String,
    /// The resolved script, when there is one.
    pub script: Option<PathBuf>,
    /// The script's sha256, when it could be read.
    pub sha256: Option<String>,
    /// The script's mtime (ISO 8601 UTC), when it exists.
    pub mtime: Option<String>,
}

/// The allowlist document.
#[derive(Clone, Debug, PartialEq)]
pub struct Allowlist {
    root: Map<String, Value>,
}

impl Default for Allowlist {
    fn default() -> Self {
        let mut root = Map::new();
        root.insert("approvals".to_owned(), Value::Array(Vec::new()));
        Self { root }
    }
}

impl Allowlist {
    /// Parses the file's bytes (a UTF-8 BOM is tolerated). An empty file is an empty allowlist.
    pub fn parse(bytes: &[u8]) -> Result<Self, String> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self::default());
        }
        let value = crate::pyjson::from_slice(bytes).map_err(|err| err.to_string())?;
        let Value::Object(mut root) = value else {
            return Err("the top level is not a JSON object".to_owned());
        };
        match root.get("approvals") {
            None => {
                root.insert("approvals".to_owned(), Value::Array(Vec::new()));
            }
            Some(Value::Array(_)) => {}
            Some(_) => return Err("\"approvals\" is not a list".to_owned()),
        }
        Ok(Self { root })
    }

    fn approvals(&self) -> &Vec<Value> {
        match self.root.get("approvals") {
            Some(Value::Array(list)) => list,
            _ => unreachable!("parse and default always hold an approvals list"),
        }
    }

    fn approvals_mut(&mut self) -> &mut Vec<Value> {
        match self.root.get_mut("approvals") {
            Some(Value::Array(list)) => list,
            _ => unreachable!("parse and default always hold an approvals list"),
        }
    }

    /// The entries that are JSON objects (others are kept but not read).
    pub fn entries(&self) -> impl Iterator<Item = &Map<String, Value>> {
        self.approvals().iter().filter_map(Value::as_object)
    }

    /// The approval of `(event, command)`, if any (the last one, should there be several).
    pub fn find(&self, event: &str, command: &str) -> Option<&Map<String, Value>> {
        self.entries()
            .filter(|e| is_entry_for(e, event, command))
            .last()
    }

    /// Records an approval: any entry for the same pair is replaced, and the new one goes last.
    pub fn approve(&mut self, approval: &Approval, approved_at: &str) {
        self.approvals_mut().retain(|v| {
            !v.as_object()
                .is_some_and(|e| is_entry_for(e, &approval.event, &approval.command))
        });
        let mut entry = Map::new();
        entry.insert("approved_at".to_owned(), Value::from(approved_at));
        entry.insert("command".to_owned(), Value::from(approval.command.as_str()));
        entry.insert("event".to_owned(), Value::from(approval.event.as_str()));
        if let Some(script) = &approval.script {
            entry.insert(
                "script".to_owned(),
                Value::from(script.to_string_lossy().as_ref()),
            );
        }
        entry.insert(
            "script_mtime_at_approval".to_owned(),
            approval.mtime.as_deref().map_or(Value::Null, Value::from),
        );
        if let Some(sha) = &approval.sha256 {
            entry.insert("script_sha256".to_owned(), Value::from(sha.as_str()));
        }
        self.approvals_mut().push(Value::Object(entry));
    }

    /// Adds the pin to an existing approval that has none (trust on first use). Returns whether an
    /// entry was pinned.
    pub fn pin(&mut self, event: &str, command: &str, script: &Path, sha256: &str) -> bool {
        let entry = self
            .approvals_mut()
            .iter_mut()
            .filter_map(Value::as_object_mut)
            .filter(|e| is_entry_for(e, event, command))
            .last();
        match entry {
            // No hash yet: missing, null or empty.
            Some(entry)
                if entry
                    .get("script_sha256")
                    .and_then(Value::as_str)
                    .is_none_or(str::is_empty) =>
            {
                entry.insert(
                    "script".to_owned(),
                    Value::from(script.to_string_lossy().as_ref()),
                );
                entry.insert("script_sha256".to_owned(), Value::from(sha256));
                true
            }
            _ => false,
        }
    }

    /// Removes the approvals of `command` (for one event, or all); returns how many.
    pub fn revoke(&mut self, command: &str, event: Option<&str>) -> usize {
        let before = self.approvals().len();
        self.approvals_mut().retain(|v| {
            !v.as_object().is_some_and(|e| {
                e.get("command").and_then(Value::as_str) == Some(command)
                    && event.is_none_or(|ev| e.get("event").and_then(Value::as_str) == Some(ev))
            })
        });
        before - self.approvals().len()
    }

    /// The file's bytes as Hermes writes them (`json.dumps(data, indent=2, sort_keys=True)`):
    /// 2-space indent, keys sorted at every level, non-ASCII as `\uXXXX`, no trailing newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::pyjson::to_indented_sorted(&Value::Object(self.root.clone()))
    }
}

fn is_entry_for(entry: &Map<String, Value>, event: &str, command: &str) -> bool {
    entry.get("event").and_then(Value::as_str) == Some(event)
        && entry.get("command").and_then(Value::as_str) == Some(command)
}

/// Reads the allowlist without locking (writes are atomic renames, so a reader never sees half a
/// file). `Ok(None)` when the file does not exist.
pub fn read(path: &Path) -> Result<Option<Allowlist>, StoreError> {
    match crate::limits::read(path, crate::limits::ALLOWLIST_MAX) {
        Ok(bytes) => Allowlist::parse(&bytes)
            .map(Some)
            .map_err(|reason| StoreError::Corrupt {
                path: path.to_path_buf(),
                reason,
            }),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(StoreError::Io {
            action: "cannot read",
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Read-modify-write under the lock. `change` returns whether it changed anything; nothing is
/// written when it did not, and a corrupt file is never replaced.
pub fn update<R>(
    path: &Path,
    change: impl FnOnce(&mut Allowlist) -> (bool, R),
) -> Result<R, StoreError> {
    locked(path, || {
        let mut list = read(path)?.unwrap_or_default();
        let (changed, result) = change(&mut list);
        if changed {
            replace(path, &list.to_bytes())?;
        }
        Ok(result)
    })
}

/// The longest a writer waits for another to release the lock before it gives up with an error.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// Runs `body` holding the exclusive lock of the state file `path` (`<path>.lock`, next to it;
/// the folder is created mode 0700 when missing). The lock ends with the process, however it
/// ends. The lock file is never followed through a symlink (a dangling one would create its
/// target), must be a regular file, and is waited for at most [`LOCK_WAIT`], or until a signal
/// asks the program to stop.
pub fn locked<R>(
    path: &Path,
    body: impl FnOnce() -> Result<R, StoreError>,
) -> Result<R, StoreError> {
    let io_err = |action, source| StoreError::Io {
        action,
        path: path.to_path_buf(),
        source,
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
        if crate::exec::interrupt::received().is_some() {
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
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let dir = folder_of(path);
    let prefix = temp_prefix(path);
    remove_stale_temps(dir, &prefix);
    write_atomic(dir, path, &prefix, bytes).map_err(|source| StoreError::Io {
        action: "cannot write",
        path: path.to_path_buf(),
        source,
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
        || "allowlist".into(),
        |name| name.to_string_lossy().into_owned(),
    );
    format!(".{name}.")
}

/// Under the lock no other write is under way, so any temporary file left here is from a writer
/// that was killed mid-write: it never became the allowlist, and goes.
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

fn write_atomic(dir: &Path, path: &Path, prefix: &str, bytes: &[u8]) -> io::Result<()> {
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

#[cfg(test)]
mod tests {
    use super::{Allowlist, Approval, read, update};
    use std::os::unix::fs::PermissionsExt as _;
    use std::path::PathBuf;

    fn approval(event: &str, command: &str) -> Approval {
        Approval {
            event: event.to_owned(),
            command: command.to_owned(),
            script: Some(PathBuf::from("/h/g.sh")),
            sha256: Some("ab".to_owned()),
            mtime: None,
        }
    }

    #[test]
    fn writes_like_hermes() {
        let mut list =
            Allowlist::parse(br#"{"zeta": {"b": 1, "a": [2]}, "approvals": []}"#).unwrap();
        list.approve(&approval("pre_tool_call", "g.sh"), "2026-04-17T09:30:00Z");
        let text = String::from_utf8(list.to_bytes()).unwrap();
        assert_eq!(
            text,
            "{\n  \"approvals\": [\n    {\n      \"approved_at\": \"2026-04-17T09:30:00Z\",\n      \"command\": \"g.sh\",\n      \"event\": \"pre_tool_call\",\n      \"script\": \"/h/g.sh\",\n      \"script_mtime_at_approval\": null,\n      \"script_sha256\": \"ab\"\n    }\n  ],\n  \"zeta\": {\n    \"a\": [\n      2\n    ],\n    \"b\": 1\n  }\n}"
        );
    }

    #[test]
    fn reapproval_replaces_and_moves_last() {
        let mut list = Allowlist::default();
        list.approve(&approval("pre_tool_call", "a"), "t1");
        list.approve(&approval("pre_tool_call", "b"), "t1");
        list.approve(&approval("pre_tool_call", "a"), "t2");
        let commands: Vec<_> = list
            .entries()
            .map(|e| e["command"].as_str().unwrap())
            .collect();
        assert_eq!(commands, ["b", "a"]);
        assert_eq!(
            list.find("pre_tool_call", "a").unwrap()["approved_at"],
            "t2"
        );
    }

    #[test]
    fn unknown_entries_survive() {
        let mut list =
            Allowlist::parse(b"\xEF\xBB\xBF{\"approvals\": [42, {\"command\": \"x\", \"event\": \"e\", \"extra\": true}]}")
                .unwrap();
        assert_eq!(list.revoke("x", Some("other")), 0);
        assert_eq!(list.revoke("x", None), 1);
        assert_eq!(
            String::from_utf8(list.to_bytes()).unwrap(),
            "{\n  \"approvals\": [\n    42\n  ]\n}"
        );
    }

    #[test]
    fn pin_only_fills_a_missing_hash() {
        for entry in [
            r#"{"command": "c", "event": "e"}"#,
            r#"{"command": "c", "event": "e", "script_sha256": null}"#,
            r#"{"command": "c", "event": "e", "script_sha256": ""}"#,
        ] {
            let mut list =
                Allowlist::parse(format!(r#"{{"approvals": [{entry}]}}"#).as_bytes()).unwrap();
            assert!(
                list.pin("e", "c", std::path::Path::new("/s"), "ff"),
                "{entry}"
            );
            assert!(!list.pin("e", "c", std::path::Path::new("/s"), "00"));
            assert_eq!(list.find("e", "c").unwrap()["script_sha256"], "ff");
        }
    }

    #[test]
    fn corrupt_files_are_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.json");
        std::fs::write(&path, "{not json").unwrap();
        let err = update(&path, |list| {
            list.approve(&approval("e", "c"), "t");
            (true, ())
        })
        .unwrap_err();
        assert!(err.to_string().contains("left untouched"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{not json");
        for bad in ["[]", "{\"approvals\": 1}"] {
            assert!(Allowlist::parse(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn update_creates_the_file_0600() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("home").join("a.json");
        assert!(read(&path).unwrap().is_none());
        update(&path, |list| {
            list.approve(&approval("e", "c"), "t");
            (true, ())
        })
        .unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert!(read(&path).unwrap().unwrap().find("e", "c").is_some());
        let untouched = std::fs::metadata(&path).unwrap().modified().unwrap();
        update(&path, |_| (false, ())).unwrap();
        assert_eq!(
            std::fs::metadata(&path).unwrap().modified().unwrap(),
            untouched
        );
    }

    #[test]
    fn a_write_clears_temporary_files_of_killed_writers_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shell-hooks-allowlist.json");
        let stale = dir.path().join(".shell-hooks-allowlist.json.abc123.tmp");
        let other = dir.path().join(".other.json.abc123.tmp");
        std::fs::write(&stale, "{\"appr").unwrap();
        std::fs::write(&other, "x").unwrap();
        update(&path, |list| {
            list.approve(&approval("on_session_start", "a.sh"), "t");
            (true, ())
        })
        .unwrap();
        assert!(!stale.exists(), "left by a killed writer");
        assert!(other.exists(), "not ours");
    }
}
