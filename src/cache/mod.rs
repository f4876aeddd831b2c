//! Hook sets kept between events by a long-lived caller (`serve`), each read again as soon as a
//! file it came from changes, so an edit counts from the next event on.
//!
//! A set is loaded for one event from one set of files ([`LoadOptions`]) and remembers what it
//! depends on: config.yaml, the managed config and `.env`; each hooks folder, every hook folder
//! in it, their HOOK.md and `scripts/` (whose entry script decides the argv). Before each use:
//! - folders that can be watched (inotify, Linux) are asked whether anything that matters in
//!   them changed, which costs one `read` however many folders there are;
//! - the top of each source (each file, each hooks folder) is statted, so a source replaced as a
//!   whole (its folder renamed, another put in its place) is seen too;
//! - what cannot be watched (another system, a symlinked HOOK.md, past the watch limit) is
//!   statted and compared by device, inode, size, times and mode. A file changed within the
//!   timestamp granularity of when it was read cannot be told apart by its metadata, so such a
//!   set is read again on every use until its files are older than that.
//!
//! The consent allowlist is not kept: the gate reads it on every event that has a hook to run,
//! and the pin hashes each script right before it starts.

mod watch;

use std::collections::HashMap;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use anyhow::Result;

use crate::config::{self, Event, HookSet, LoadOptions};
use watch::{Names, Watch};

/// How many sets are kept (each project and event has its own); past it, all are dropped.
const ENTRIES_MAX: usize = 512;

/// Hook sets by their files and event, each with what it depends on.
#[derive(Debug, Default)]
pub struct HookCache {
    entries: HashMap<Key, Entry>,
    watch: Watch,
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
    event: Event,
}

#[derive(Debug)]
struct Entry {
    set: Result<Rc<HookSet>, Rc<anyhow::Error>>,
    deps: Deps,
}

impl HookCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The hooks `options` declare for `event`: kept, when none of their files changed since
    /// they were read, else read now.
    pub fn get(&mut self, options: LoadOptions<'_>, event: Event) -> Cached {
        self.watch.drain();
        let key = Key {
            config: options.config.to_path_buf(),
            managed: options.managed.map(Path::to_path_buf),
            dotenv: options.dotenv.map(Path::to_path_buf),
            user_hooks: options.user_hooks.map(Path::to_path_buf),
            project_hooks: options.project_hooks.map(Path::to_path_buf),
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
        if self.entries.len() >= ENTRIES_MAX {
            self.entries.clear();
        }
        self.entries.insert(
            key,
            Entry {
                set: set.clone(),
                deps,
            },
        );
        Cached { set, fresh: true }
    }
}

/// A file's identity and the metadata a change moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
    mode: u32,
}

impl Stamp {
    /// The stamp of `path` (symlinks followed); `None` when it cannot be statted.
    fn of(path: &Path) -> Option<Self> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Self {
            dev: meta.dev(),
            ino: meta.ino(),
            size: meta.size(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
            mode: meta.mode(),
        })
    }

    /// Whether a change made now could leave this stamp as it is: the file was modified within
    /// the timestamp granularity before `now` (2 s where the file system keeps whole seconds,
    /// as FAT and some network file systems do; else 100 ms, well above a kernel tick).
    fn racy(&self, now: SystemTime) -> bool {
        let latest = self.mtime;
        let window = if latest.1 == 0 {
            Duration::from_secs(2)
        } else {
            Duration::from_millis(100)
        };
        let (Ok(secs), Ok(nanos)) = (u64::try_from(latest.0), u32::try_from(latest.1)) else {
            return true;
        };
        let changed = SystemTime::UNIX_EPOCH + Duration::new(secs, nanos);
        now.duration_since(changed).map_or(true, |age| age < window)
    }
}

/// How a path is compared on each use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Compare {
    /// Only that it still names the same file (its folder is watched for the rest).
    Identity,
    /// Everything in the stamp.
    Whole,
}

/// What one set depends on.
#[derive(Debug, Default)]
struct Deps {
    /// The watch's moment when the set was read.
    moment: u64,
    /// Watched folders.
    watched: Vec<i32>,
    /// Paths statted on each use, with their stamp when the set was read.
    statted: Vec<(PathBuf, Option<Stamp>, Compare)>,
    /// A stamp that cannot tell a change made now: the set is read again on its next use.
    racy: bool,
}

/// The names in a hook folder that change what it declares.
const FOLDER_NAMES: [&str; 2] = ["HOOK.md", "scripts"];

