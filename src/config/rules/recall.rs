//! A rules file's reading, from its memos when they are there. Reading a file whole (its YAML,
//! every pattern checked) costs milliseconds, so what it gives is kept in the memo folder, named
//! by the sha256 of the bytes it was read from, this binary, and the folders `${project}` and
//! `${home}` stand for. The patterns are kept apart and read only when a call could match one.
//!
//! Hashing the file is then most of what is left, so a second memo is named by the file's stamp
//! ([`crate::ground::stamp`]) and holds the hash with the reading, kept only once the file has settled.
//! The rules that decide are always those of bytes that were hashed, and their pin is that hash.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use super::{Vars, read};
use crate::config::{LoadError, Origin, SourceKind, memo};
use crate::ground::stamp::Stamp;

/// Changes whenever what a rules memo holds changes.
const MEMO_FORMAT: &[u8] = b"hermes-hooks rules memo 16\0";
/// The same for the memo of a rules file's patterns.
const PATTERNS_FORMAT: &[u8] = b"hermes-hooks rules patterns 2\0";
/// The same for the memo of a rules file's patterns built ahead as automata.
const AUTOMATA_FORMAT: &[u8] = b"hermes-hooks rules automata 2\0";
/// The same for the memo named by a file's stamp.
const STAMP_FORMAT: &[u8] = b"hermes-hooks rules stamp 10\0";

/// The patterns of one rules file: in hand when the file was just read, else read from their
/// memo when a call could first match one; should that memo be gone, the file is read again,
/// and its patterns are used only if its bytes are still the ones its rules came from.
pub(crate) struct Patterns {
    list: OnceLock<Option<Vec<String>>>,
    /// Each pattern built ahead as an automaton, where it can be ([`crate::matcher::automaton`]):
    /// in hand when the file was just read, else read from their memo when first needed.
    automata: OnceLock<Option<Vec<Option<Vec<u8>>>>>,
    later: Option<Later>,
}

/// Where [`Patterns`] come from when they are not in hand.
struct Later {
    file: PathBuf,
    sha256: String,
    project: Option<PathBuf>,
    home: Option<PathBuf>,
}

impl std::fmt::Debug for Patterns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Patterns")
    }
}

impl Patterns {
    pub(super) fn given(list: Vec<String>, automata: Option<Vec<Option<Vec<u8>>>>) -> Self {
        Self {
            list: OnceLock::from(Some(list)),
            automata: OnceLock::from(automata),
            later: None,
        }
    }

    /// The automaton of the pattern at `index`, when there is one: each in a memo of its own,
    /// so a call reads only the ones its conditions need.
    pub(crate) fn automaton(&self, index: usize) -> Option<Vec<u8>> {
        if let Some(Some(automata)) = self.automata.get() {
            return automata.get(index)?.clone();
        }
        let later = self.later.as_ref()?;
        let vars = Vars {
            project: later.project.as_deref(),
            home: later.home.as_deref(),
        };
        let name = format!("{}:{index}", later.sha256);
        // Kept as `Option<Vec<u8>>`, read back as one run of bytes.
        let bytes = slot(AUTOMATA_FORMAT, name.as_bytes(), vars)?
            .recall_body::<Option<crate::ground::bytes::Bytes>>()??;
        Some(bytes.0.into_vec())
    }

    fn later(file: &Path, sha256: &str, vars: Vars<'_>) -> Self {
        Self {
            list: OnceLock::new(),
            automata: OnceLock::new(),
            later: Some(Later {
                file: file.to_path_buf(),
                sha256: sha256.to_owned(),
                project: vars.project.map(Path::to_path_buf),
                home: vars.home.map(Path::to_path_buf),
            }),
        }
    }

    /// The pattern at `index`.
    pub(crate) fn get(&self, index: usize) -> Option<&str> {
        let list = self.list.get_or_init(|| {
            let later = self.later.as_ref()?;
            let vars = Vars {
                project: later.project.as_deref(),
                home: later.home.as_deref(),
            };
            let slot = slot(PATTERNS_FORMAT, later.sha256.as_bytes(), vars);
            if let Some(list) = slot.as_ref().and_then(memo::Slot::recall_body) {
                return Some(list);
            }
            let bytes =
                crate::ground::limits::read(&later.file, crate::ground::limits::MANIFEST_MAX)
                    .ok()?;
            let same = crate::ground::digest::hex(&Sha256::digest(&bytes)) == later.sha256;
            same.then(|| read::read(&bytes, vars).patterns)
        });
        list.as_ref()?.get(index).map(String::as_str)
    }
}

