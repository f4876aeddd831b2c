//! config.yaml's parse, kept by content. Parsing Hermes's whole configuration costs most of a `run`
//! when the file is large, yet the readers use only two top-level entries (`hooks`,
//! `hooks_auto_accept`), and a command about one event only that event's lists. What they use, as
//! the one reader gives it (values, lines, repeated keys), is written to
//! `<cache folder>/hermes-hooks/parsed/<name>.json`, where the name is the BLAKE3 hash of the
//! file's bytes, of this binary and of the event (BLAKE3 rather than sha-256, whose check of the
//! processor would cost every start a few more `cpuid` instructions, each a trip to the hypervisor
//! on a virtual machine, while the keyed check below needs BLAKE3 anyway): a later command with the
//! same file, binary and event reads it back instead of parsing. A memo can only ever stand for the
//! bytes it was made from (other bytes give another name, and the memo repeats its name inside), so
//! the file is read exactly as before. A memo that is missing, malformed, not the user's own or
//! writable by others is ignored and made again; a cache folder that cannot be written costs
//! nothing but the parse. Memos older than a week go when another is written, in a sweep made at
//! most once an hour (one still in use is made again by the next command). Other readers (rules
//! files) keep their own reading in the same folder, in a compact binary form (`<name>.body`),
//! named by what it depends on.
//!
//! Every memo ends with a keyed check (BLAKE3 keyed with 32 random bytes kept, mode 0600, in
//! `<data folder>/hermes-hooks/memo.key`, outside the cache folder): a memo rewritten by anything
//! that does not hold the key is not believed, and is made again. A program running as the user
//! can read the key, so this stops a rewrite by whatever writes into the cache folder, not one
//! made on purpose with the key in hand; `doctor` compares every memo with its file.

use std::fs;
use std::io::Write as _;
use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Deserialize, Serialize};

use super::Event;
use super::yaml::pyyaml::{Mapping, Node, Value};

/// The top-level keys the readers of config.yaml look at.
pub(crate) const KEPT_KEYS: [&str; 2] = ["hooks", "hooks_auto_accept"];
/// Changes whenever what a memo holds, or how it is written, changes.
const FORMAT: &[u8] = b"hermes-hooks parse memo 2\0";
/// How a memo kept by [`Slot::keep_body`] is named: `<name>.body`.
const BODY_EXTENSION: &str = "body";
/// A memo this old is removed when another is written.
const UNUSED_FOR: Duration = Duration::from_secs(7 * 24 * 3600);
/// How often the cache folder is swept of old memos.
const SWEEP_EVERY: Duration = Duration::from_secs(3600);
/// The file whose time says when the cache folder was last swept.
const SWEPT_FILE: &str = ".swept";
/// The key's file, in `<data folder>/hermes-hooks/`.
const KEY_FILE: &str = "memo.key";
/// How a memo ends: a line break and the check in hex.
const CHECK_LEN: usize = 1 + 2 * blake3::OUT_LEN;

/// What a memo file holds.
#[derive(Serialize, Deserialize)]
struct Memo {
    /// Its own name: a file copied or renamed to another name is not believed.
    name: String,
    /// What [`kept`] keeps of the top-level mapping (empty for an empty file).
    top: Mapping,
}

/// Where the memo of one file's bytes lives, when there is a cache folder.
pub(crate) struct Slot {
    folder: PathBuf,
    name: String,
}

impl Slot {
    /// The memo's place for `bytes` read for `only` (`None`: every event); `None` without a
    /// cache folder, or when this binary cannot be told apart from another build (its own file
    /// cannot be statted).
    pub(crate) fn of(bytes: &[u8], only: Option<Event>) -> Option<Self> {
        Self::named(FORMAT, |hash| {
            hash.update(only.map_or("", Event::name).as_bytes());
            hash.update(b"\0");
            hash.update(bytes);
        })
    }

    /// The memo's place for another reader's parse (`kind` names the reader and its format;
    /// `parts` are everything the parse depends on besides this binary); `None` as for
    /// [`Self::of`].
    pub(crate) fn keyed(kind: &[u8], parts: &[&[u8]]) -> Option<Self> {
        Self::named(kind, |hash| {
            for part in parts {
                hash.update(&u64::try_from(part.len()).unwrap_or(u64::MAX).to_le_bytes());
                hash.update(part);
            }
        })
    }

