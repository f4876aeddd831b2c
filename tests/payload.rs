//! The payload: either input shape in, the exact Hermes wire bytes out; empty stdin, a terminal on
//! stdin, and bad JSON behave as the contract says.

use std::fs;
use std::time::Instant;

use crate::common::{MAX_DEPTH, PROMPTLY, TestEnv, code, json, nested, statuses, stderr};

/// A hook that saves its stdin, cwd and `HERMES_HOOK_EVENT` next to the test root.
fn recorder(env: &TestEnv) -> String {
    let out = env.path("stdin.json").display().to_string();
    let meta = env.path("meta.txt").display().to_string();
    let hook = env.script(
        "record.sh",
        &format!("cat > '{out}'\nprintf '%s\\n%s\\n' \"$(pwd)\" \"$HERMES_HOOK_EVENT\" > '{meta}'\nprintf '{{}}'"),
    );
    let command = hook.display().to_string();
    env.config(&format!("hooks:\n  pre_tool_call:\n    - command: {command}\n  subagent_stop:\n    - command: {command}\n"));
    env.approve("pre_tool_call", &command);
    env.approve("subagent_stop", &command);
    out
}

#[test]
fn kwargs_shape_reaches_the_hook_as_the_hermes_wire_payload() {
    let env = TestEnv::new();
    let saved = recorder(&env);
    let out = env.run(
        "pre_tool_call",
        r#"{"tool_name": "terminal", "args": {"command": "echo héllo"}, "session_id": "s1", "task_id": "t1", "tool_call_id": "c1", "cwd": "/"}"#,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(&saved).unwrap(),
        r#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "echo héllo"}, "session_id": "s1", "cwd": "/", "profile": "default", "extra": {"task_id": "t1", "tool_call_id": "c1"}}"#
    );
    let meta = fs::read_to_string(env.path("meta.txt")).unwrap();
    assert_eq!(
        meta, "/\npre_tool_call\n",
        "cwd is the payload's; HERMES_HOOK_EVENT is canonical"
    );
}

#[test]
fn wire_shape_passes_through_byte_for_byte() {
    let env = TestEnv::new();
    let saved = recorder(&env);
    let wire = r#"{"hook_event_name": "pre_tool_call", "tool_name": "write_file", "tool_input": {"path": "a.py", "n": 1.5}, "session_id": "s2", "cwd": "/tmp", "profile": "work", "extra": {"task_id": "t"}}"#;
    let out = env.run("pre-tool-call", wire);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&saved).unwrap(), wire);
}

#[test]
fn a_payload_too_large_for_memory_reaches_the_hook_whole() {
    let env = TestEnv::new();
    let saved = recorder(&env);
    // Larger than what is fed from memory, with escapes and non-ASCII along the way.
    let content = r#"line \"é\"\n"#.repeat(100_000);
    let wire = format!(
        r#"{{"hook_event_name": "pre_tool_call", "tool_name": "write_file", "tool_input": {{"path": "a.txt", "content": "{content}"}}, "session_id": "s", "cwd": "/", "profile": "default", "extra": {{}}}}"#
    );
    assert!(wire.len() > hermes_hooks::SPOOL_LIMIT);
    let out = env.run("pre_tool_call", &wire);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        fs::read_to_string(&saved).unwrap() == wire,
        "the hook reads the same bytes"
    );
}

#[test]
fn empty_stdin_is_an_empty_payload() {
    let env = TestEnv::new();
    let saved = recorder(&env);
    let out = env.run("subagent_stop", "");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let wire = fs::read_to_string(&saved).unwrap();
    let cwd = env.work().display().to_string();
    assert_eq!(
        wire,
        format!(
            r#"{{"hook_event_name": "subagent_stop", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "{cwd}", "profile": "default", "extra": {{}}}}"#
        )
    );
}

#[test]
fn a_terminal_on_stdin_is_not_waited_on() {
    let env = TestEnv::new();
    recorder(&env);
    let (_master, tty) = crate::common::pty_pair();
    let started = Instant::now();
    let out = env
        .std_cmd()
        .args(["run", "pre_tool_call"])
        .stdin(tty)
        .output()
        .unwrap();
    assert!(started.elapsed() < PROMPTLY);
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out).contains("stdin is a terminal"),
        "{}",
        stderr(&out)
    );
    assert_eq!(statuses(&json(&out)), ["ok"]);
}

#[test]
fn invalid_json_gives_line_and_column_and_exit_1() {
    let env = TestEnv::new();
    recorder(&env);
    let out = env.run(
        "pre_tool_call",
        "{\n  \"tool_name\": \"terminal\",\n  oops\n}",
    );
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("line 3 column 3"), "{}", stderr(&out));
    let line = json(&out);
    assert_eq!(line["event"], "pre_tool_call");
    assert!(line["error"].as_str().unwrap().contains("line 3 column 3"));
    assert!(!env.path("stdin.json").exists(), "no hook ran");

    let out = env.run("pre_tool_call", "[1, 2]");
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("must be a JSON object, not an array"));
}

