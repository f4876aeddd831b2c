//! Whether git would change a file when it discards work (`git stash`, `git checkout -- .`,
//! `git restore`, `git reset --hard`), told from the repository's index as git itself tells it,
//! without running git (whose configuration a project controls): a tracked file whose size and
//! modification time are those its index entry holds, and that was not written in the same
//! moment as the index, is unchanged, so putting back the committed version changes nothing. A
//! tracked file that may have changed, and an untracked file where untracked files go too
//! (`stash -u`/`-a`), would be changed or taken away. What cannot be read counts as changed.

use std::path::{Path, PathBuf};

/// The largest index read; a bigger one is not read, and its files count as changed.
const INDEX_MAX: u64 = 64 * 1024 * 1024;

/// Whether discarding work in the repository holding `file` would change or remove it;
/// `untracked`: untracked files are discarded too. A file in no repository is not touched.
pub(super) fn at_risk(file: &Path, untracked: bool) -> bool {
    let Some((root, git_dir)) = repository_of(file) else {
        return false;
    };
    let Ok(relative) = file.strip_prefix(&root) else {
        return false;
    };
    let Some(relative) = relative.to_str() else {
        return true;
    };
    let index = git_dir.join("index");
    let Ok(meta) = std::fs::metadata(&index) else {
        // No index yet, every file untracked; or no git folder to read at all.
        return untracked || !git_dir.is_dir();
    };
    // Read only as a regular file of bounded size, never blocking on a FIFO or a device put
    // in its place.
    let Ok(bytes) = crate::ground::limits::read(&index, INDEX_MAX) else {
        return true;
    };
    let entry = [20, 32]
        .into_iter()
        .find_map(|hash| entry_of(&bytes, hash, relative.as_bytes()));
    match entry {
        None => true,
        Some(Entry::Untracked) => untracked,
        Some(Entry::Tracked(stat)) => changed(file, stat, meta.modified().ok()),
    }
}

/// The work tree and git folder of the repository `file` is in. A `.git` that is neither a
/// folder nor a small file naming one (a FIFO, a device, a link to either) gives a git folder
/// that cannot be read, so its files count as changed.
fn repository_of(file: &Path) -> Option<(PathBuf, PathBuf)> {
    file.ancestors().skip(1).find_map(|folder| {
        let dot_git = folder.join(".git");
        let meta = std::fs::metadata(&dot_git).ok()?;
        if meta.is_dir() {
            return Some((folder.to_path_buf(), dot_git));
        }
        // A worktree or a submodule: `gitdir: <folder>`.
        let linked = crate::ground::limits::read(&dot_git, 4096)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .and_then(|text| Some(text.trim().strip_prefix("gitdir:")?.trim().to_owned()))
            .map_or_else(|| dot_git.join("unreadable"), |linked| folder.join(linked));
        Some((folder.to_path_buf(), linked))
    })
}

/// What the index holds for a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Entry {
    /// No entry: the file is untracked.
    Untracked,
    /// Tracked, with the size and time recorded when it was last added or refreshed.
    Tracked(Stat),
}

/// The size and modification time an index entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stat {
    mtime: (u32, u32),
    size: u32,
}

/// The entry for `path` in the index `bytes` with object names of `hash` bytes; `None` when the
/// bytes do not read as an index of that kind.
fn entry_of(bytes: &[u8], hash: usize, path: &[u8]) -> Option<Entry> {
    let word = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
    };
    if bytes.get(..4)? != b"DIRC" {
        return None;
    }
    let version = word(4)?;
    if !(2..=4).contains(&version) {
        return None;
    }
    let count = word(8)?;
    let mut at = 12;
    let mut previous: Vec<u8> = Vec::new();
    for _ in 0..count {
        let start = at;
        let recorded = Stat {
            mtime: (word(at + 8)?, word(at + 12)?),
            size: word(at + 36)?,
        };
        at += 40 + hash;
        let flags = u16::from_be_bytes(bytes.get(at..at + 2)?.try_into().ok()?);
        at += 2;
        if version >= 3 && flags & 0x4000 != 0 {
            at += 2;
        }
        let stage = (flags >> 12) & 0x3;
        let name = if version == 4 {
            // The length of the previous name to drop, as git's varint, then the rest.
            let (drop, used) = varint(bytes.get(at..)?)?;
            at += used;
            let end = at + bytes.get(at..)?.iter().position(|b| *b == 0)?;
            let keep = previous.len().checked_sub(usize::try_from(drop).ok()?)?;
            previous.truncate(keep);
            previous.extend_from_slice(&bytes[at..end]);
            at = end + 1;
            previous.clone()
        } else {
            let end = at + bytes.get(at..)?.iter().position(|b| *b == 0)?;
            let name = bytes[at..end].to_vec();
            // Padded with 1 to 8 NULs to a multiple of 8 from the entry's start.
            at = start + (end - start + 8) / 8 * 8;
            name
        };
        if name == path {
            // A file in a conflict (stage 1 to 3) is changed by any discard.
            return Some(Entry::Tracked(if stage == 0 {
                recorded
            } else {
                Stat {
                    mtime: (0, 0),
                    size: u32::MAX,
                }
            }));
        }
    }
    Some(Entry::Untracked)
}