    /// The slot named by the hash of `kind`, this binary, and what `rest` adds.
    fn named(kind: &[u8], rest: impl FnOnce(&mut blake3::Hasher)) -> Option<Self> {
        // Unit tests never touch the user's cache; the integration tests, each with a home of
        // its own, test the memo.
        // Asked once per process: the cache folder (the user's home, the environment) and this
        // binary's identity (a stat) are the same for every slot.
        static PLACE: std::sync::OnceLock<Option<(PathBuf, [u8; 40])>> = std::sync::OnceLock::new();
        if cfg!(test) {
            return None;
        }
        let (folder, identity) = PLACE
            .get_or_init(|| {
                let folder = directories::BaseDirs::new()?
                    .cache_dir()
                    .join("hermes-hooks")
                    .join("parsed");
                Some((folder, binary_identity()?))
            })
            .clone()?;
        let mut hash = blake3::Hasher::new();
        hash.update(kind);
        hash.update(&identity);
        rest(&mut hash);
        let name = crate::ground::digest::hex(hash.finalize().as_bytes());
        Some(Self { folder, name })
    }

    /// What [`Self::keep_body`] wrote for this slot, when it is there and sound.
    pub(crate) fn recall_body<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        self.recall_body_kept().map(|(body, _)| body)
    }

    /// [`Self::recall_body`], with the memo's bytes: a body that lends its parts from them
    /// (rules' bodies, see [`super::rules`]) is read back without copying them out, and keeps
    /// them.
    pub(crate) fn recall_body_kept<T: serde::de::DeserializeOwned>(
        &self,
    ) -> Option<(T, std::sync::Arc<Vec<u8>>)> {
        let bytes = crate::ground::limits::read_private(
            &self.body_path(),
            8 * crate::ground::limits::CONFIG_MAX,
        )
        .ok()?;
        let memo: Body<String, T> = postcard::from_bytes(opened(&bytes)?).ok()?;
        // Moved, the bytes stay where they are: what the parts lent is still there.
        (memo.name == self.name).then(|| (memo.body, std::sync::Arc::new(bytes)))
    }

    /// Checks the body memo against `expected`, what reading the file gives now: `None` when
    /// there is none, or it holds exactly that under a check that holds. Any other is removed.
    /// `expected` is asked only when there is a memo.
    pub(crate) fn check_body<T: Serialize>(&self, expected: impl FnOnce() -> T) -> Option<Mended> {
        let path = self.body_path();
        let bytes =
            crate::ground::limits::read_private(&path, 8 * crate::ground::limits::CONFIG_MAX)
                .ok()?;
        let wanted = postcard::to_stdvec(&Body {
            name: self.name.as_str(),
            body: expected(),
        })
        .ok()?;
        if opened(&bytes) == Some(wanted.as_slice()) {
            return None;
        }
        Some(if fs::remove_file(&path).is_ok() {
            Mended::Removed(path)
        } else {
            Mended::Left(path)
        })
    }

    /// Writes `body` as this slot's memo; false when it could not be. Unlike the parse memo,
    /// whose mapping a person may want to read, a body is kept in a compact binary form: it is
    /// read on every `run`, and decoding JSON of its size costs more than the rest of reading it.
    pub(crate) fn keep_body<T: Serialize>(&self, body: &T) -> bool {
        let Ok(bytes) = postcard::to_stdvec(&Body {
            name: self.name.as_str(),
            body,
        }) else {
            return false;
        };
        self.write(&bytes, &self.body_path())
    }

    fn body_path(&self) -> PathBuf {
        self.folder.join(format!("{}.{BODY_EXTENSION}", self.name))
    }

    fn path(&self) -> PathBuf {
        self.folder.join(format!("{}.json", self.name))
    }

    /// The kept top-level mapping, when a memo for these bytes is there and sound.
    pub(crate) fn recall(&self) -> Option<Mapping> {
        // A memo is about as large as its part of the file; the cap only bounds a bad one.
        let bytes = crate::ground::limits::read_private(
            &self.path(),
            8 * crate::ground::limits::CONFIG_MAX,
        )
        .ok()?;
        let memo: Memo = serde_json::from_slice(opened(&bytes)?).ok()?;
        (memo.name == self.name).then_some(memo.top)
    }

    /// Writes the memo (a temporary file renamed over it); false when it could not be. Nothing
    /// is said then: the next command parses again.
    pub(crate) fn keep(&self, top: &Mapping) -> bool {
        let memo = MemoRef {
            name: &self.name,
            top,
        };
        let Ok(json) = serde_json::to_vec(&memo) else {
            return false;
        };
        self.write(&json, &self.path())
    }

    /// Writes `bytes`, with their check, at `path` in the memo folder (a temporary file renamed
    /// over it).
    fn write(&self, bytes: &[u8], path: &Path) -> bool {
        let Some(sealed) = sealed(bytes) else {
            return false;
        };
        if fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(&self.folder)
            .is_err()
        {
            return false;
        }
        prune(&self.folder);
        let Ok(mut file) = tempfile::Builder::new()
            .prefix(".memo.")
            .suffix(".tmp")
            .tempfile_in(&self.folder)
        else {
            return false;
        };
        file.write_all(&sealed).is_ok() && file.persist(path).is_ok()
    }

    /// Checks the memo against `expected`, what parsing the bytes gives: `None` when there is
    /// none that would be believed, or it says the same. One that says something else (which
    /// hermes-hooks never writes) is replaced, or removed when it cannot be.
    pub(crate) fn mend(&self, expected: &Mapping) -> Option<Mended> {
        // A memo there whose check does not hold is as untrue as one that says something else.
        crate::ground::limits::read_private(&self.path(), 8 * crate::ground::limits::CONFIG_MAX)
            .ok()?;
        let same = self.recall().is_some_and(|said| {
            match (serde_json::to_vec(&said), serde_json::to_vec(expected)) {
                (Ok(said), Ok(expected)) => said == expected,
                _ => false,
            }
        });
        if same {
            return None;
        }
        let memo = self.path();
        Some(if self.keep(expected) {
            Mended::Replaced(memo)
        } else if fs::remove_file(&memo).is_ok() {
            Mended::Removed(memo)
        } else {
            Mended::Left(memo)
        })
    }
}

