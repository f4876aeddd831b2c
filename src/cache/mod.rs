//! Hook sets kept between events by a long-lived caller (`serve`), each read again as soon as a
//! file it came from changes, so an edit counts from the next event on, whichever way it was
//! made.
//!
//! A set is loaded for one event from one set of files ([`LoadOptions`]) and remembers what it
//! depends on: config.yaml, the managed config and `.env`; each hooks folder, every hook folder
//! in it, their HOOK.md, `scripts/` and the entry script whose metadata decides the argv. Each
//! of them is proven unchanged before each use, by one of:
//! - a watch (inotify, Linux) on the folder or file itself: a folder's watch sees its listing
//!   change, a file's sees every write, `chmod` or new link, made through whichever of its
//!   names (a hard link elsewhere too); all watches are asked with one `read`;
//! - for the top of each source (config.yaml, `.env`, each rules file and hooks folder), a
//!   watch on every folder on the way to it, for the next name: a folder on the way renamed,
//!   removed or made a symlink, or the missing name made, is an event in the folder above;
//! - a `stat` of its path, compared by device and inode, where the path may lead elsewhere
//!   without an event in a watched folder: a top whose way goes through a symlink or cannot be
//!   watched, and every symlink inside the hooks folders (a symlink anywhere along its
//!   target's path can be switched, as a dotfiles manager switches generations);
//! - a `stat` compared by device, inode, size, modification and change times and mode, where
//!   there is no watch (another system, a file system another machine writes to, past the
//!   watch limit). Every write moves the change time, which no program can set; but a change
//!   within the timestamp granularity of when the file was statted cannot be told apart, so
//!   such a set is read again on every use until its files' change times are older than that.
//!
//! The consent allowlist is kept apart (`consent::KeptList`, by the same stamp); the pin hashes
//! each script right before it starts.

mod places;
mod walk;
mod watch;

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

use anyhow::Result;

use crate::config::{self, Event, HookSet, LoadOptions};
use crate::ground::stamp::Stamp;
use watch::{Limit, Names, Token, Watch};

/// How many sets are kept (each project and event has its own); past it, all are dropped.
const ENTRIES_MAX: usize = 512;

/// Hook sets by their files and event, each with what it depends on.
#[derive(Debug)]
pub struct HookCache {
    entries: HashMap<Key, Entry>,
    /// The projects found, by where the search started.
    walks: HashMap<walk::Key, walk::Walked>,
    /// Where the guard's folders really are.
    places: HashMap<PathBuf, places::Place>,
    watch: Watch,
    /// The watch was read for this call's project ([`Self::paths`]), so its hooks need not
    /// read it again: what the person changed before the call is in that read.
    drained: bool,
}

/// A set from the cache.
#[derive(Debug)]
pub struct Cached {
    /// The hooks, or the error loading them gave (kept too, so a broken config.yaml is not
    /// parsed again on every event).
    pub set: Result<Rc<HookSet>, Rc<anyhow::Error>>,
    /// Read from the files just now (its warnings are new), rather than kept.
    pub fresh: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    config: PathBuf,
    managed: Option<PathBuf>,
    dotenv: Option<PathBuf>,
    user_hooks: Option<PathBuf>,
    project_hooks: Option<PathBuf>,
    nested_hooks: Vec<PathBuf>,
    user_rules: Option<PathBuf>,
    project: Option<PathBuf>,
    event: Event,
}

#[derive(Debug)]
struct Entry {
    set: Result<Rc<HookSet>, Rc<anyhow::Error>>,
    deps: Deps,
}

impl Default for HookCache {
    fn default() -> Self {
        Self::new()
    }
}

impl HookCache {
    /// An empty cache, watching at most what `HERMES_HOOKS_WATCH_LIMIT` says (else its share
    /// of the user's inotify watches).
    pub fn new() -> Self {
        let (limit, problem) = limit();
        let mut watch = Watch::new(limit);
        if let Some(problem) = problem {
            watch.say(problem);
        }
        Self::with(watch)
    }

    fn with(watch: Watch) -> Self {
        Self {
            entries: HashMap::new(),
            walks: HashMap::new(),
            places: HashMap::new(),
            watch,
            drained: false,
        }
    }

    /// The next thing the caller should tell the user, each said once: why files that would
    /// have been watched are statted on every use instead (the watch limit).
    pub fn notice(&mut self) -> Option<String> {
        self.watch.notice()
    }