/// Git's variable-length number of index version 4, and how many bytes it took.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut value: u64 = 0;
    for (used, byte) in bytes.iter().enumerate().take(10) {
        if used > 0 {
            value = value.checked_add(1)?.checked_shl(7)?;
        }
        value |= u64::from(byte & 0x7f);
        if byte & 0x80 == 0 {
            return Some((value, used + 1));
        }
    }
    None
}

/// Whether `file` may differ from what its index entry `stat` records: another size or time,
/// or written no earlier than the index itself (git then compares contents).
fn changed(file: &Path, stat: Stat, index_time: Option<std::time::SystemTime>) -> bool {
    let Ok(meta) = std::fs::metadata(file) else {
        // Gone: putting it back takes nothing away.
        return false;
    };
    let Ok(since) = meta.modified().map(|time| {
        time.duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
    }) else {
        return true;
    };
    // The index keeps 32 bits of each; a size past 4 GB is kept truncated.
    #[allow(clippy::cast_possible_truncation)]
    let now = Stat {
        mtime: (since.as_secs() as u32, since.subsec_nanos()),
        size: meta.len() as u32,
    };
    let racy = index_time.is_none_or(|index| meta.modified().is_ok_and(|time| time >= index));
    now != stat || racy
}

#[cfg(test)]
mod tests {
    use std::process::Command;

    use super::at_risk;

    fn git(dir: &std::path::Path, args: &[&str]) {
        let out = Command::new("git")
            .args(["-c", "user.email=t@example.com", "-c", "user.name=t"])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    #[test]
    fn tracked_files_count_only_when_changed_and_untracked_ones_when_swept_too() {
        for version in ["2", "3", "4"] {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path();
            git(root, &["init", "-q"]);
            git(root, &["config", "index.version", version]);
            std::fs::create_dir_all(root.join(".claude")).unwrap();
            let tracked = root.join(".claude/settings.json");
            let untracked = root.join(".agents-rules.yaml");
            std::fs::write(&tracked, "{}").unwrap();
            git(root, &["add", "."]);
            git(root, &["commit", "-q", "-m", "x"]);
            std::fs::write(&untracked, "rules").unwrap();
            // Past the moment the index was written, so its entry can be trusted.
            std::thread::sleep(std::time::Duration::from_millis(20));
            git(root, &["update-index", "--really-refresh"]);
            assert!(!at_risk(&tracked, true), "index {version}: clean");
            assert!(!at_risk(&untracked, false), "index {version}");
            assert!(at_risk(&untracked, true), "index {version}");
            std::fs::write(&tracked, "{\"hooks\": {}}").unwrap();
            assert!(at_risk(&tracked, false), "index {version}: changed");
            // An index that is not a regular file is never read (a FIFO would block).
            let index = root.join(".git/index");
            std::fs::remove_file(&index).unwrap();
            let made = std::process::Command::new("mkfifo")
                .arg(&index)
                .status()
                .unwrap();
            assert!(made.success());
            assert!(at_risk(&tracked, false), "index {version}: a FIFO");
            let outside = tempfile::tempdir().unwrap();
            assert!(!at_risk(&outside.path().join("file"), true));
        }
    }
}
