//! The project found for a folder, kept by a long-lived caller (`serve`) while nothing the walk
//! looked at changed: every folder from `/` down to where the search starts is watched for the
//! next name on the way, for `.agents` and for `.git`, and each `.agents` on the way for `hooks`
//! and `rules.yaml`. A folder made, removed, renamed, made a symlink or given another owner or
//! mode there is an event, so the next request walks again. Where that cannot be proven (a
//! symlink on the way or among those names, a folder that cannot be watched), nothing is kept
//! and every request walks, as `run` does.

use std::path::{Component, Path, PathBuf};

use anyhow::Result;

use super::HookCache;
use super::watch::{Names, Token, Watch};
use crate::ground::paths::{Paths, Start};

/// How many starts are kept; past it, all are dropped.
const STARTS_MAX: usize = 64;

/// Where a search starts, owned.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Key {
    Dir(PathBuf),
    Agent(PathBuf, &'static str, Option<PathBuf>),
}

impl Key {
    fn of(start: &Start<'_>) -> Self {
        match *start {
            Start::Dir(dir) => Self::Dir(dir.to_path_buf()),
            Start::Agent {
                root,
                named_by,
                cwd,
            } => Self::Agent(root.to_path_buf(), named_by, cwd.map(Path::to_path_buf)),
        }
    }

    /// The folders whose way is walked: the start, and the call's folder below an agent's.
    fn folders(&self) -> Vec<&Path> {
        match self {
            Self::Dir(dir) => vec![dir],
            Self::Agent(root, _, cwd) => std::iter::once(root.as_path())
                .chain(cwd.as_deref())
                .collect(),
        }
    }
}

/// One kept walk.
#[derive(Debug)]
pub(super) struct Walked {
    paths: Paths,
    watched: Vec<Token>,
    moment: u64,
}

impl HookCache {
    /// The locations for `start`: kept, when nothing the walk looked at changed since, else
    /// `resolve`d now (and kept when the way can be watched).
    pub(crate) fn paths(
        &mut self,
        start: &Start<'_>,
        resolve: impl FnOnce() -> Result<Paths>,
    ) -> Result<Paths> {
        self.watch.drain();
        self.drained = true;
        let key = Key::of(start);
        if let Some(walked) = self.walks.get(&key)
            && !walked
                .watched
                .iter()
                .any(|token| self.watch.changed_since(*token, walked.moment))
        {
            return Ok(walked.paths.clone());
        }
        // Given back after the new watches are taken: a folder both ways share stays watched.
        let old = self.walks.remove(&key);
        // Watched before the walk: a change from now on is seen at the next request.
        let mut watched = Vec::new();
        let bound = key
            .folders()
            .into_iter()
            .all(|folder| way(&mut self.watch, folder, &mut watched))
            && {
                // Only whether it is a folder counts, which a symlink could change unseen.
                let managed = crate::ground::paths::managed_dir_path();
                along(&mut self.watch, &managed, &mut watched) && !is_link(&managed)
            };
        let moment = self.watch.now();
        if let Some(old) = old {
            release(&mut self.watch, old.watched);
        }
        let paths = resolve();
        match (&paths, bound) {
            (Ok(paths), true) => {
                if self.walks.len() >= STARTS_MAX {
                    for (_, old) in self.walks.drain() {
                        release(&mut self.watch, old.watched);
                    }
                }
                self.walks.insert(
                    key,
                    Walked {
                        paths: paths.clone(),
                        watched,
                        moment,
                    },
                );
            }
            _ => release(&mut self.watch, watched),
        }
        paths
    }
}

fn release(watch: &mut Watch, tokens: Vec<Token>) {
    for token in tokens {
        watch.release(token);
    }
}

/// The names of a plain absolute path (no `.`, `..` or prefix), else `None`.
fn names(path: &Path) -> Option<Vec<&std::ffi::OsStr>> {
    let mut parts = path.components();
    if parts.next() != Some(Component::RootDir) {
        return None;
    }
    parts
        .map(|part| match part {
            Component::Normal(name) => Some(name),
            _ => None,
        })
        .collect()
}

/// Watches `dir` for `names`, as a folder whose files' contents do not matter.
fn watch_for(
    watch: &mut Watch,
    dir: &Path,
    names: &[&std::ffi::OsStr],
    tokens: &mut Vec<Token>,
) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return false;
    };
    if !meta.is_dir() {
        return false;
    }
    let names = Names::Only(names.iter().map(|name| (*name).to_owned()).collect());
    match watch.add(dir, &names, (true, false), meta.dev()) {
        Some(token) => {
            tokens.push(token);
            true
        }
        None => false,
    }
}

/// Whether `path` is a symlink (which the walk would follow to where the watches cannot see).
fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink())
}

