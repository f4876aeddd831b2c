//! Loading a real Hermes config.yaml: warnings name file and line and never stop other hooks;
//! only invalid YAML or a `hooks` that is not a mapping is an error.

use crate::common::{TestEnv, code, json, statuses, stderr};

const OK: &str = "cat >/dev/null; printf '{}'";

#[test]
fn warnings_name_file_and_line_and_the_rest_still_loads() {
    let env = TestEnv::new();
    let ok = env.script("ok.sh", OK).display().to_string();
    env.config(&format!(
        "model: gpt-4\nterminal:\n  backend: local\nhooks:\n  pre_tools_call:\n    - command: {ok}\n  pre_tool_call:\n    - 42\n    - matcher: terminal\n    - command: {ok}\n      timeout: 9999\n      color: blue\n    - command: {ok} b\n      matcher: 'foo[bar'\n  pre_llm_call:\n    - command: {ok}\n      matcher: terminal\n"
    ));
    let config = env.hermes_home().join("config.yaml").display().to_string();
    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--accept-hooks"])
        .write_stdin(r#"{"tool_name":"foo[bar"}"#)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let err = stderr(&out);
    for expected in [
        format!("{config}:5: unknown event 'pre_tools_call' (did you mean 'pre_tool_call'?)"),
        format!(
            "{config}:8: hooks.pre_tool_call[0] must be a mapping with a 'command' key; got int"
        ),
        format!("{config}:9: hooks.pre_tool_call[1] is missing a non-empty 'command' field"),
        format!(
            "{config}:10: hooks.pre_tool_call[2].timeout=9999s exceeds the maximum; clamped to 300s"
        ),
        format!("{config}:13: hooks.pre_tool_call[3].matcher 'foo[bar' is not a valid regex"),
    ] {
        assert!(err.contains(&expected), "missing {expected:?} in:\n{err}");
    }
    assert!(
        !err.contains("pre_llm_call[0].matcher"),
        "run checks only its event's entries:\n{err}"
    );
    // The invalid regex matched by literal equality; the clamped hook still ran.
    assert_eq!(statuses(&json(&out)), ["ok", "ok"]);

    let quiet = env
        .cmd()
        .args(["run", "pre_tool_call", "-q"])
        .output()
        .unwrap();
    assert_eq!(stderr(&quiet), "", "-q silences warnings");
}

#[test]
fn invalid_yaml_is_an_error_with_file_line_and_column() {
    let env = TestEnv::new();
    env.config("hooks:\n  pre_tool_call:\n    - command: a\n   bad: [\n");
    let out = env.run("pre_tool_call", "{}");
    // Only the file's own hooks are out; with nothing else to run, the call goes on.
    assert_eq!(code(&out), 0);
    let config = env.hermes_home().join("config.yaml").display().to_string();
    assert!(
        stderr(&out).contains(&format!("error: {config}:4:")),
        "{}",
        stderr(&out)
    );
    let line = json(&out);
    assert_eq!(line["event"], "pre_tool_call");
    assert_eq!(line["errors"][0]["file"], config.as_str(), "{line}");
    assert_eq!(line["errors"][0]["line"], 4, "{line}");
}

#[test]
fn hooks_that_is_not_a_mapping_is_an_error() {
    let env = TestEnv::new();
    env.config("model: x\nhooks:\n  - command: a.sh\n");
    let out = env.run("pre_tool_call", "{}");
    assert_eq!(code(&out), 0);
    assert_eq!(json(&out)["errors"][0]["line"], 3);
    assert!(
        stderr(&out).contains("config.yaml:3:3: `hooks` must be a mapping"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn missing_or_empty_config_means_no_hooks() {
    let env = TestEnv::new();
    let out = env.run("pre_tool_call", "{}");
    assert_eq!(
        (code(&out), json(&out)["hooks"].as_array().unwrap().len()),
        (0, 0)
    );
    env.config("");
    assert_eq!(code(&env.run("pre_tool_call", "{}")), 0);
}

#[test]
fn config_flag_and_hermes_home_env_relocate() {
    let env = TestEnv::new();
    let ok = env.script("ok.sh", OK).display().to_string();
    let elsewhere = env.path("elsewhere.yaml");
    std::fs::write(
        &elsewhere,
        format!("hooks:\n  on_session_start:\n    - command: {ok}\n"),
    )
    .unwrap();
    let out = env
        .cmd()
        .args(["run", "on_session_start", "--config"])
        .arg(&elsewhere)
        .output()
        .unwrap();
    assert_eq!(statuses(&json(&out)), ["unapproved"]);

    let other_home = env.path("other-home");
    std::fs::create_dir_all(&other_home).unwrap();
    std::fs::write(
        other_home.join("config.yaml"),
        format!("hooks:\n  on_session_start:\n    - command: {ok}\n"),
    )
    .unwrap();
    let out = env
        .cmd()
        .env("HERMES_HOME", &other_home)
        .args(["run", "on_session_start", "--accept-hooks"])
        .output()
        .unwrap();
    assert_eq!(statuses(&json(&out)), ["ok"]);
    assert!(
        other_home.join("shell-hooks-allowlist.json").exists(),
        "approvals live in HERMES_HOME"
    );
}

#[test]
fn plugin_only_event_is_refused_and_reserved_keys_are_silent() {
    let env = TestEnv::new();
    env.config("hooks:\n  output_spill:\n    max_bytes: 10\n  transform_api_error_classification:\n    - command: a.sh\n");
    let out = env.run("pre_tool_call", "{}");
    let err = stderr(&out);
    assert!(err.contains("Python-plugin-only"), "{err}");
    assert!(!err.contains("output_spill"), "{err}");
}

#[test]
fn a_tab_hermes_reads_in_config_yaml_does_not_hide_a_hook() {
    // Hermes reads config.yaml with PyYAML's C loader (libyaml), which takes a tab after a
    // value, around a `:` and inside a flow list: the guard is a hook there, so it is one here.
    let env = TestEnv::new();
    let guard = env.script(
        "guard.sh",
        r#"cat >/dev/null; printf '{"action": "block", "message": "guarded"}'"#,
    );
    let guard = guard.display();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {guard}\t# blocks rm\n      matcher:\tterminal\n      timeout\t: 10\n  on_session_start: [\t]\n"
    ));
    let out = env
        .cmd()
        .args(["run", "pre_tool_call", "--accept-hooks"])
        .write_stdin(r#"{"tool_name": "terminal", "tool_input": {"command": "rm -rf /"}}"#)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(json(&out)["message"], "guarded");
    assert_eq!(statuses(&json(&out)), ["blocked"], "{}", json(&out));
}