/// What the stamp memo holds, as it is read back.
#[derive(Deserialize)]
struct Stamped {
    sha256: String,
    read: read::Read,
}

/// [`Stamped`] as it is written.
#[derive(Serialize)]
struct StampedRef<'a> {
    sha256: &'a str,
    read: &'a read::Read,
}

/// `file`'s reading, the sha256 of the bytes it was read from, and its patterns; `None` (with
/// the error said, unless the file does not exist) when it cannot be read.
pub(super) fn reading(
    file: &Path,
    vars: Vars<'_>,
    errors: &mut Vec<LoadError>,
) -> Option<(read::Read, String, Patterns)> {
    let unreadable = |err: std::io::Error, errors: &mut Vec<LoadError>| {
        if err.kind() != std::io::ErrorKind::NotFound {
            errors.push(LoadError {
                source: SourceKind::Rules,
                origin: Origin {
                    file: std::sync::Arc::from(file),
                    line: None,
                },
                column: None,
                message: format!("cannot read it: {err}; none of its rules are used"),
            });
        }
    };
    // Before the file is looked at: a change after this moment gives it a later change time.
    let now = SystemTime::now();
    let (opened, stamp) = match open_stamped(file) {
        Ok(opened) => opened,
        Err(err) => {
            unreadable(err, errors);
            return None;
        }
    };
    let stamp_slot = slot(STAMP_FORMAT, &stamp.bytes(), vars);
    if let Some(known) = stamp_slot
        .as_ref()
        .and_then(memo::Slot::recall_body_kept::<Stamped>)
    {
        let (mut known, buffer) = known;
        known.read.keep_bodies_in(&buffer);
        let patterns = Patterns::later(file, &known.sha256, vars);
        return Some((known.read, known.sha256, patterns));
    }
    // The bytes are hashed in pieces first: when the memo of that hash is there, the file is
    // never held whole, which saves a start the page faults of a buffer as large as the file.
    let hashed = match sha256_of(opened) {
        Ok(sha256) => sha256,
        Err(err) => {
            unreadable(err, errors);
            return None;
        }
    };
    let recalled = slot(MEMO_FORMAT, hashed.as_bytes(), vars)
        .as_ref()
        .and_then(memo::Slot::recall_body_kept::<read::Read>)
        .map(|(mut read, buffer)| {
            read.keep_bodies_in(&buffer);
            read
        });
    let (read, sha256, patterns) = if let Some(read) = recalled {
        let patterns = Patterns::later(file, &hashed, vars);
        (read, hashed.clone(), patterns)
    } else {
        // Read whole to be parsed, and pinned by the bytes parsed (the file may have changed
        // since it was hashed).
        let bytes = match crate::ground::limits::read(file, crate::ground::limits::MANIFEST_MAX) {
            Ok(bytes) => bytes,
            Err(err) => {
                unreadable(err, errors);
                return None;
            }
        };
        let sha256 = crate::ground::digest::hex(&Sha256::digest(&bytes));
        let mut read = read::read(&bytes, vars);
        let mut automata = None;
        if let (Some(rules), Some(patterns)) = (
            slot(MEMO_FORMAT, sha256.as_bytes(), vars),
            slot(PATTERNS_FORMAT, sha256.as_bytes(), vars),
        ) {
            // Built once, for every later process: the automata first, then the patterns, then
            // the rules (a memo of rules is believed only with its patterns there).
            let built: Vec<Option<Vec<u8>>> = read
                .patterns
                .iter()
                .map(|pattern| crate::matcher::automaton(pattern))
                .collect();
            for (index, automaton) in built.iter().enumerate() {
                let name = format!("{sha256}:{index}");
                if let Some(slot) = slot(AUTOMATA_FORMAT, name.as_bytes(), vars) {
                    slot.keep_body(automaton);
                }
            }
            automata = Some(built);
            if patterns.keep_body(&read.patterns) {
                rules.keep_body(&read);
            }
        }
        let patterns = Patterns::given(std::mem::take(&mut read.patterns), automata);
        (read, sha256, patterns)
    };
    // Kept only for the bytes hashed under this stamp.
    if let Some(stamp_slot) = stamp_slot
        && sha256 == hashed
        && !stamp.racy(now)
    {
        stamp_slot.keep_body(&StampedRef {
            sha256: &sha256,
            read: &read,
        });
    }
    Some((read, sha256, patterns))
}

