//! The kept hook sets, their watches and what each change they see reads again.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

use super::{HookCache, Limit, Watch};
use crate::config::{Event, LoadOptions};

/// Sets a file's modification time an hour back (its change time moves to now).
fn age(path: &Path) {
    let file = fs::File::options().append(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(3600))
        .unwrap();
}

/// Waits until the files changed so far are past the window in which a change could leave
/// their stamps as they are, so a statted set is kept until something changes.
fn settle() {
    std::thread::sleep(Duration::from_millis(150));
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
                nested_hooks: &[],
                only: None,
                user_rules: None,
                project: None,
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
    settle();
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
    settle();
    assert_eq!(tree.get(&mut cache, "post_tool_call").0, 1);
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
    assert_eq!(argv(&mut cache), 2, "sh run.sh");
    settle();
    assert_eq!(argv(&mut cache), 2);
    assert!(!tree.cached(&mut cache, "post_tool_call").fresh, "kept");
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert_eq!(argv(&mut cache), 1, "run.sh itself");
}

#[test]
fn watched_sets_are_kept_until_a_file_changes() {
    kept_until_a_file_changes(HookCache::with(Watch::new(Limit::Chosen)));
}

#[test]
fn statted_sets_are_kept_until_a_file_changes() {
    kept_until_a_file_changes(HookCache::with(Watch::off()));
}

#[test]
fn a_file_changed_just_now_is_read_again_until_its_stamp_can_tell() {
    let tree = Tree::new();
    let mut cache = HookCache::with(Watch::off());
    settle();
    assert!(tree.get(&mut cache, "pre_tool_call").1);
    assert!(!tree.get(&mut cache, "pre_tool_call").1, "kept");
    fs::write(tree.config(), "hooks: {}\n").unwrap();
    assert!(tree.get(&mut cache, "pre_tool_call").1);
    // A second change within the same clock tick would leave the stamp as it is.
    assert!(tree.get(&mut cache, "pre_tool_call").1, "read again");
    settle();
    assert!(tree.get(&mut cache, "pre_tool_call").1);
    assert!(!tree.get(&mut cache, "pre_tool_call").1, "kept");
    // An old modification time does not make the file old: its change time is now.
    age(&tree.config());
    assert!(tree.get(&mut cache, "pre_tool_call").1);
    assert!(tree.get(&mut cache, "pre_tool_call").1, "read again");
    settle();
    assert!(tree.get(&mut cache, "pre_tool_call").1);
    assert!(!tree.get(&mut cache, "pre_tool_call").1, "kept");
}

#[test]
fn scripts_are_followed_where_the_loader_finds_them_past_a_symlink_and_dotdot() {
    use std::os::unix::fs::PermissionsExt as _;
    for watch in [Watch::new(Limit::Chosen), Watch::off()] {
        let mut cache = HookCache::with(watch);
        let tree = tempfile::tempdir().unwrap();
        let root = tree.path();
        // `link/..` is `deep` to the kernel and the root to the loader's text.
        fs::create_dir_all(root.join("deep/away")).unwrap();
        std::os::unix::fs::symlink(root.join("deep/away"), root.join("link")).unwrap();
        fs::create_dir_all(root.join("deep/hooks/audit")).unwrap();
        fs::write(
            root.join("deep/hooks/audit/HOOK.md"),
            "---\ntrigger: post-tool-call\n---\n",
        )
        .unwrap();
        fs::create_dir_all(root.join("hooks/audit/scripts")).unwrap();
        let run = root.join("hooks/audit/scripts/run.sh");
        fs::write(&run, "#!/bin/sh\n").unwrap();
        let config = root.join("config.yaml");
        let hooks = root.join("link/../hooks");
        let mut argv = || {
            let got = cache.get(
                LoadOptions {
                    config: &config,
                    managed: None,
                    dotenv: None,
                    user_hooks: Some(&hooks),
                    project_hooks: None,
                    nested_hooks: &[],
                    only: None,
                    user_rules: None,
                    project: None,
                },
                Event::parse("post_tool_call").unwrap().event,
            );
            got.set.unwrap().hooks[0].argv().unwrap().len()
        };
        settle();
        assert_eq!(argv(), 2, "sh run.sh");
        assert_eq!(argv(), 2);
        fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(argv(), 1, "run.sh itself");
    }
}

