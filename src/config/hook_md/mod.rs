//! Agent Hooks folders: `<level>/<name>/HOOK.md` with YAML frontmatter, checked with messages that
//! name the file and line, and each hook's entry script (`scripts/run`, `run.sh` or `run.py`).
//! A HOOK.md that cannot be read as a hook (or names one with a leading `-`, which a command
//! line would read as an option) is skipped with a warning (which `doctor` reports as an
//! error); softer problems are warnings and the hook still loads.

use std::fs;
use std::os::fd::AsFd as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use serde_saphyr::Spanned;

use super::yaml::Loose;
use super::{Event, HookSpec, Origin, Scope, Source, Warning, WarningKind};
use frontmatter::Reader;

mod frontmatter;

/// A hook's timeout when none is given, in milliseconds.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 30_000;
/// The shortest timeout; shorter ones are raised to it.
pub(crate) const MIN_TIMEOUT_MS: u64 = 100;
/// The longest timeout (10 minutes); longer ones are clamped.
pub(crate) const MAX_TIMEOUT_MS: u64 = 600_000;
/// The priority when none is given (higher runs first).
pub(crate) const DEFAULT_PRIORITY: u16 = 100;
/// The highest priority.
pub(crate) const MAX_PRIORITY: u16 = 1000;
/// Entry scripts, in the order they are looked for.
pub(crate) const ENTRIES: [&str; 3] = ["run", "run.sh", "run.py"];

/// One level's hooks, and every hook folder it has (also those skipped or of other events, so a
/// user hook can be shown beside a project hook of its name that does not replace it).
#[derive(Debug, Default)]
pub(crate) struct Level {
    /// The hooks, sorted by priority (higher first), then name.
    pub hooks: Vec<HookSpec>,
    /// Every folder with a HOOK.md, loaded or not.
    pub declared: Vec<Declared>,
}

/// A hook folder as declared, whether or not it loaded.
#[derive(Debug, Clone)]
pub(crate) struct Declared {
    /// The name it declares (its folder's when it declares none or cannot be read).
    pub name: String,
    /// Its HOOK.md.
    pub file: PathBuf,
    /// Its event, when the trigger could be read.
    pub event: Option<Event>,
    /// Whether it loaded as a hook (for the event asked for, when one was).
    pub loaded: bool,
}

/// Loads every hook of one level. A folder that does not exist loads nothing and is not walked.
/// With `only`, hooks of other events are not built.
pub(crate) fn load_level(
    dir: &Path,
    scope: Scope,
    only: Option<Event>,
    warnings: &mut Vec<Warning>,
) -> Level {
    // Every error while looking for hooks is said (a skipped entry, which the load turns into
    // an error naming the folder): a folder that could not be read is never "no hooks".
    let mut cannot = |what: &str, err: &std::io::Error| {
        warnings.push(warning(
            dir,
            None,
            WarningKind::SkippedEntry,
            format!("cannot {what} the hooks folder: {err}"),
        ));
    };
    let entries = match crate::ground::fault::check().and_then(|()| fs::read_dir(dir)) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Level::default(),
        Err(err) => {
            cannot("read", &err);
            return Level::default();
        }
    };
    // A HOOK.md of any kind counts (a FIFO or a device in its place is reported when it is
    // read, not skipped in silence); the folder count is capped, so a crafted tree cannot make
    // every command read without end.
    // Each HOOK.md is looked up relative to the open hooks folder: one short lookup each, and
    // its stat (taken here) serves the read.
    let opened = crate::ground::fault::check().and_then(|()| {
        rustix::fs::open(
            dir,
            rustix::fs::OFlags::RDONLY
                | rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .map_err(std::io::Error::from)
    });
    let level = match opened {
        Ok(level) => level,
        Err(err) => {
            cannot("open", &err);
            return Level::default();
        }
    };
    let mut folders: Vec<(PathBuf, Option<rustix::fs::Stat>)> = Vec::new();
    for entry in entries.take(crate::ground::limits::HOOK_ENTRIES_MAX) {
        let entry = match crate::ground::fault::check().and(entry) {
            Ok(entry) => entry,
            Err(err) => {
                // The hooks read so far still run; the folder is named as not read whole.
                cannot("list", &err);
                break;
            }
        };
        let manifest = Path::new(&entry.file_name()).join("HOOK.md");
        match crate::ground::limits::stat_in(level.as_fd(), &manifest) {
            Ok(stat) => folders.push((entry.path(), Some(stat))),
            // No HOOK.md (or a plain file, not a folder): not a hook folder, unless a HOOK.md
            // is there all the same (a dangling symlink), which the read reports.
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) && matches!(
                    crate::ground::limits::exists_in(level.as_fd(), &manifest),
                    Ok(false)
                ) => {}
            // A HOOK.md that cannot be statted, or a folder that cannot be looked into: the
            // read says why.
            Err(_) => folders.push((entry.path(), None)),
        }
    }
    // All in one folder: by name is by path.
    folders.sort_by(|a, b| a.0.file_name().cmp(&b.0.file_name()));
    if folders.len() > crate::ground::limits::HOOK_FOLDERS_MAX {
        warnings.push(warning(
            dir,
            None,
            WarningKind::SkippedEntry,
            format!(
                "{} hook folders; only the first {} (by name) are read",
                folders.len(),
                crate::ground::limits::HOOK_FOLDERS_MAX
            ),
        ));
        folders.truncate(crate::ground::limits::HOOK_FOLDERS_MAX);
    }
    let level_fd = level;
    let absolute = crate::ground::paths::normalized(
        &std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()),
    );
    let mut level = Level::default();
    for (folder, stat) in &folders {
        let manifest = Manifest {
            dir: level_fd.as_fd(),
            absolute: &absolute,
            stat: stat.as_ref(),
        };
        let (hook, declared) = load_hook(folder, &manifest, scope, only, warnings);
        level.declared.push(declared);
        level.hooks.extend(hook);
    }
    let priority = |hook: &HookSpec| hook.agent().map_or(0, |agent| agent.priority);
    level.hooks.sort_by(|a, b| {
        priority(b)
            .cmp(&priority(a))
            .then_with(|| a.name.cmp(&b.name))
    });
    level
}