/// Compares every memo kept for `file` as it is now (its reading, by its bytes and by its stamp,
/// its patterns and their automata) with what reading the file gives, and removes each that
/// says something else or whose check does not hold. A file that cannot be read is left to the
/// load, which reports it.
pub(crate) fn check_memos(file: &Path, vars: Vars<'_>) -> Vec<memo::Mended> {
    let Ok((_, stamp)) = open_stamped(file) else {
        return Vec::new();
    };
    let Ok(bytes) = crate::ground::limits::read(file, crate::ground::limits::MANIFEST_MAX) else {
        return Vec::new();
    };
    let sha256 = crate::ground::digest::hex(&Sha256::digest(&bytes));
    let fresh = read::read(&bytes, vars);
    let mut untrue = Vec::new();
    if let Some(slot) = slot(MEMO_FORMAT, sha256.as_bytes(), vars) {
        untrue.extend(slot.check_body(|| &fresh));
    }
    if let Some(slot) = slot(STAMP_FORMAT, &stamp.bytes(), vars) {
        untrue.extend(slot.check_body(|| StampedRef {
            sha256: &sha256,
            read: &fresh,
        }));
    }
    if let Some(slot) = slot(PATTERNS_FORMAT, sha256.as_bytes(), vars) {
        untrue.extend(slot.check_body(|| &fresh.patterns));
    }
    for (index, pattern) in fresh.patterns.iter().enumerate() {
        let name = format!("{sha256}:{index}");
        if let Some(slot) = slot(AUTOMATA_FORMAT, name.as_bytes(), vars) {
            untrue.extend(slot.check_body(|| crate::matcher::automaton(pattern)));
        }
    }
    untrue
}

/// Opens `file` as [`crate::ground::limits::open_regular`] does, with its stamp as the open file has it.
fn open_stamped(file: &Path) -> std::io::Result<(std::fs::File, Stamp)> {
    let opened = crate::ground::limits::open_regular(file)?;
    let stamp = Stamp::from(&opened.metadata()?);
    Ok((opened, stamp))
}

/// Where a memo of `kind` named by `name` lives, for these folders for `${project}` and
/// `${home}`.
fn slot(kind: &[u8], name: &[u8], vars: Vars<'_>) -> Option<memo::Slot> {
    let folder = |dir: Option<&Path>| dir.map(|d| d.as_os_str().as_encoded_bytes().to_vec());
    let (project, home) = (folder(vars.project), folder(vars.home));
    memo::Slot::keyed(
        kind,
        &[
            name,
            project.as_deref().unwrap_or(b"\0"),
            home.as_deref().unwrap_or(b"\0"),
        ],
    )
}

/// The sha256 of the bytes of `file` (opened by [`open_stamped`]), read in pieces up to the cap
/// of [`crate::ground::limits::read`].
fn sha256_of(file: std::fs::File) -> std::io::Result<String> {
    use std::io::Read as _;
    let max = crate::ground::limits::MANIFEST_MAX;
    let mut reader = file.take(max + 1);
    let mut hasher = Sha256::new();
    // On the stack: a heap buffer would cost the page faults this read is here to save.
    let mut piece = [0_u8; 8 * 1024];
    let mut total: u64 = 0;
    loop {
        match reader.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => {
                total += n as u64;
                hasher.update(&piece[..n]);
            }
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    if total > max {
        return Err(crate::ground::limits::too_large(max));
    }
    Ok(crate::ground::digest::hex(&hasher.finalize()))
}