#[test]
#[cfg(target_os = "linux")]
fn a_folder_on_the_way_swapped_or_a_missing_one_made_is_seen_with_no_stat() {
    let outer = tempfile::tempdir().unwrap();
    let home = outer.path().join("home");
    let hooks = home.join("hooks");
    let later = outer.path().join("later").join("hooks");
    let hook = |hooks: &Path| {
        fs::create_dir_all(hooks.join("audit/scripts")).unwrap();
        fs::write(
            hooks.join("audit/HOOK.md"),
            "---\ntrigger: pre-tool-call\n---\n",
        )
        .unwrap();
    };
    hook(&hooks);
    let config = home.join("config.yaml");
    let dotenv = home.join(".env");
    let mut cache = HookCache::with(Watch::new(Limit::Chosen));
    let count = |cache: &mut HookCache| {
        let got = cache.get(
            LoadOptions {
                config: &config,
                managed: None,
                dotenv: Some(&dotenv),
                user_hooks: Some(&hooks),
                project_hooks: Some(&later),
                nested_hooks: &[],
                only: None,
                user_rules: None,
                project: None,
            },
            Event::parse("pre_tool_call").unwrap().event,
        );
        (got.set.unwrap().hooks.len(), got.fresh)
    };
    assert_eq!(count(&mut cache), (1, true));
    assert_eq!(count(&mut cache), (1, false), "kept");
    // Nothing is statted on a use: config.yaml and .env (missing), the hooks folder and the
    // one two levels from being made are all proven by watches on the folders above them.
    let statted: Vec<_> = cache
        .entries
        .values()
        .flat_map(|e| &e.deps.statted)
        .collect();
    assert!(statted.is_empty(), "{statted:?}");
    // A busy folder on the way (a log written beside the home) changes nothing.
    let log = outer.path().join("busy.log");
    for line in 0..50 {
        fs::write(&log, format!("{line}\n")).unwrap();
    }
    fs::write(home.join("notes.txt"), "x").unwrap();
    assert_eq!(
        count(&mut cache),
        (1, false),
        "kept through writes beside it"
    );
    // The folder above the hooks folder is swapped for another: no event reaches the old
    // hooks folder's own watch, but its name moved in the folder above.
    fs::rename(&home, outer.path().join("old")).unwrap();
    fs::create_dir_all(&hooks).unwrap();
    assert_eq!(count(&mut cache), (0, true), "the new folder has no hook");
    assert_eq!(count(&mut cache), (0, false));
    // A project hooks folder whose parent did not exist yet.
    hook(&later);
    assert_eq!(count(&mut cache), (1, true), "made where it was missing");
    // A folder on the way made a symlink: statted from then on.
    fs::rename(&home, outer.path().join("older")).unwrap();
    std::os::unix::fs::symlink(outer.path().join("old"), &home).unwrap();
    assert_eq!(
        count(&mut cache),
        (2, true),
        "the first hooks folder is back, by a link"
    );
    let statted = cache.entries.values().flat_map(|e| &e.deps.statted).count();
    assert!(statted > 0, "a path through a symlink is statted");
}