impl Deps {
    /// Watches what can be watched, then stamps the rest.
    fn take(options: &LoadOptions<'_>, watch: &mut Watch) -> Self {
        let mut deps = Self::default();
        let mut to_stamp: Vec<(PathBuf, Compare)> = Vec::new();
        let files = [Some(options.config), options.managed, options.dotenv];
        for file in files.into_iter().flatten() {
            // A symlinked file's target is not in the folder the watch sees.
            let watched = !is_symlink(file)
                && file.file_name().is_some_and(|name| {
                    let names = Names::Only(vec![name.to_owned()]);
                    add(watch, parent(file), &names, &mut deps.watched)
                });
            to_stamp.push((file.to_path_buf(), compare(watched)));
        }
        for level in [options.user_hooks, options.project_hooks]
            .into_iter()
            .flatten()
        {
            Self::level(level, watch, &mut deps.watched, &mut to_stamp);
        }
        // Taken after every watch was added: an event from now on is after it.
        deps.moment = watch.now();
        let now = SystemTime::now();
        for (path, compare) in to_stamp {
            let stamp = Stamp::of(&path);
            if compare == Compare::Whole && stamp.is_some_and(|stamp| stamp.racy(now)) {
                deps.racy = true;
            }
            deps.statted.push((path, stamp, compare));
        }
        deps
    }

    /// One hooks folder: the folder itself, each hook folder in it, their HOOK.md and scripts.
    fn level(
        level: &Path,
        watch: &mut Watch,
        watched: &mut Vec<i32>,
        to_stamp: &mut Vec<(PathBuf, Compare)>,
    ) {
        let level_watched = add(watch, level, &Names::Any, watched);
        to_stamp.push((level.to_path_buf(), compare(level_watched)));
        let Ok(entries) = std::fs::read_dir(level) else {
            return;
        };
        for entry in entries
            .filter_map(Result::ok)
            .take(crate::limits::HOOK_ENTRIES_MAX)
        {
            let folder = entry.path();
            if !folder.is_dir() {
                continue; // becoming a folder changes the listing, which is watched or statted
            }
            let folder_watched = add(watch, &folder, &Names::only(&FOLDER_NAMES), watched);
            if !folder_watched {
                to_stamp.push((folder.clone(), Compare::Whole));
            }
            let manifest = folder.join("HOOK.md");
            if !folder_watched || is_symlink(&manifest) {
                to_stamp.push((manifest, Compare::Whole));
            }
            let scripts = folder.join("scripts");
            if !scripts.is_dir() {
                continue;
            }
            let scripts_watched = add(
                watch,
                &scripts,
                &Names::only(&crate::config::hook_md::ENTRIES),
                watched,
            );
            if !scripts_watched {
                to_stamp.push((scripts.clone(), Compare::Whole));
            }
            for name in crate::config::hook_md::ENTRIES {
                let script = scripts.join(name);
                // Its mode decides the argv; a symlink's target is not watched.
                if (!scripts_watched && script.exists()) || is_symlink(&script) {
                    to_stamp.push((script, Compare::Whole));
                }
            }
        }
    }

    /// Whether nothing the set was read from changed since.
    fn unchanged(&self, watch: &Watch) -> bool {
        !self.racy
            && !self
                .watched
                .iter()
                .any(|id| watch.changed_since(*id, self.moment))
            && self.statted.iter().all(|(path, then, compare)| {
                let now = Stamp::of(path);
                match compare {
                    Compare::Whole => now == *then,
                    Compare::Identity => {
                        now.map(|s| (s.dev, s.ino)) == then.map(|s| (s.dev, s.ino))
                    }
                }
            })
    }
}

/// Watches `dir`; true when it is.
fn add(watch: &mut Watch, dir: &Path, names: &Names, watched: &mut Vec<i32>) -> bool {
    watch.add(dir, names).map(|id| watched.push(id)).is_some()
}

const fn compare(watched: bool) -> Compare {
    if watched {
        Compare::Identity
    } else {
        Compare::Whole
    }
}

fn is_symlink(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink())
}