/// Where the key of the memos' check is kept, when there is a data folder.
pub(crate) fn key_path() -> Option<PathBuf> {
    Some(
        directories::BaseDirs::new()?
            .data_local_dir()
            .join("hermes-hooks")
            .join(KEY_FILE),
    )
}

/// The key of the memos' check, read once per process; made (32 random bytes, mode 0600) when
/// there is none. `None` when it can be neither read nor made: then no memo is believed or kept.
fn key() -> Option<&'static [u8; blake3::KEY_LEN]> {
    static KEY: std::sync::OnceLock<Option<[u8; blake3::KEY_LEN]>> = std::sync::OnceLock::new();
    KEY.get_or_init(|| {
        let path = key_path()?;
        let read = |path: &Path| {
            let bytes = crate::ground::limits::read_private(path, 64).ok()?;
            <[u8; blake3::KEY_LEN]>::try_from(bytes.as_slice()).ok()
        };
        read(&path).or_else(|| {
            make_key(&path)?;
            // Whichever process made it first, every one uses that key.
            read(&path)
        })
    })
    .as_ref()
}

/// Writes a new key at `path`, unless one is there already.
fn make_key(path: &Path) -> Option<()> {
    use std::io::Read as _;
    let folder = path.parent()?;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(folder)
        .ok()?;
    let mut key = [0_u8; blake3::KEY_LEN];
    fs::File::open("/dev/urandom")
        .ok()?
        .read_exact(&mut key)
        .ok()?;
    let mut file = tempfile::Builder::new()
        .prefix(".memo-key.")
        .tempfile_in(folder)
        .ok()?;
    file.write_all(&key).ok()?;
    // Another process may have made one meanwhile: its key stands.
    let _ = file.persist_noclobber(path);
    Some(())
}

/// `bytes` followed by their check.
fn sealed(bytes: &[u8]) -> Option<Vec<u8>> {
    let check = blake3::keyed_hash(key()?, bytes);
    let mut out = Vec::with_capacity(bytes.len() + CHECK_LEN);
    out.extend_from_slice(bytes);
    out.push(b'\n');
    out.extend_from_slice(check.to_hex().as_bytes());
    Some(out)
}

/// What a memo file holds before its check, when the check holds.
fn opened(bytes: &[u8]) -> Option<&[u8]> {
    let split = bytes.len().checked_sub(CHECK_LEN)?;
    let (body, check) = bytes.split_at(split);
    let check = blake3::Hash::from_hex(check.strip_prefix(b"\n")?).ok()?;
    // `Hash` compares in constant time.
    (blake3::keyed_hash(key()?, body) == check).then_some(body)
}

/// What became of a memo that did not say what its bytes say.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Mended {
    /// Written again from the parse.
    Replaced(PathBuf),
    /// It could not be written again, so it is gone.
    Removed(PathBuf),
    /// Neither could be done: it is still there, and still believed.
    Left(PathBuf),
}

/// Another reader's memo: its own name, and what the reader keeps.
#[derive(Serialize, Deserialize)]
struct Body<N, T> {
    name: N,
    body: T,
}

/// [`Memo`] as it is written, borrowing the mapping.
#[derive(Serialize)]
struct MemoRef<'a> {
    name: &'a str,
    top: &'a Mapping,
}

