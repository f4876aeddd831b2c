//! The allowlist file, Hermes-compatible: read tolerantly (BOM, unknown keys and entries kept),
//! written in the bytes Python's `json.dumps(indent=2, sort_keys=True)` writes, through
//! [`crate::ground::statefile`] (locked read-modify-write, atomic replace, mode 0600).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use serde_json::{Map, Value};

use crate::ground::stamp::Stamp;
use crate::ground::statefile::{self, FileKind};

const KIND: FileKind = FileKind::Allowlist;

/// The key an Agent Hooks approval keeps its HOOK.md's record under.
pub(crate) const MANIFEST_KEY: &str = "hook_md";

/// Why the allowlist could not be used (the state-file error, naming the allowlist).
pub(crate) use crate::ground::statefile::StateError as StoreError;

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
    /// What an Agent Hooks approval remembers of its HOOK.md (see [`super::vanished`]).
    pub manifest: Option<Value>,
}

/// The allowlist document.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Allowlist {
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
    pub(crate) fn parse(bytes: &[u8]) -> Result<Self, String> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(Self::default());
        }
        let value = crate::ground::pyjson::from_slice(bytes).map_err(|err| err.to_string())?;
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
    pub(crate) fn entries(&self) -> impl Iterator<Item = &Map<String, Value>> {
        self.approvals().iter().filter_map(Value::as_object)
    }

    /// The approval of `(event, command)`, if any (the last one, should there be several).
    pub(crate) fn find(&self, event: &str, command: &str) -> Option<&Map<String, Value>> {
        self.entries()
            .filter(|e| is_entry_for(e, event, command))
            .last()
    }

    /// Records an approval: any entry for the same pair is replaced, and the new one goes last.
    pub(crate) fn approve(&mut self, approval: &Approval, approved_at: &str) {
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
        if let Some(manifest) = &approval.manifest {
            entry.insert(MANIFEST_KEY.to_owned(), manifest.clone());
        }
        self.approvals_mut().push(Value::Object(entry));
    }

    /// Adds the pin to an existing approval that has none (trust on first use). Returns whether an
    /// entry was pinned.
    pub(crate) fn pin(&mut self, event: &str, command: &str, script: &Path, sha256: &str) -> bool {
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
    pub(crate) fn revoke(&mut self, command: &str, event: Option<&str>) -> usize {
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
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        crate::ground::pyjson::to_indented_sorted(&self.root)
    }
}

fn is_entry_for(entry: &Map<String, Value>, event: &str, command: &str) -> bool {
    entry.get("event").and_then(Value::as_str) == Some(event)
        && entry.get("command").and_then(Value::as_str) == Some(command)
}

/// Reads the allowlist without locking (writes are atomic renames, so a reader never sees half a
/// file). `Ok(None)` when the file does not exist.
pub(crate) fn read(path: &Path) -> Result<Option<Allowlist>, StoreError> {
    let Some(bytes) = statefile::read(KIND, path)? else {
        return Ok(None);
    };
    Allowlist::parse(&bytes)
        .map(Some)
        .map_err(|reason| StoreError::Corrupt {
            kind: KIND,
            path: path.to_path_buf(),
            reason,
        })
}

/// The allowlist as a process that answers many events (`serve`) last read it: read again only
/// when its stamp changed, or while a change could still leave the stamp as it is
/// ([`Stamp::racy`]). An approval
/// or a revocation (written by renaming a new file over it) or an edit in place always changes
/// the stamp, so a decision never rests on an allowlist older than the file.
#[derive(Debug, Default)]
pub(crate) struct KeptList {
    last: Option<(PathBuf, Stamp, Arc<Allowlist>)>,
}

impl KeptList {
    /// What [`read`] gives for `path` now, shared with the read it was kept from.
    pub(crate) fn read(&mut self, path: &Path) -> Result<Option<Arc<Allowlist>>, StoreError> {
        // Before the file is looked at: a change after this moment gives it a later stamp.
        let now = SystemTime::now();
        let before = match std::fs::metadata(path) {
            Ok(meta) => Some(Stamp::from(&meta)),
            // Not there: what reading it would give, without looking twice more.
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                self.last = None;
                return Ok(None);
            }
            Err(_) => None,
        };
        if let (Some(stamp), Some((kept_path, kept_stamp, list))) = (&before, &self.last)
            && kept_path == path
            && kept_stamp == stamp
        {
            return Ok(Some(Arc::clone(list)));
        }
        self.last = None;
        let read = read(path)?.map(Arc::new);
        let after = Stamp::of(path);
        if let (Some(list), Some(stamp)) = (&read, before)
            && after.as_ref() == Some(&stamp)
            && !stamp.racy(now)
        {
            self.last = Some((path.to_path_buf(), stamp, Arc::clone(list)));
        }
        Ok(read)
    }
}

/// Read-modify-write under the lock. `change` returns whether it changed anything; nothing is
/// written when it did not, and a corrupt file is never replaced.
pub(crate) fn update<R>(
    path: &Path,
    change: impl FnOnce(&mut Allowlist) -> (bool, R),
) -> Result<R, StoreError> {
    statefile::locked(KIND, path, || {
        let mut list = read(path)?.unwrap_or_default();
        let (changed, result) = change(&mut list);
        if changed {
            statefile::replace(KIND, path, &list.to_bytes())?;
        }
        Ok(result)
    })
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
            manifest: None,
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