/// The folder a file is in ("." for a bare name).
fn parent(file: &Path) -> &Path {
    match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::Path;
    use std::time::{Duration, SystemTime};

    use super::{HookCache, Watch};
    use crate::config::{Event, LoadOptions};

    /// Sets a file's modification time an hour back, out of the racy window.
    fn age(path: &Path) {
        let file = if path.is_dir() {
            fs::File::open(path).unwrap()
        } else {
            fs::File::options().append(true).open(path).unwrap()
        };
        file.set_modified(SystemTime::now() - Duration::from_secs(3600))
            .unwrap();
    }

    struct Tree {
        dir: tempfile::TempDir,
    }

    impl Tree {
        fn new() -> Self {
            let tree = Self {
                dir: tempfile::tempdir().unwrap(),
            };
            fs::create_dir_all(tree.hooks().join("audit/scripts")).unwrap();
            fs::write(tree.config(), "hooks: {}\n").unwrap();
            tree.manifest("pre-tool-call");
            fs::write(tree.hooks().join("audit/scripts/run"), "#!/bin/sh\n").unwrap();
            for path in [
                tree.config(),
                tree.hooks().join("audit/HOOK.md"),
                tree.hooks().join("audit/scripts/run"),
                tree.hooks().join("audit/scripts"),
                tree.hooks().join("audit"),
                tree.hooks(),
            ] {
                age(&path);
            }
            tree
        }

        fn config(&self) -> std::path::PathBuf {
            self.dir.path().join("config.yaml")
        }

        fn hooks(&self) -> std::path::PathBuf {
            self.dir.path().join("hooks")
        }

        /// Rewrites HOOK.md with `trigger` (same length for every name used here).
        fn manifest(&self, trigger: &str) {
            fs::write(
                self.hooks().join("audit/HOOK.md"),
                format!("---\ntrigger: {trigger}\n---\n"),
            )
            .unwrap();
        }

        fn cached(&self, cache: &mut HookCache, event: &str) -> super::Cached {
            let config = self.config();
            let hooks = self.hooks();
            cache.get(
                LoadOptions {
                    config: &config,
                    managed: None,
                    dotenv: None,
                    user_hooks: Some(&hooks),
                    project_hooks: None,
                    only: None,
                },
                Event::parse(event).unwrap().event,
            )
        }

        fn get(&self, cache: &mut HookCache, event: &str) -> (usize, bool) {
            let got = self.cached(cache, event);
            (got.set.unwrap().hooks.len(), got.fresh)
        }
    }

    fn kept_until_a_file_changes(mut cache: HookCache) {
        let tree = Tree::new();
        assert_eq!(tree.get(&mut cache, "pre_tool_call"), (1, true));
        assert_eq!(tree.get(&mut cache, "pre_tool_call"), (1, false), "kept");
        assert_eq!(
            tree.get(&mut cache, "post_tool_call"),
            (0, true),
            "per event"
        );

        // The same size, the old modification time: the change time still tells.
        tree.manifest("post-tool-call");
        age(&tree.hooks().join("audit/HOOK.md"));
        assert_eq!(tree.get(&mut cache, "pre_tool_call"), (0, true));
        assert_eq!(tree.get(&mut cache, "post_tool_call"), (1, true));
        assert_eq!(tree.get(&mut cache, "post_tool_call"), (1, false));

        // A new hook folder.
        fs::create_dir_all(tree.hooks().join("second")).unwrap();
        fs::write(
            tree.hooks().join("second/HOOK.md"),
            "---\ntrigger: post-tool-call\n---\n",
        )
        .unwrap();
        assert_eq!(tree.get(&mut cache, "post_tool_call").0, 2);
        // Its run.sh made executable: it runs itself instead of through `sh`.
        let run = tree.hooks().join("second/scripts/run.sh");
        fs::create_dir_all(run.parent().unwrap()).unwrap();
        fs::write(&run, "#!/bin/sh\n").unwrap();
        let argv = |cache: &mut HookCache| {
            let got = tree.cached(cache, "post_tool_call");
            got.set.unwrap().hooks[1].argv().unwrap().len()
        };
        for path in [
            &tree.hooks().join("second/scripts"),
            &tree.hooks().join("second"),
            &tree.hooks(),
        ] {
            age(path);
        }
        age(&run);
        assert_eq!(argv(&mut cache), 2, "sh run.sh");
        assert_eq!(argv(&mut cache), 2);
        {
            use std::os::unix::fs::PermissionsExt as _;
            fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
        }
        assert_eq!(argv(&mut cache), 1, "run.sh itself");
    }

    #[test]
    fn watched_sets_are_kept_until_a_file_changes() {
        kept_until_a_file_changes(HookCache::new());
    }

    #[test]
    fn statted_sets_are_kept_until_a_file_changes() {
        kept_until_a_file_changes(HookCache {
            watch: Watch::off(),
            ..HookCache::default()
        });
    }

    #[test]
    fn a_file_changed_just_now_is_read_again_until_its_stamp_can_tell() {
        let tree = Tree::new();
        let mut cache = HookCache {
            watch: Watch::off(),
            ..HookCache::default()
        };
        fs::write(tree.config(), "hooks: {}\n").unwrap();
        assert!(tree.get(&mut cache, "pre_tool_call").1);
        // A second change within the same clock tick would leave the stamp as it is.
        assert!(tree.get(&mut cache, "pre_tool_call").1, "read again");
        age(&tree.config());
        assert!(tree.get(&mut cache, "pre_tool_call").1);
        assert!(!tree.get(&mut cache, "pre_tool_call").1, "kept");
    }
}