    /// The hooks `options` declare for `event`: kept, when none of their files changed since
    /// they were read, else read now.
    pub fn get(&mut self, options: LoadOptions<'_>, event: Event) -> Cached {
        if !std::mem::take(&mut self.drained) {
            self.watch.drain();
        }
        let key = Key {
            config: options.config.to_path_buf(),
            managed: options.managed.map(Path::to_path_buf),
            dotenv: options.dotenv.map(Path::to_path_buf),
            user_hooks: options.user_hooks.map(Path::to_path_buf),
            project_hooks: options.project_hooks.map(Path::to_path_buf),
            nested_hooks: options.nested_hooks.to_vec(),
            user_rules: options.user_rules.map(Path::to_path_buf),
            project: options.project.map(Path::to_path_buf),
            event,
        };
        if let Some(entry) = self.entries.get(&key)
            && entry.deps.unchanged(&self.watch)
        {
            return Cached {
                set: entry.set.clone(),
                fresh: false,
            };
        }
        // What the set depends on is taken before it is read: a change in between makes it
        // stale at once, never unseen.
        let deps = Deps::take(&options, &mut self.watch);
        let set = config::load(LoadOptions {
            only: Some(event),
            ..options
        })
        .map(Rc::new)
        .map_err(Rc::new);
        // The old sets give their watches back after the new one took its own: a folder both
        // depend on stays watched.
        if self.entries.len() >= ENTRIES_MAX {
            for (_, old) in self.entries.drain() {
                old.deps.release(&mut self.watch);
            }
        }
        let entry = Entry {
            set: set.clone(),
            deps,
        };
        if let Some(old) = self.entries.insert(key, entry) {
            old.deps.release(&mut self.watch);
        }
        Cached { set, fresh: true }
    }
}

/// The watch limit `HERMES_HOOKS_WATCH_LIMIT` gives, and what to say of a value that is not one.
fn limit() -> (Limit, Option<String>) {
    let name = crate::ground::env::HERMES_HOOKS_WATCH_LIMIT;
    let Some(value) = crate::ground::env::var_os(name) else {
        return (Limit::Chosen, None);
    };
    match value.to_string_lossy().trim().parse() {
        Ok(most) => (Limit::Named(most), None),
        Err(_) => (
            Limit::Chosen,
            Some(format!(
                "{name} is not a whole number; using the default limit"
            )),
        ),
    }
}

/// How a path is compared on each use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// Only that it still leads to the same file (a watch on that file sees the rest).
    Identity,
    /// Everything in the stamp.
    Whole,
}

impl Compare {
    fn same(self, then: Option<Stamp>, now: Option<Stamp>) -> bool {
        match self {
            Self::Whole => now == then,
            Self::Identity => now.map(|s| s.identity()) == then.map(|s| s.identity()),
        }
    }
}

/// What one set depends on.
#[derive(Debug, Default)]
struct Deps {
    /// The watch's moment when the set was read.
    moment: u64,
    /// Watched folders and files.
    watched: Vec<Token>,
    /// Paths statted on each use, with their stamp when the set was read.
    statted: Vec<(PathBuf, Option<Stamp>, Compare)>,
    /// A stamp that cannot tell a change made now: the set is read again on its next use.
    racy: bool,
}

/// The names in a hook folder that change what it declares.
const FOLDER_NAMES: [&str; 2] = ["HOOK.md", "scripts"];

/// What a path is to a set.
#[derive(Clone, Copy)]
enum Role<'n> {
    /// A file whose content or metadata is read.
    File,
    /// A folder whose listing is read, for these names in it.
    Folder(&'n Names),
}

impl Deps {
    /// Watches what can be watched and stamps the rest, each path before what is in it.
    fn take(options: &LoadOptions<'_>, watch: &mut Watch) -> Self {
        let names = NameSets {
            any: Names::Any,
            folder: Names::only(&FOLDER_NAMES),
            scripts: Names::only(&config::hook_md::ENTRIES),
        };
        let mut taking = Taking {
            deps: Self::default(),
            watch,
        };
        for file in [Some(options.config), options.managed, options.dotenv]
            .into_iter()
            .flatten()
        {
            taking.path(file, false, Role::File);
        }
        for (file, _) in options.rules_files() {
            taking.path(&file, false, Role::File);
        }
        for level in [options.user_hooks, options.project_hooks]
            .into_iter()
            .flatten()
            .chain(options.nested_hooks.iter().map(PathBuf::as_path))
        {
            taking.level(level, &names);
        }
        // Taken after every watch was added: an event from now on is after it.
        taking.deps.moment = taking.watch.now();
        taking.deps
    }

    /// Whether nothing the set was read from changed since.
    fn unchanged(&self, watch: &Watch) -> bool {
        !self.racy
            && !self
                .watched
                .iter()
                .any(|token| watch.changed_since(*token, self.moment))
            && self
                .statted
                .iter()
                .all(|(path, then, compare)| compare.same(*then, Stamp::of(path)))
    }

    /// Gives the watches back.
    fn release(self, watch: &mut Watch) {
        for token in self.watched {
            watch.release(token);
        }
    }
}

/// One set's dependencies as they are taken.
struct Taking<'w> {
    deps: Deps,
    watch: &'w mut Watch,
}

/// The names that matter in each kind of folder.
struct NameSets {
    /// A hooks folder: every name.
    any: Names,
    /// A hook folder.
    folder: Names,
    /// Its `scripts/`.
    scripts: Names,
}

