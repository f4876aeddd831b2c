//! `revoke <command>`: removes matching approvals, says how many, exit 1 when none matched, never
//! touches a corrupt file.

use crate::common::{TestEnv, code, stderr};

#[test]
fn removes_every_event_or_one() {
    let env = TestEnv::new();
    env.approve("pre_tool_call", "/h/a.sh");
    env.approve("on_session_start", "/h/a.sh");
    env.approve("pre_tool_call", "/h/b.sh");
    let out = env
        .cmd()
        .args(["revoke", "/h/a.sh", "--event", "pre-tool-call"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Removed 1 approval of '/h/a.sh'.\n"
    );
    let out = env
        .cmd()
        .args(["rm", "/h/a.sh", "--json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["removed"], 1);
    let left = commands(&env);
    assert_eq!(left, ["/h/b.sh"]);
}

#[test]
fn nothing_matched_is_exit_1_and_writes_nothing() {
    let env = TestEnv::new();
    let out = env.cmd().args(["revoke", "/h/none.sh"]).output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("no approval of '/h/none.sh'"),
        "{}",
        stderr(&out)
    );
    assert!(!env.allowlist_path().exists(), "no file created");
    let out = env
        .cmd()
        .args(["revoke", "/h/none.sh", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        doc["removed"], 0,
        "--json says what happened even then: {doc}"
    );

    std::fs::write(env.allowlist_path(), "{broken").unwrap();
    let out = env.cmd().args(["remove", "/h/none.sh"]).output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("not a valid allowlist"));
    assert_eq!(
        std::fs::read_to_string(env.allowlist_path()).unwrap(),
        "{broken"
    );
}

#[test]
fn a_name_that_begins_with_a_dash_is_taken_as_a_name_after_two_dashes() {
    let env = TestEnv::new();
    env.approve("pre_tool_call", "--yes");
    env.approve("pre_tool_call", "/h/b.sh");
    let out = env.cmd().args(["revoke", "--", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let left = commands(&env);
    assert_eq!(left, ["/h/b.sh"]);
    // After `--`, `approve` looks for a hook of that name; it approves nothing else.
    env.script("guard.sh", "exit 0");
    env.config("hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/guard.sh\n");
    let out = env
        .cmd()
        .args(["approve", "--yes", "--", "--all"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("no hook"), "{}", stderr(&out));
    assert_eq!(env.approvals().len(), 1);
}

#[test]
fn a_hook_whose_folder_is_gone_is_revoked_by_its_name() {
    let env = TestEnv::new();
    let gone = env.hook_md(
        &env.project_hooks(),
        "guard-x",
        "name: guard-x\ndescription: Goes away.\ntrigger: pre-tool-call\n",
        "exit 0",
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The same name elsewhere, still there (another project's, say): not this revoke's.
    let elsewhere = env
        .home()
        .join("elsewhere/.agents/hooks/guard-x/scripts/run");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    std::fs::write(&elsewhere, "#!/bin/sh\n").unwrap();
    env.approve("pre_tool_call", elsewhere.to_str().unwrap());
    std::fs::remove_dir_all(gone.parent().unwrap().parent().unwrap()).unwrap();
    let out = env.cmd().args(["revoke", "guard-x"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let left = commands(&env);
    assert_eq!(left, [elsewhere.display().to_string()]);
}

/// The commands the allowlist approves.
fn commands(env: &TestEnv) -> Vec<String> {
    env.approvals()
        .iter()
        .map(|e| e["command"].as_str().unwrap().to_owned())
        .collect()
}
