//! Where project hooks are found (SPEC 2): from the payload's `cwd` (or `work_dir`) for `run`,
//! else the current directory, walking up to the nearest `.agents/hooks`, stopping at the
//! repository root, never `$HOME` or `/`; `list` and `doctor` name the root they used. A Hermes
//! home that was named and does not exist fails `doctor`.

use std::fs;

use serde_json::{Value, json};

use crate::common::{TestEnv, code, statuses, stderr};

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