impl Taking<'_> {
    /// One hooks folder: the folder itself, each hook folder in it, their HOOK.md, scripts and
    /// entry script.
    fn level(&mut self, level: &Path, names: &NameSets) {
        if !self.path(level, false, Role::Folder(&names.any)) {
            return;
        }
        let Ok(entries) = std::fs::read_dir(level) else {
            // What is in it cannot be followed (and the load says why it could not read it):
            // read it again on every use rather than keep what this load made of it.
            self.deps.racy = true;
            return;
        };
        // The loader reads HOOK.md through the open hooks folder, but names the scripts from
        // the folder's path made absolute and normalised by its text: where a `..` follows a
        // symlink the two lead to different places, and the scripts' path is then one of its
        // own, statted on each use.
        let lexical = (level.components())
            .any(|part| part == Component::ParentDir)
            .then(|| {
                crate::ground::paths::normalized(
                    &std::path::absolute(level).unwrap_or_else(|_| level.to_path_buf()),
                )
            });
        for entry in entries.take(crate::ground::limits::HOOK_ENTRIES_MAX) {
            let Ok(entry) = entry else {
                self.deps.racy = true;
                break;
            };
            let folder = entry.path();
            if !self.path(&folder, true, Role::Folder(&names.folder)) {
                continue;
            }
            self.path(&folder.join("HOOK.md"), true, Role::File);
            let (scripts, listed) = match &lexical {
                None => (folder.join("scripts"), true),
                Some(lexical) => (lexical.join(entry.file_name()).join("scripts"), false),
            };
            if self.path(&scripts, listed, Role::Folder(&names.scripts)) {
                self.entry(&scripts);
            }
        }
    }

    /// The entry script, the first of the entry names that exists in any form: `run.sh` and
    /// `run.py` run through their interpreter unless they are executable files, so their
    /// metadata counts; `run` runs itself whatever it is, so its name in the listing is all.
    fn entry(&mut self, scripts: &Path) {
        for name in config::hook_md::ENTRIES {
            let script = scripts.join(name);
            if std::fs::symlink_metadata(&script).is_err() {
                continue;
            }
            if name != config::hook_md::ENTRIES[0] {
                self.path(&script, true, Role::File);
            }
            return;
        }
    }

    /// Makes the set depend on `path`. `listed`: its name is in a folder the set depends on
    /// (watched for that name, or statted whole), so where it leads can change unseen only
    /// when it is a symlink. Returns whether it is a folder whose listing is now proven
    /// (watched or statted whole), so what is in it can be taken as listed.
    fn path(&mut self, path: &Path, listed: bool, role: Role<'_>) -> bool {
        // A symlink can be switched anywhere along its target's path, or its target replaced,
        // without an event in the folder that holds it: only a listed path that is not a
        // symlink is bound to what its folder's listing says.
        // Stamped before it is watched: a watch on a file swapped in after the stamp is on
        // another inode than the stamp, which then differs at the next use.
        let listed = listed || self.along(path);
        let (stamp, bound) = if listed {
            match std::fs::symlink_metadata(path) {
                Ok(meta) if meta.file_type().is_symlink() => (Stamp::of(path), false),
                Ok(meta) => (Some(Stamp::from(&meta)), true),
                Err(_) => (None, true),
            }
        } else {
            (Stamp::of(path), false)
        };
        let Some(stamp) = stamp else {
            // Not there (or a dangling symlink): its folder's listing says when it appears,
            // and a symlink's stat when its target does.
            if !bound {
                self.stat(path, None, Compare::Whole);
            }
            return false;
        };
        let token = match role {
            Role::Folder(names) if stamp.is_dir() => {
                self.watch
                    .add(path, names, (true, true), stamp.identity().0)
            }
            // A file where a folder could be: only what it is counts, and a listed file
            // becomes a folder only through its folder's listing.
            Role::Folder(_) => {
                if !bound {
                    self.stat(path, Some(stamp), Compare::Whole);
                }
                return false;
            }
            Role::File => self
                .watch
                .add(path, &Names::Any, (false, true), stamp.identity().0),
        };
        match token {
            Some(token) => {
                self.deps.watched.push(token);
                if !bound {
                    self.stat(path, Some(stamp), Compare::Identity);
                }
            }
            None => self.stat(path, Some(stamp), Compare::Whole),
        }
        stamp.is_dir()
    }

    /// Watches each folder on the way to `path` for the next name on it, so that where the path
    /// leads cannot change without an event: a folder on the way renamed, removed, replaced or
    /// made a symlink, or its mode or owner changed, is an event in the folder above it, and a
    /// name that is missing is watched for where it would appear. Then the path's own name is
    /// listed, as a path inside a hooks folder is. Gives false (the path is statted on each use
    /// instead) where that cannot be proven: a path that is not absolute and plain, a folder on
    /// the way that is a symlink (its target's own path is elsewhere) or cannot be looked at, or
    /// a folder that cannot be watched. A file system mounted over a folder on the way makes no
    /// event; the statted paths see that, these do not.
    fn along(&mut self, path: &Path) -> bool {
        walk::along(self.watch, path, &mut self.deps.watched)
    }

    fn stat(&mut self, path: &Path, stamp: Option<Stamp>, compare: Compare) {
        if compare == Compare::Whole && stamp.is_some_and(|stamp| stamp.racy(SystemTime::now())) {
            self.deps.racy = true;
        }
        self.deps.statted.push((path.to_path_buf(), stamp, compare));
    }
}

#[cfg(test)]
mod tests;