/// The part of a top-level mapping a memo keeps: the entries of [`KEPT_KEYS`] and their
/// repeats and, with `only`, under `hooks:` (and a `hooks:` a repeat dropped) the lists of that
/// event alone (the other events' keys stay, with no value: a reader about one event looks
/// only at their names). The readers look at nothing else, so they see the same either way.
pub(crate) fn kept(top: Mapping, only: Option<Event>) -> Mapping {
    let wanted = |key: &str| KEPT_KEYS.contains(&key);
    let entries = top
        .entries
        .into_iter()
        .filter(|(key, _)| matches!(&key.value, Value::Str(text) if wanted(text)))
        .map(|(key, mut value)| {
            if matches!(&key.value, Value::Str(name) if name == "hooks") {
                keep_event(&mut value, only);
            }
            (key, value)
        })
        .collect();
    Mapping {
        entries,
        repeated: top
            .repeated
            .into_iter()
            .filter(|repeat| wanted(&repeat.key))
            .map(|mut repeat| {
                if repeat.key == "hooks" {
                    keep_event(&mut repeat.dropped, only);
                }
                repeat
            })
            .collect(),
    }
}

/// With `only`, empties the lists of a `hooks:` block's other events.
fn keep_event(hooks: &mut Node, only: Option<Event>) {
    let (Some(only), Value::Map(events)) = (only, &mut hooks.value) else {
        return;
    };
    for (event, lists) in &mut events.entries {
        if !is_event(event, only) {
            lists.value = Value::Null;
        }
    }
    for repeat in &mut events.repeated {
        if !Event::parse(&repeat.key).is_ok_and(|r| r.event == only) {
            repeat.dropped.value = Value::Null;
        }
    }
}

/// Whether the `hooks:` key `key` names `event` (by any of its names).
fn is_event(key: &Node, event: Event) -> bool {
    matches!(&key.value, Value::Str(name) if Event::parse(name).is_ok_and(|r| r.event == event))
}

/// What tells this build of the binary from another: the device, inode, size and change
/// time of its own file. A rebuilt or upgraded binary reads nothing an older one kept.
fn binary_identity() -> Option<[u8; 40]> {
    #[cfg(target_os = "linux")]
    let meta = fs::metadata("/proc/self/exe").ok()?;
    #[cfg(not(target_os = "linux"))]
    let meta = fs::metadata(std::env::current_exe().ok()?).ok()?;
    let mut identity = [0; 40];
    let fields = [
        meta.dev(),
        meta.ino(),
        meta.size(),
        meta.ctime().cast_unsigned(),
        meta.ctime_nsec().cast_unsigned(),
    ];
    for (slot, field) in identity.chunks_exact_mut(8).zip(fields) {
        slot.copy_from_slice(&field.to_le_bytes());
    }
    Some(identity)
}

/// Removes the memos written more than [`UNUSED_FOR`] ago, and temporary files a killed
/// writer left (an hour old).
///
/// The folder is swept at most once per process and once an hour (a `.swept` file's time says
/// when it last was): a sweep reads every entry, and a process that writes many memos (the
/// automata of a rules file) would otherwise read the whole folder for each.
fn prune(folder: &Path) {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| {
        if due(folder) {
            sweep(folder);
        }
    });
}

/// Whether the folder is due a sweep: it was not swept in the last [`SWEEP_EVERY`]. When it is,
/// the time is noted (so another process does not sweep it too).
fn due(folder: &Path) -> bool {
    use std::os::unix::fs::OpenOptionsExt as _;
    let marker = folder.join(SWEPT_FILE);
    let now = SystemTime::now();
    let meta = fs::symlink_metadata(&marker).ok();
    // Only ever a plain file of this tool's: a link, a FIFO or a folder there is left alone.
    if meta.as_ref().is_some_and(|meta| !meta.is_file()) {
        return false;
    }
    let recent = meta
        .and_then(|meta| meta.modified().ok())
        .and_then(|at| now.duration_since(at).ok())
        .is_some_and(|age| age < SWEEP_EVERY);
    // Not through a link: the file is only ever this tool's own.
    let note_now = || {
        fs::OpenOptions::new()
            .write(true)
            .create(true)
            .mode(0o600)
            .custom_flags(
                (rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK)
                    .bits()
                    .cast_signed(),
            )
            .open(&marker)
            .and_then(|file| file.set_modified(now))
            .is_ok()
    };
    !recent && note_now()
}

/// Removes the memos of [`prune`] that are past their time.
fn sweep(folder: &Path) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let limit = if name.ends_with(".tmp") {
            Duration::from_secs(3600)
        } else if name
            .rsplit_once('.')
            .is_some_and(|(_, ext)| ext == "json" || ext == BODY_EXTENSION)
        {
            UNUSED_FOR
        } else {
            continue;
        };
        let old = entry
            .metadata()
            .and_then(|meta| meta.modified())
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age > limit);
        if old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests;
