//! Hermes parity through the command line: what Hermes would see of a config (managed scope,
//! `${VAR}` and `.env`), what it would write (the mtime string, the allowlist's bytes), and what
//! a hook receives and may answer (big integers, Python's JSON extensions).

use std::fs;
use std::process::Command;

use serde_json::Value;

use crate::common::{TestEnv, code, json, stderr};

#[test]
fn managed_hooks_run_and_list_says_where_they_are_declared() {
    let env = TestEnv::new();
    let marker = env.path("managed-ran");
    let audit = env.script("audit.sh", &format!("touch {}", marker.display()));
    let mine = env.script("mine.sh", "printf '{}'");
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: {}\n",
        mine.display()
    ));
    let managed = env.managed_config(&format!(
        "hooks:\n  on_session_start:\n    - command: {}\n",
        audit.display()
    ));
    env.approve("on_session_start", &audit.display().to_string());
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let hooks = json(&out)["hooks"].as_array().unwrap().clone();
    assert_eq!(
        hooks.len(),
        1,
        "the managed list replaces the user's: {hooks:?}"
    );
    assert!(marker.exists());
    assert!(
        stderr(&out).contains("hooks.on_session_start is replaced by the managed config's"),
        "{}",
        stderr(&out)
    );

    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["managed_config"], managed.display().to_string());
    let row = &doc["hooks"][0];
    assert_eq!(row["scope"], "managed");
    assert_eq!(row["declared_at"], format!("{}:3", managed.display()));
    let out = env
        .cmd()
        .args(["list", "--color", "never"])
        .env("COLUMNS", "200")
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("config (managed)"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn variables_come_from_the_environment_then_dotenv() {
    let env = TestEnv::new();
    let marker = env.path("guard-ran");
    let guard = env.script("guard.sh", &format!("touch {}", marker.display()));
    let dir = guard.parent().unwrap().display().to_string();
    env.config("hooks:\n  on_session_start:\n    - command: ${GUARDS}/guard.sh\n");
    fs::write(env.hermes_home().join(".env"), format!("GUARDS={dir}\n")).unwrap();
    // The approval key is the expanded command, as in Hermes.
    let expanded = format!("{dir}/guard.sh");
    env.approve("on_session_start", &expanded);
    let out = env.run("on_session_start", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["hooks"][0]["command"], expanded);
    assert!(marker.exists());
    // The process environment wins over .env.
    let out = env
        .cmd()
        .args(["run", "on_session_start"])
        .env("GUARDS", "/nowhere")
        .write_stdin("{}")
        .output()
        .unwrap();
    assert_eq!(json(&out)["hooks"][0]["command"], "/nowhere/guard.sh");
}

#[test]
fn big_integers_reach_the_hook_with_their_digits() {
    let env = TestEnv::new();
    let seen = env.path("seen.json");
    let hook = env.script("see.sh", &format!("cat > {}", seen.display()));
    env.one_approved_hook(&hook);
    let out = env.run(
        "pre_tool_call",
        r#"{"tool_name": "t", "args": {"n": 100000000000000000000, "m": -98765432109876543210987, "f": 1E5, "g": 2.50}, "x": NaN}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = fs::read_to_string(&seen).unwrap();
    assert!(
        text.contains(r#""tool_input": {"n": 100000000000000000000, "m": -98765432109876543210987, "f": 100000.0, "g": 2.5}"#),
        "{text}"
    );
    assert!(
        text.contains(r#""x": null"#),
        "NaN from the agent is read as Python reads it: {text}"
    );
}

#[test]
fn python_json_extensions_in_an_answer_are_valid() {
    let env = TestEnv::new();
    let hook = env.script(
        "nan.sh",
        r#"cat >/dev/null; printf '{"decision": "block", "reason": "no", "score": NaN, "limit": Infinity}'"#,
    );
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n      fail_closed: true\n",
        hook.display()
    ));
    env.approve("pre_tool_call", &hook.display().to_string());
    let out = env.run("pre_tool_call", r#"{"tool_name": "t"}"#);
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(line["hooks"][0]["status"], "blocked");
    assert_eq!(line["message"], "no");
}

#[test]
fn approvals_record_the_mtime_string_hermes_computes() {
    let env = TestEnv::new();
    let script = env.script("g.sh", "printf '{}'");
    // 58.9999995 s: Python rounds the float to the next second; truncating would say .999999.
    let touched = Command::new("touch")
        .args(["-d", "2026-04-17 09:29:58.9999995 UTC"])
        .arg(&script)
        .status()
        .unwrap();
    assert!(touched.success());
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: {}\n",
        script.display()
    ));
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let entry = &env.approvals()[0];
    assert_eq!(entry["script_mtime_at_approval"], "2026-04-17T09:29:59Z");
}

#[test]
fn the_allowlist_is_written_as_python_writes_it() {
    let env = TestEnv::new();
    let script = env.script("garde-é.sh", "printf '{}'");
    env.config(&format!(
        "hooks:\n  on_session_start:\n    - command: {}\n",
        script.display()
    ));
    fs::write(
        env.allowlist_path(),
        "{\"approvals\": [], \"note\": \"caf\u{e9} \u{1F600}\", \"n\": 1.50}",
    )
    .unwrap();
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let bytes = fs::read(env.allowlist_path()).unwrap();
    assert!(bytes.is_ascii(), "non-ASCII is written as \\uXXXX escapes");
    let text = String::from_utf8(bytes).unwrap();
    assert!(
        text.contains(r#""note": "caf\u00e9 \ud83d\ude00""#),
        "{text}"
    );
    assert!(text.contains("garde-\\u00e9.sh"), "{text}");
    assert!(text.contains("\"n\": 1.5,"), "{text}");
    assert!(
        text.starts_with("{\n  \"approvals\": [\n    {\n      \"approved_at\": "),
        "{text}"
    );
    assert!(!text.ends_with('\n'), "no trailing newline, as json.dumps");
}

#[test]
fn the_bridge_never_calls_itself_and_leaves_config_hooks_to_hermes() {
    let env = TestEnv::new();
    let marker = env.path("config-hook-ran");
    let other = env.script("other.sh", &format!("touch {}", marker.display()));
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: hermes-hooks run pre_tool_call\n    - command: {}\n",
        other.display()
    ));
    env.hook_md(
        &env.user_hooks(),
        "no-rm",
        "name: no-rm\ndescription: d\ntrigger: pre-tool-call\n",
        "cat >/dev/null; echo 'rm is not allowed' >&2; exit 2",
    );
    // The bridge itself cannot be pinned here (`hermes-hooks` is not on this test's PATH); the
    // Agent Hooks hook is approved.
    env.cmd().args(["approve", "--yes"]).output().unwrap();
    let out = env.run(
        "pre_tool_call",
        r#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "rm -rf /"}, "session_id": "s", "cwd": "/", "extra": {}}"#,
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(line["message"], "rm is not allowed");
    let hooks = line["hooks"].as_array().unwrap();
    assert_eq!(hooks[0]["status"], "not_run");
    assert!(
        hooks[0]["message"]
            .as_str()
            .unwrap()
            .contains("would call itself")
    );
    assert_eq!(hooks[1]["status"], "not_run");
    assert!(
        hooks[1]["message"]
            .as_str()
            .unwrap()
            .starts_with("left to Hermes")
    );
    assert_eq!(hooks[2]["status"], "blocked");
    assert!(!marker.exists(), "Hermes runs its config hooks itself");
}