#[test]
fn payload_file_and_dash() {
    let env = TestEnv::new();
    let saved = recorder(&env);
    let file = env.path("p.json");
    fs::write(&file, r#"{"tool_name": "from-file"}"#).unwrap();
    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--payload-file"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    assert!(
        fs::read_to_string(&saved)
            .unwrap()
            .contains(r#""tool_name": "from-file""#)
    );

    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--payload-file", "-"])
        .write_stdin(r#"{"tool_name": "dash"}"#)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    assert!(
        fs::read_to_string(&saved)
            .unwrap()
            .contains(r#""tool_name": "dash""#)
    );

    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--payload-file", "missing.json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("cannot read payload file missing.json"),
        "{}",
        stderr(&out)
    );
}

/// A call whose arguments nest `levels` levels inside the payload (the payload itself and its
/// `args` are two more), with `rm -rf /` at the bottom.
fn deep_call(levels: usize) -> String {
    format!(
        r#"{{"tool_name":"terminal","args":{{"command":"ls","x":{}}}}}"#,
        nested(levels, r#""rm -rf /""#, "")
    )
}

#[test]
fn a_guard_sees_arguments_nested_as_deep_as_python_reads_them() {
    // A config guard that reads its stdin, and an Agent Hooks guard matched by pattern.
    let env = TestEnv::new();
    let saved = env.path("stdin.json");
    let guard = env.script(
        "guard.sh",
        &format!(
            "cat > '{}'; grep -q 'rm -rf' '{}' && exit 2; exit 0",
            saved.display(),
            saved.display()
        ),
    );
    let command = guard.display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {command}\n"
    ));
    env.approve("pre_tool_call", &command);
    let out = env.run("pre_tool_call", &deep_call(MAX_DEPTH - 2));
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["blocked"]);
    // Byte for byte as Hermes writes it, at every level.
    assert_eq!(
        fs::read_to_string(&saved).unwrap(),
        format!(
            r#"{{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {{"command": "ls", "x": {}}}, "session_id": "", "cwd": "{}", "profile": "default", "extra": {{}}}}"#,
            nested(MAX_DEPTH - 2, r#""rm -rf /""#, " "),
            env.work().display()
        )
    );

    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "no-rm",
        "name: no-rm\ndescription: d\ntrigger: pre-tool-call\nmatcher:\n  pattern: 'rm -rf'\n",
        "cat >/dev/null; exit 2",
    );
    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--accept-hooks"])
        .write_stdin(deep_call(MAX_DEPTH - 2))
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["blocked"]);
}

#[test]
fn a_payload_nested_deeper_than_python_reads_is_a_payload_error_that_says_so() {
    let env = TestEnv::new();
    let saved = recorder(&env);
    for levels in [MAX_DEPTH - 1, 100_000, 1_000_000] {
        let out = env.run("pre_tool_call", &deep_call(levels));
        let err = stderr(&out);
        assert_eq!(code(&out), 1, "{levels}: {err}");
        let line = json(&out);
        assert_eq!(line["event"], "pre_tool_call");
        let error = line["error"].as_str().unwrap();
        // Level 1,001: the 999th bracket below `"x":` (at byte 51), after 499 `[` and 499 `{"k":`.
        assert!(
            error.contains("payload is nested deeper than 1000 levels (at line 1 column 3046)"),
            "{levels}: {error}"
        );
        assert!(err.contains("nested deeper than 1000 levels"), "{err}");
        assert!(!std::path::Path::new(&saved).exists(), "no hook ran");
    }
}

#[test]
fn a_payload_without_a_profile_names_the_hermes_homes_profile() {
    // hermes_cli/profiles.py get_active_profile_name: `<root>/profiles/<name>` is `<name>`,
    // `~/.hermes` is `default`, another folder under it `custom`.
    let env = crate::common::TestEnv::new();
    let seen = env.path("seen.json");
    let hook = env.script("look.sh", &format!("cat > '{}'", seen.display()));
    let work = env.home().join(".hermes/profiles/work");
    let sandbox = env.home().join(".hermes/sandbox");
    for (home, profile) in [
        (env.hermes_home(), "default"),
        (work, "work"),
        (sandbox, "custom"),
    ] {
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(
            home.join("config.yaml"),
            format!(
                "hooks:\n  on_session_start:\n    - command: {}\n",
                hook.display()
            ),
        )
        .unwrap();
        let out = env
            .cmd()
            .env("HERMES_HOME", &home)
            .args(["--accept-hooks", "run", "on_session_start"])
            .write_stdin("{}")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let got: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
        assert_eq!(got["profile"], profile, "{}", home.display());
    }
    // A profile the payload names is kept.
    let out = env
        .cmd()
        .args(["--accept-hooks", "run", "on_session_start"])
        .write_stdin(r#"{"profile": "mine"}"#)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let got: serde_json::Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(got["profile"], "mine");
}