/// Watches every folder from `/` down to `folder` for the next name, `.agents` and `.git`,
/// and each `.agents` there for `hooks` and `rules.yaml`. False when the way is not one of
/// plain folders (a symlink, a missing folder, a relative path) or a watch is refused.
fn way(watch: &mut Watch, folder: &Path, tokens: &mut Vec<Token>) -> bool {
    let Some(names) = names(folder) else {
        return false;
    };
    let (agents, git) = (
        std::ffi::OsStr::new(".agents"),
        std::ffi::OsStr::new(".git"),
    );
    let mut dir = PathBuf::from("/");
    for at in 0..=names.len() {
        let next = names.get(at).copied();
        let looked: Vec<_> = next.into_iter().chain([agents, git]).collect();
        // The folder is watched before what is in it is looked at.
        if !watch_for(watch, &dir, &looked, tokens) {
            return false;
        }
        let dot_agents = dir.join(agents);
        if is_link(&dot_agents) || is_link(&dir.join(git)) {
            return false;
        }
        if std::fs::symlink_metadata(&dot_agents).is_ok_and(|meta| meta.is_dir()) {
            let inside = [
                std::ffi::OsStr::new("hooks"),
                std::ffi::OsStr::new(crate::ground::paths::RULES_FILE),
            ];
            if !watch_for(watch, &dot_agents, &inside, tokens)
                || inside.iter().any(|name| is_link(&dot_agents.join(name)))
            {
                return false;
            }
        }
        let Some(next) = next else { break };
        dir.push(next);
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            _ => return false,
        }
    }
    true
}

/// Watches every folder on the way to `path` for the next name, each before what is in it is
/// looked at (the path itself may be missing, or a file where a folder would be: the folder
/// above is watched for it). False for a path that is not absolute and plain, through a
/// symlink, past a folder that cannot be looked at, or where a watch is refused.
pub(super) fn along(watch: &mut Watch, path: &Path, tokens: &mut Vec<Token>) -> bool {
    let Some(names) = names(path) else {
        return false;
    };
    let mut dir = PathBuf::from("/");
    for (at, name) in names.iter().enumerate() {
        if !watch_for(watch, &dir, &[name], tokens) {
            return false;
        }
        if at + 1 == names.len() {
            break;
        }
        dir.push(name);
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(meta) if meta.file_type().is_symlink() => return false,
            Ok(_) => return true,
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return true;
            }
            Err(_) => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::fs;
    use std::path::Path;

    use super::super::watch::{Limit, Watch};
    use crate::cache::HookCache;
    use crate::ground::paths::{Locations, Paths, Start};

    /// The project found from `start` through `cache`, and whether the walk ran for it.
    fn found(cache: &mut HookCache, start: &Path) -> (Option<std::path::PathBuf>, bool) {
        let walked = Cell::new(false);
        let locations = Locations {
            hermes_home: Some(start),
            config: None,
            user_hooks: None,
            project: None,
        };
        let paths = cache
            .paths(&Start::Dir(start), || {
                walked.set(true);
                Paths::resolve_for(&locations, &Start::Dir(start))
            })
            .unwrap();
        (paths.project, walked.get())
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_project_made_moved_or_linked_on_the_way_is_found_at_the_next_call() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        let src = repo.join("src");
        let start = src.join("deep");
        fs::create_dir_all(&start).unwrap();
        fs::create_dir_all(repo.join(".git")).unwrap();
        let mut cache = HookCache::with(Watch::new(Limit::Chosen));
        assert_eq!(found(&mut cache, &start), (None, true));
        assert_eq!(found(&mut cache, &start), (None, false), "kept");
        // A rules file made in a folder on the way.
        fs::create_dir_all(src.join(".agents")).unwrap();
        fs::write(src.join(".agents/rules.yaml"), "rules: []\n").unwrap();
        assert_eq!(found(&mut cache, &start), (Some(src.clone()), true));
        assert_eq!(found(&mut cache, &start), (Some(src.clone()), false));
        // Files written beside it change nothing.
        fs::write(src.join("notes.txt"), "x").unwrap();
        fs::write(repo.join("build.log"), "x").unwrap();
        assert_eq!(found(&mut cache, &start), (Some(src.clone()), false));
        // `.agents` moved away, then back as a symlink: walked on every call from then on.
        fs::rename(src.join(".agents"), src.join("kept")).unwrap();
        assert_eq!(found(&mut cache, &start), (None, true));
        std::os::unix::fs::symlink(src.join("kept"), src.join(".agents")).unwrap();
        assert_eq!(found(&mut cache, &start), (Some(src.clone()), true));
        assert_eq!(
            found(&mut cache, &start),
            (Some(src.clone()), true),
            "not kept"
        );
        fs::remove_file(src.join(".agents")).unwrap();
        assert_eq!(found(&mut cache, &start), (None, true));
        assert_eq!(found(&mut cache, &start), (None, false));
        // `.git` removed: the walk goes on above the repository.
        fs::remove_dir(repo.join(".git")).unwrap();
        assert!(found(&mut cache, &start).1);
        // A folder on the way renamed and another made in its place.
        fs::rename(&repo, dir.path().join("old")).unwrap();
        fs::create_dir_all(src.join(".agents/hooks")).unwrap();
        fs::create_dir_all(&start).unwrap();
        assert_eq!(found(&mut cache, &start), (Some(src.clone()), true));
        assert_eq!(found(&mut cache, &start), (Some(src.clone()), false));
        // A folder's mode changed (its owner the same way).
        fs::set_permissions(&repo, fs::Permissions::from_mode(0o750)).unwrap();
        assert_eq!(found(&mut cache, &start), (Some(src.clone()), true));
        // The start itself removed: walked again, and not kept while it is missing.
        fs::remove_dir(&start).unwrap();
        assert!(found(&mut cache, &start).1);
        assert!(found(&mut cache, &start).1);
    }
}
