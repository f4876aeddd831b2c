//! Where project hooks are found (SPEC 2): from the payload's `cwd` (or `work_dir`) for `run`,
//! else the current directory, walking up to the nearest `.agents/hooks`, stopping at the
//! repository root, never `$HOME` or `/`; `list` and `doctor` name the root they used. A Hermes
//! home that was named and does not exist fails `doctor`. A project another user owns a folder
//! of is not found (the owner tests hand folders to another uid, which only root can: run
//! elsewhere, they say they are skipped).

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{
    OTHER_UID, TestEnv, code, give_away, give_away_all, output_of_copy, say_skipped, statuses,
    stderr,
};

/// A project guard in `<work>/.agents/hooks` that blocks every tool call, approved.
fn guarded(env: &TestEnv) {
    env.hook_md(
        &env.project_hooks(),
        "guard",
        "name: guard\ndescription: blocks\ntrigger: pre-tool-call\n",
        "cat >/dev/null; echo '{\"decision\": \"block\", \"reason\": \"guarded\"}'",
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

fn run_in(env: &TestEnv, dir: &std::path::Path, payload: &Value) -> std::process::Output {
    env.cmd()
        .current_dir(dir)
        .args(["run", "pre_tool_call"])
        .write_stdin(payload.to_string())
        .output()
        .unwrap()
}

#[test]
fn a_guard_applies_from_anywhere_in_its_project() {
    let env = TestEnv::new();
    guarded(&env);
    let deep = env.work().join("src/app");
    fs::create_dir_all(&deep).unwrap();
    let call = json!({"tool_name": "terminal", "args": {"command": "ls"}});
    let out = run_in(&env, &deep, &call);
    assert_eq!(code(&out), 2, "from a subdirectory: {}", stderr(&out));

    // The payload's cwd names the project, wherever `run` is started.
    let elsewhere = env.root().join("elsewhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let mut call_in = call.clone();
    call_in["cwd"] = json!(deep);
    assert_eq!(code(&run_in(&env, &elsewhere, &call_in)), 2);
    let mut agent_shaped = call.clone();
    agent_shaped["work_dir"] = json!(deep);
    assert_eq!(code(&run_in(&env, &elsewhere, &agent_shaped)), 2);
    // A cwd outside the project: its hooks are not this call's.
    let mut outside = call;
    outside["cwd"] = json!(elsewhere);
    let out = run_in(&env, &deep, &outside);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(statuses(&serde_json::from_slice(&out.stdout).unwrap()).is_empty());
}

#[test]
fn the_walk_stops_at_the_repository_root_and_never_takes_home() {
    let env = TestEnv::new();
    guarded(&env);
    let repo = env.work().join("vendor/lib");
    fs::create_dir_all(repo.join(".git")).unwrap();
    let inside = repo.join("src");
    fs::create_dir_all(&inside).unwrap();
    let call = json!({"tool_name": "terminal", "args": {"command": "ls"}});
    let out = run_in(&env, &inside, &call);
    assert_eq!(
        code(&out),
        0,
        "a hooks folder above the repository is not its: {}",
        stderr(&out)
    );

    // `$HOME/.agents/hooks` is never a project's.
    let home_hooks = env.home().join(".agents/hooks");
    fs::create_dir_all(&home_hooks).unwrap();
    let below_home = env.home().join("notes");
    fs::create_dir_all(&below_home).unwrap();
    let out = env
        .cmd()
        .current_dir(&below_home)
        .args(["list", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["project_root"], Value::Null, "{doc}");
}

#[test]
fn list_and_doctor_name_the_root_they_used() {
    let env = TestEnv::new();
    guarded(&env);
    let deep = env.work().join("src");
    fs::create_dir_all(&deep).unwrap();
    let work = env.work().display().to_string();
    let out = env
        .cmd()
        .current_dir(&deep)
        .args(["list", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["project_root"], work.as_str());
    assert_eq!(doc["hooks"][0]["name"], "guard");
    let out = env.cmd().current_dir(&deep).arg("list").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("Project: {work}")), "{text}");

    let out = env
        .cmd()
        .current_dir(&deep)
        .args(["doctor", "--json", "--no-exec"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["project_root"], work.as_str());
    let out = env
        .cmd()
        .current_dir(&deep)
        .args(["doctor", "--no-exec"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("Project: {work}")));
}

#[test]
fn a_named_hermes_home_that_does_not_exist_fails_doctor() {
    let env = TestEnv::new();
    let missing = env.root().join("no-such-home");
    let named = |args: &[&str]| {
        env.cmd()
            .arg("--hermes-home")
            .arg(&missing)
            .args(args)
            .output()
            .unwrap()
    };
    let out = named(&["doctor"]);
    assert_eq!(
        code(&out),
        1,
        "a CI gate must not pass having checked nothing"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("does not exist"));
    let out = env
        .cmd()
        .env("HERMES_HOME", &missing)
        .args(["doctor", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let out = named(&["list"]);
    assert_eq!(code(&out), 0);
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    let out = named(&["run", "on_session_start"]);
    assert_eq!(code(&out), 0, "run warns and goes on");
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
}

/// A harmless tool call.
fn call() -> Value {
    json!({"tool_name": "terminal", "args": {"command": "ls"}})
}

/// A `fail_closed` guard in `<root>/.agents/hooks` that is not approved (so it blocks every tool
/// call) and that, should it ever run, leaves `ran` behind.
fn planted_guard(env: &TestEnv, root: &Path) -> PathBuf {
    let ran = env.path("planted-hook-ran");
    env.hook_md(
        &root.join(".agents/hooks"),
        "planted",
        "name: planted\ndescription: not yours\ntrigger: pre-tool-call\nfail_closed: true\n",
        &format!("cat >/dev/null; touch '{}'", ran.display()),
    );
    ran
}

/// A `/tmp`-like shared folder (root's, writable by all, sticky) with another user's guard in its
/// `.agents/hooks`, and a checkout of yours below it without `.git`; `None` when this process
/// cannot hand folders to another user.
fn planted_above_a_checkout(env: &TestEnv) -> Option<(PathBuf, PathBuf, PathBuf)> {
    let shared = env.root().join("shared");
    fs::create_dir(&shared).unwrap();
    fs::set_permissions(&shared, fs::Permissions::from_mode(0o1777)).unwrap();
    let ran = planted_guard(env, &shared);
    if !give_away_all(&shared.join(".agents"), OTHER_UID) {
        return None;
    }
    let checkout = shared.join("me/checkout/src");
    fs::create_dir_all(&checkout).unwrap();
    Some((shared, checkout, ran))
}

#[test]
fn a_hooks_folder_another_user_planted_above_a_checkout_is_not_a_project() {
    let env = TestEnv::new();
    let Some((shared, checkout, ran)) = planted_above_a_checkout(&env) else {
        return;
    };
    let owner = format!("uid {OTHER_UID}");
    let out = run_in(&env, &checkout, &call());
    assert_eq!(
        code(&out),
        0,
        "another user's fail_closed guard blocks nothing of yours: {}",
        stderr(&out)
    );
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(statuses(&line).is_empty(), "{line}");
    let warning = stderr(&out);
    assert!(
        warning.contains(&owner) && warning.contains(&shared.join(".agents").display().to_string()),
        "the warning names the folder and its owner: {warning}"
    );

    // A bypass approves what is configured: another user's script is not, so it never runs as you.
    let out = env
        .cmd()
        .current_dir(&checkout)
        .env("HERMES_HOOKS_ACCEPT", "1")
        .args(["run", "pre_tool_call"])
        .write_stdin(call().to_string())
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!ran.exists(), "another user's hook ran as you");

    // `list` and `doctor` say so; for `doctor` it is an error.
    let out = env
        .cmd()
        .current_dir(&checkout)
        .args(["list", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["project_root"], Value::Null, "{doc}");
    assert_eq!(doc["project_skipped"]["root"], shared.display().to_string());
    assert_eq!(doc["project_skipped"]["uid"], OTHER_UID);
    let out = env
        .cmd()
        .current_dir(&checkout)
        .arg("list")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Project: none (skipped") && text.contains(&owner),
        "{text}"
    );
    assert!(stderr(&out).contains(&owner), "{}", stderr(&out));
    let out = env
        .cmd()
        .current_dir(&checkout)
        .args(["doctor", "--no-exec"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "a skipped project fails doctor");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("error") && text.contains(&owner), "{text}");
    let out = env
        .cmd()
        .current_dir(&checkout)
        .args(["doctor", "--no-exec", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["project_skipped"]["uid"], OTHER_UID, "{doc}");
    assert!(
        doc["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["level"] == "error" && f["check"] == "project"),
        "{doc}"
    );

    // Named with --project, it is trusted as named: its unapproved fail_closed guard blocks.
    let out = env
        .cmd()
        .current_dir(&checkout)
        .arg("--project")
        .arg(&shared)
        .args(["run", "pre_tool_call"])
        .write_stdin(call().to_string())
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(!stderr(&out).contains(&owner), "{}", stderr(&out));
}

/// Which folder of a project (its root, its start directory) is handed to another user.
type Owned = fn(&Path, &Path) -> PathBuf;

#[test]
fn every_folder_on_the_way_to_the_hooks_counts_and_symlinks_count_both_ways() {
    // Which folder another user owns: the hooks folder, `.agents`, the root, a folder between
    // the root and the start directory; a symlink made by another user, or leading to another
    // user's folder.
    let cases: [(&str, Owned); 6] = [
        ("the hooks folder", |root, _| root.join(".agents/hooks")),
        ("the .agents folder", |root, _| root.join(".agents")),
        ("the root", |root, _| root.to_path_buf()),
        ("a folder between", |root, _| root.join("src")),
        ("the start directory", |_, start| start.to_path_buf()),
        ("a symlinked .agents' target", |root, _| {
            let real = root.parent().unwrap().join("elsewhere");
            fs::rename(root.join(".agents"), &real).unwrap();
            std::os::unix::fs::symlink(&real, root.join(".agents")).unwrap();
            real
        }),
    ];
    for (what, owned) in cases {
        let env = TestEnv::new();
        let root = env.work().join("project");
        let start = root.join("src/app");
        fs::create_dir_all(&start).unwrap();
        planted_guard(&env, &root);
        let folder = owned(&root, &start);
        if !give_away(&folder, OTHER_UID) {
            return;
        }
        let out = run_in(&env, &start, &call());
        assert_eq!(code(&out), 0, "{what}: {}", stderr(&out));
        let said = stderr(&out);
        assert!(
            said.contains(&folder.display().to_string())
                && said.contains(&format!("is owned by uid {OTHER_UID}")),
            "{what}: {said}"
        );
    }

    // The link itself, made by another user, pointing at a folder of yours.
    let env = TestEnv::new();
    let root = env.work().join("project");
    fs::create_dir_all(&root).unwrap();
    planted_guard(&env, &root);
    let yours = env.work().join("yours");
    fs::rename(root.join(".agents"), &yours).unwrap();
    std::os::unix::fs::symlink(&yours, root.join(".agents")).unwrap();
    assert!(give_away(&root.join(".agents"), OTHER_UID));
    let out = run_in(&env, &root, &call());
    assert_eq!(code(&out), 0, "a link another user made: {}", stderr(&out));
    assert!(stderr(&out).contains("is owned by uid"), "{}", stderr(&out));
}

#[test]
fn a_hooks_folder_planted_inside_your_project_does_not_switch_off_its_guard() {
    let env = TestEnv::new();
    guarded(&env);
    let sub = env.work().join("uploads");
    fs::create_dir_all(sub.join(".agents/hooks")).unwrap();
    if !give_away_all(&sub.join(".agents"), OTHER_UID) {
        return;
    }
    let out = run_in(&env, &sub, &call());
    assert_eq!(
        code(&out),
        2,
        "the walk goes on past the skipped folder to your project: {}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains(&format!("uid {OTHER_UID}")),
        "{}",
        stderr(&out)
    );

    // Another user's folder above your project is not on the way: nothing is skipped.
    let env = TestEnv::new();
    guarded(&env);
    if !give_away(env.root(), OTHER_UID) {
        return;
    }
    let out = run_in(&env, &env.work(), &call());
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(!stderr(&out).contains("owned by"), "{}", stderr(&out));
}

#[test]
fn a_folder_owned_by_root_is_taken_by_any_user() {
    // As another user (4243), the folders the test made are root's: taken. Handed to that
    // user, they are theirs: taken. Handed to a third user, they are not.
    use std::os::unix::process::CommandExt as _;
    const USER: u32 = OTHER_UID + 1;
    let env = TestEnv::new();
    let root = env.work().join("project");
    fs::create_dir_all(&root).unwrap();
    planted_guard(&env, &root);
    if !rustix::process::geteuid().is_root() {
        say_skipped("only root can run the tool as another user to see root's folders");
        return;
    }
    fs::set_permissions(env.root(), fs::Permissions::from_mode(0o755)).unwrap();
    // The binary as built may sit where that user cannot reach it (a checkout inside a folder
    // of mode 0700, as `mktemp -d` makes): a copy beside the test's files can be reached.
    let bin = env.root().join("bin");
    fs::create_dir_all(&bin).unwrap();
    let copy = bin.join("hermes-hooks");
    fs::copy(assert_cmd::cargo::cargo_bin!("hermes-hooks"), &copy).unwrap();
    fs::set_permissions(&copy, fs::Permissions::from_mode(0o755)).unwrap();
    let project_as_user = || {
        let out = output_of_copy(
            env.std_cmd_of(&copy)
                .uid(USER)
                .gid(USER)
                .current_dir(&root)
                .args(["list", "--json"]),
        );
        let doc: Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)));
        (doc["project_root"].clone(), stderr(&out))
    };
    let (taken, said) = project_as_user();
    assert_eq!(taken, root.display().to_string(), "root's folders: {said}");
    assert!(give_away_all(&root.join(".agents"), USER));
    let (taken, said) = project_as_user();
    assert_eq!(taken, root.display().to_string(), "the user's own: {said}");
    assert!(give_away(&root.join(".agents/hooks"), OTHER_UID));
    let (taken, said) = project_as_user();
    assert_eq!(taken, Value::Null, "a third user's: {said}");
    assert!(said.contains(&format!("uid {OTHER_UID}")), "{said}");
}

/// Each agent's call from a directory that is not the project, with the variable that names it.
const CALLED_FROM_ELSEWHERE: [(&str, &str, Option<&str>, &str); 6] = [
    (
        "claude-code",
        "PreToolUse",
        Some("CLAUDE_PROJECT_DIR"),
        "Bash",
    ),
    (
        "gemini",
        "BeforeTool",
        Some("GEMINI_PROJECT_DIR"),
        "run_shell_command",
    ),
    ("cursor", "preToolUse", None, "Shell"),
    ("copilot", "preToolUse", Some("COPILOT_PROJECT_DIR"), "bash"),
    (
        "droid",
        "PreToolUse",
        Some("FACTORY_PROJECT_DIR"),
        "Execute",
    ),
    (
        "qwen",
        "PreToolUse",
        Some("QWEN_PROJECT_DIR"),
        "run_shell_command",
    ),
];

/// In an agent's mode the project is the agent's, not the model's (SPEC 2): the model's `cd`
/// into a folder it made (an empty `.agents/hooks`, a `.git` beside it, or a folder outside the
/// project) never takes the project's guard away. A nested folder's approved hooks are added,
/// and a nested hook named like the guard replaces nothing.
#[test]
fn the_models_cd_never_switches_a_project_guard_off() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "guard",
        "name: guard\ndescription: Refuses deletes\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        "grep -q 'rm -rf' && { echo 'deletes are not allowed here' >&2; exit 2; }; exit 0",
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // What the model made: a nested empty hooks folder, one with a .git, and one holding a
    // hook of the guard's name that lets everything through (approved, even).
    let empty = env.work().join("sub");
    fs::create_dir_all(empty.join(".agents/hooks")).unwrap();
    let repo = env.work().join("vendored");
    fs::create_dir_all(repo.join(".agents/hooks")).unwrap();
    fs::create_dir_all(repo.join(".git")).unwrap();
    let namesake = env.work().join("pkg");
    let added = env.path("nested-ran");
    env.hook_md(
        &namesake.join(".agents/hooks"),
        "guard",
        "name: guard\ndescription: Lets all through\ntrigger: pre-tool-call\n",
        &format!("touch {}; exit 0", added.display()),
    );
    let out = env
        .cmd()
        .current_dir(&namesake)
        .args(["approve", "--yes"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let outside = env.path("elsewhere");
    fs::create_dir_all(outside.join(".agents/hooks")).unwrap();
    let work = env.work();
    for cwd in [&empty, &repo, &namesake, &outside] {
        let call = |tool: &str| {
            json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": cwd,
                   "tool_name": tool, "tool_input": {"command": "rm -rf ../victim"},
                   "tool_use_id": "t1", "workspace_roots": [&work]})
        };
        for (agent, event, variable, tool) in CALLED_FROM_ELSEWHERE {
            let mut cmd = env.cmd();
            // Started where the agent starts hooks: its own directory, not the project.
            cmd.current_dir(env.home());
            if let Some(variable) = variable {
                cmd.env(variable, &work);
            }
            let out = cmd
                .args(["run", "--agent", agent, event])
                .write_stdin(call(tool).to_string())
                .output()
                .unwrap();
            let said = format!(
                "{agent} in {}: exit {}, stdout {}, stderr {}",
                cwd.display(),
                code(&out),
                String::from_utf8_lossy(&out.stdout),
                stderr(&out)
            );
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                stdout.contains("deny") || code(&out) == 2,
                "the project guard must still block: {said}"
            );
        }
    }
    assert!(!added.exists(), "the root's block stops the hooks after it");
    let harmless = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": &namesake,
                          "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let out = env
        .cmd()
        .current_dir(env.home())
        .env("CLAUDE_PROJECT_DIR", &work)
        .args(["run", "--agent", "claude-code", "PreToolUse"])
        .write_stdin(harmless.to_string())
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(added.exists(), "a nested project's approved hook is added");

    serve_keeps_the_named_project(&env, &empty);
}

/// The same through `serve`, with the project the caller names.
fn serve_keeps_the_named_project(env: &TestEnv, cwd: &Path) {
    let request = json!({"id": 1, "event": "pre_tool_call", "project_dir": env.work(),
        "payload": {"tool_name": "terminal", "cwd": cwd,
                    "tool_input": {"command": "rm -rf ../victim"}}});
    let out = env
        .cmd()
        .current_dir(env.home())
        .arg("serve")
        .write_stdin(format!("{request}\n"))
        .output()
        .unwrap();
    let line: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(line["action"], "block", "{line}");
}

/// The audit log says which project was used and why.
#[test]
fn the_audit_log_names_the_project_and_what_named_it() {
    let env = TestEnv::new();
    guarded(&env);
    let sub = env.work().join("sub");
    fs::create_dir_all(sub.join(".agents/hooks")).unwrap();
    let log = env.path("audit.jsonl");
    let call = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": &sub,
                      "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let out = env
        .cmd()
        .current_dir(env.home())
        .env("CLAUDE_PROJECT_DIR", env.work())
        .env("HERMES_HOOKS_AUDIT_LOG", &log)
        .args(["run", "--agent", "claude-code", "PreToolUse"])
        .write_stdin(call.to_string())
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let line: Value = serde_json::from_str(fs::read_to_string(&log).unwrap().trim()).unwrap();
    assert_eq!(line["project"], env.work().display().to_string(), "{line}");
    let from = line["project_from"].as_str().unwrap();
    assert!(from.contains("CLAUDE_PROJECT_DIR"), "{line}");
}
