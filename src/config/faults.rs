//! The loading path under fault injection: for every N that a load reaches, the Nth file system
//! call fails ("too many open files"), and the load must still give every hook it could read
//! and name each file it could not, never fewer hooks in silence, and never panic.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use super::{Event, LoadOptions, load};
use crate::ground::fault;

fn hook_folder(level: &Path, name: &str) {
    let folder = level.join(name);
    fs::create_dir_all(folder.join("scripts")).unwrap();
    fs::write(
        folder.join("HOOK.md"),
        format!(
            "---\nname: {name}\ndescription: A guard\ntrigger: pre-tool-call\nfail_closed: true\n---\n"
        ),
    )
    .unwrap();
    let run = folder.join("scripts/run");
    fs::write(&run, "#!/bin/sh\nexit 0\n").unwrap();
    fs::set_permissions(&run, fs::Permissions::from_mode(0o755)).unwrap();
}

/// A config hook, two user hooks, two project hooks and a nested project's hook; beside them a
/// file and a folder that are not hooks.
fn tree(root: &Path) -> (PathBuf, PathBuf, PathBuf, Vec<PathBuf>) {
    let config = root.join("config.yaml");
    fs::write(
        &config,
        "hooks:\n  pre_tool_call:\n    - command: /bin/true\n      fail_closed: true\n",
    )
    .unwrap();
    let user = root.join("user");
    hook_folder(&user, "alpha");
    hook_folder(&user, "beta");
    fs::write(user.join("README"), "not a hook").unwrap();
    fs::create_dir_all(user.join("notes")).unwrap();
    let project = root.join("project");
    hook_folder(&project, "gamma");
    hook_folder(&project, "delta");
    let nested = root.join("nested");
    hook_folder(&nested, "epsilon");
    (config, user, project, vec![nested])
}

#[test]
fn every_failed_call_while_loading_is_an_error_naming_a_path_never_fewer_hooks() {
    let dir = tempfile::tempdir().unwrap();
    let (config, user, project, nested) = tree(dir.path());
    let dotenv = dir.path().join(".env");
    for only in [None, Some(Event::parse("pre_tool_call").unwrap().event)] {
        let options = LoadOptions {
            config: &config,
            managed: None,
            dotenv: Some(&dotenv),
            user_hooks: Some(&user),
            project_hooks: Some(&project),
            nested_hooks: &nested,
            only,
            user_rules: None,
            project: None,
        };
        fault::plan(None);
        let whole = load(options).unwrap();
        let calls = fault::calls();
        assert_eq!(whole.hooks.len(), 6, "{:?}", whole.warnings);
        assert!(whole.errors.is_empty(), "{:?}", whole.errors);
        assert!(calls > 6, "the loader's calls are counted: {calls}");
        for fail_at in 1..=calls {
            fault::plan(Some(fail_at));
            let got = std::panic::catch_unwind(|| load(options));
            fault::plan(None);
            let set = got
                .unwrap_or_else(|_| panic!("call {fail_at} of {calls} failing made the load panic"))
                .unwrap_or_else(|err| panic!("call {fail_at}: {err}"));
            if set.hooks.len() < whole.hooks.len() {
                assert!(
                    !set.errors.is_empty(),
                    "call {fail_at} of {calls} failing lost hooks in silence: {} of {} loaded, \
                     warnings {:?}",
                    set.hooks.len(),
                    whole.hooks.len(),
                    set.warnings
                );
                for error in &set.errors {
                    let file = error.origin.file.display().to_string();
                    assert!(
                        file.starts_with(&dir.path().display().to_string()),
                        "call {fail_at}: the error names the path: {error}"
                    );
                }
            }
        }
    }
}