fn warning(file: &Path, line: Option<u64>, kind: WarningKind, message: String) -> Warning {
    Warning {
        kind,
        origin: Origin {
            file: std::sync::Arc::from(file),
            line,
        },
        message,
    }
}

/// Where a folder's HOOK.md is read from: the open hooks folder, and its stat from the walk.
struct Manifest<'a> {
    dir: std::os::fd::BorrowedFd<'a>,
    /// The hooks folder, absolute and normalised.
    absolute: &'a Path,
    stat: Option<&'a rustix::fs::Stat>,
}

/// Reads one hook folder: the hook (`None` when it is skipped, with a warning, or filtered out)
/// and what the folder declares.
fn load_hook(
    folder: &Path,
    manifest: &Manifest<'_>,
    scope: Scope,
    only: Option<Event>,
    warnings: &mut Vec<Warning>,
) -> (Option<HookSpec>, Declared) {
    let file = folder.join("HOOK.md");
    // A folder name from the listing has no `.` or `..` in it: the level's absolute form, taken
    // once, and the name make the folder's.
    let folder = folder
        .file_name()
        .map_or_else(|| folder.to_path_buf(), |name| manifest.absolute.join(name));
    let folder_name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut declared = Declared {
        name: folder_name.clone(),
        file: file.clone(),
        event: None,
        loaded: false,
    };
    let mut reader = Reader {
        file: &file,
        warnings,
    };
    if folder.to_str().is_none() {
        // The allowlist (JSON) and the command line cannot name such a path exactly.
        reader.skip(
            None,
            "its path is not valid UTF-8, so it can be neither approved nor run exactly",
        );
        return (None, declared);
    }
    let relative = Path::new(folder_name.as_str()).join("HOOK.md");
    let read = crate::ground::limits::read_in(
        manifest.dir,
        &relative,
        manifest.stat,
        crate::ground::limits::MANIFEST_MAX,
    );
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(err) => {
            reader.skip(None, &format!("cannot read it: {err}"));
            return (None, declared);
        }
    };
    let manifest_sha256: std::sync::Arc<str> = {
        use sha2::Digest as _;
        crate::ground::digest::hex(&sha2::Sha256::digest(&bytes)).into()
    };
    let mut bytes = bytes;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned());
    let Some(yaml) = reader.frontmatter(&text) else {
        return (None, declared);
    };
    // Loading one event: a hook whose plain trigger line names another needs no parse.
    if let Some(only) = only
        && let Some(seen) = super::glance::glance(yaml)
        && seen.event != only
    {
        declared.event = Some(seen.event);
        if let Some(name) = seen.name {
            name.clone_into(&mut declared.name);
        }
        return (None, declared);
    }
    let Some(raw) = reader.parse(yaml) else {
        return (None, declared);
    };
    if let Some(Spanned {
        value: Loose::Str(name),
        ..
    }) = &raw.name
        && !name.trim().is_empty()
    {
        name.trim().clone_into(&mut declared.name);
    }
    let mut hook = reader.hook(raw, &folder, &folder_name, scope, only, &mut declared.event);
    if let Some(Source::AgentHooks(agent)) = hook.as_mut().map(|hook| &mut hook.source) {
        agent.manifest_sha256 = Some(manifest_sha256);
    }
    declared.loaded = hook.is_some();
    (hook, declared)
}

/// What to say of a hook folder that has no entry script at all, naming the files it may have.
pub(crate) fn no_entry(folder: &Path) -> String {
    format!(
        "{} has no entry script: add scripts/run (executable), scripts/run.sh or scripts/run.py",
        folder.display()
    )
}

/// The entry script and the argv that runs it: `scripts/run`, `run.sh` or `run.py`, the first
/// that exists in any form. With its exec bit it runs directly; without, `run.sh` runs through
/// `sh` and `run.py` through `python3`. No entry at all gives `scripts/run` (which then fails to
/// start). An entry that is not a regular file is still the entry: consent refuses it, with a
/// message saying what it is, rather than quietly running the next one.
pub(crate) fn entry_of(folder: &Path) -> (PathBuf, Vec<String>) {
    let scripts = folder.join("scripts");
    for name in ENTRIES {
        let path = scripts.join(name);
        if fs::symlink_metadata(&path).is_err() {
            continue;
        }
        let text = path.to_string_lossy().into_owned();
        let Ok(meta) = fs::metadata(&path) else {
            return (path, vec![text]);
        };
        let argv = match (
            meta.is_file() && meta.permissions().mode() & 0o111 != 0,
            name,
        ) {
            (false, "run.sh") => vec!["sh".to_owned(), text],
            (false, "run.py") => vec!["python3".to_owned(), text],
            _ => vec![text],
        };
        return (path, argv);
    }
    let path = scripts.join(ENTRIES[0]);
    let text = path.to_string_lossy().into_owned();
    (path, vec![text])
}