#[test]
#[cfg(target_os = "linux")]
fn watches_no_set_uses_are_given_back() {
    let tree = Tree::new();
    let mut cache = HookCache::with(Watch::new(Limit::Chosen));
    assert_eq!(tree.get(&mut cache, "pre_tool_call").0, 1);
    assert_eq!(tree.get(&mut cache, "post_tool_call").0, 0);
    // Every folder on the way to config.yaml and the hooks folder (the tree's folder
    // included); config.yaml; the hooks folder, the hook folder, its HOOK.md and scripts/.
    let along = tree.dir.path().ancestors().count();
    assert_eq!(cache.watch.len(), along + 5);
    fs::create_dir_all(tree.hooks().join("second/scripts")).unwrap();
    fs::write(tree.hooks().join("second/HOOK.md"), "").unwrap();
    assert_eq!(tree.get(&mut cache, "pre_tool_call").0, 1);
    assert_eq!(
        cache.watch.len(),
        along + 8,
        "the old set gave back what both use"
    );
    fs::remove_dir_all(tree.hooks().join("second")).unwrap();
    fs::remove_dir_all(tree.hooks().join("audit")).unwrap();
    assert_eq!(tree.get(&mut cache, "pre_tool_call").0, 0);
    // The post_tool_call set still holds what is left of its folders: none is left.
    assert_eq!(
        cache.watch.len(),
        along + 2,
        "config.yaml and the hooks folder"
    );
    assert_eq!(tree.get(&mut cache, "post_tool_call").0, 0);
    assert_eq!(cache.watch.len(), along + 2);
    assert!(cache.notice().is_none());
}

#[test]
#[cfg(target_os = "linux")]
fn past_the_watch_limit_files_are_statted_and_that_is_said_once() {
    let tree = Tree::new();
    let mut cache = HookCache::with(Watch::new(Limit::Named(2)));
    settle();
    assert_eq!(tree.get(&mut cache, "pre_tool_call"), (1, true));
    assert_eq!(cache.watch.len(), 2);
    let notice = cache.notice().unwrap();
    assert!(
        notice.contains("2 files and folders are watched"),
        "{notice}"
    );
    assert_eq!(tree.get(&mut cache, "pre_tool_call"), (1, false), "kept");
    // HOOK.md is past the limit: its stat tells.
    tree.manifest("post-tool-call");
    age(&tree.hooks().join("audit/HOOK.md"));
    assert_eq!(tree.get(&mut cache, "pre_tool_call"), (0, true));
    assert!(cache.notice().is_none(), "said once");
}

#[test]
#[cfg(target_os = "linux")]
fn a_folder_kept_where_it_is_is_asked_again_once_its_way_changes() {
    let outer = tempfile::tempdir().unwrap();
    let outer = outer.path().canonicalize().unwrap();
    let project = outer.join("work/project");
    let later = outer.join("later/hooks");
    fs::create_dir_all(&project).unwrap();
    let mut cache = HookCache::with(Watch::new(Limit::Chosen));
    // What the kernel would say each time, and whether the cache kept an answer.
    let ask = |cache: &mut HookCache, folder: &Path| {
        cache.watch.drain();
        let real = cache.real_folder(folder).ok();
        (real, cache.places.contains_key(folder))
    };
    assert_eq!(ask(&mut cache, &project), (Some(project.clone()), true));
    assert_eq!(
        ask(&mut cache, &later),
        (None, true),
        "missing, and kept so"
    );
    // The project moved away and its name made a link to where it went.
    let moved = outer.join("elsewhere");
    fs::rename(&project, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &project).unwrap();
    assert_eq!(
        ask(&mut cache, &project),
        (Some(moved.clone()), false),
        "behind a link: asked of the kernel on every call"
    );
    assert_eq!(ask(&mut cache, &project), (Some(moved), false));
    // A folder above it swapped the same way.
    fs::remove_file(&project).unwrap();
    fs::create_dir_all(&project).unwrap();
    assert_eq!(ask(&mut cache, &project), (Some(project.clone()), true));
    let work = outer.join("work");
    let old = outer.join("old-work");
    fs::rename(&work, &old).unwrap();
    std::os::unix::fs::symlink(&old, &work).unwrap();
    assert_eq!(
        ask(&mut cache, &project),
        (Some(old.join("project")), false),
        "a folder on the way made a link"
    );
    // The missing folder made, as a link.
    fs::create_dir_all(outer.join("later")).unwrap();
    std::os::unix::fs::symlink(&old, &later).unwrap();
    assert_eq!(
        ask(&mut cache, &later),
        (Some(old), false),
        "made, by a link"
    );
}
