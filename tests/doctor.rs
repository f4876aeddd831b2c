//! `doctor`: every check of the contract, exit 0/1 as a CI gate, `--strict`, `--no-exec`,
//! `--json`; it never runs an unapproved hook and never writes the allowlist.

use serde_json::Value;
use snapbox::{assert_data_eq, str};

use crate::common::{TestEnv, code, redacted, stderr};

fn doctor(env: &TestEnv, args: &[&str]) -> std::process::Output {
    env.cmd().arg("doctor").args(args).output().unwrap()
}

fn findings(out: &std::process::Output) -> Vec<(String, String, String)> {
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["level"].as_str().unwrap().to_owned(),
                f["check"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn a_sound_config_passes() {
    let env = TestEnv::new();
    env.script("ok.sh", "cat >/dev/null; printf '{}'");
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/ok.sh\n      timeout: 30\n",
    );
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/ok.sh");
    let out = doctor(&env, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_data_eq!(
        redacted(&env, &out.stdout),
        str![[r#"
pre_tool_call  ~/.hermes/agent-hooks/ok.sh  (~/.hermes/config.yaml:3)
  ok       ~/.hermes/agent-hooks/ok.sh exists and can run
  ok       approved [..]Z, pinned to sha256:[..]
  ok       smoke run answered nothing (go on) in [..] ms

Project: none (no .agents/hooks from here up to the repository root)
0 error(s), 0 warning(s), 3 ok

"#]]
    );
}

#[test]
fn a_matcher_too_large_for_text_that_is_not_ascii_is_a_warning() {
    let env = TestEnv::new();
    env.script("ok.sh", "cat >/dev/null; printf '{}'");
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/ok.sh\n      matcher: '\\w{300}'\n    - command: ~/.hermes/agent-hooks/ok.sh x\n      matcher: '\\w+'\n",
    );
    let out = doctor(&env, &["--no-exec", "--json"]);
    let matcher: Vec<_> = findings(&out)
        .into_iter()
        .filter(|(_, check, _)| check == "matcher")
        .collect();
    assert_eq!(matcher.len(), 1, "{matcher:?}");
    assert_eq!(matcher[0].0, "warning");
    assert!(matcher[0].2.contains(r"`\w{300}`"), "{}", matcher[0].2);
}

#[test]
fn no_allowlist_is_only_warnings_so_ci_passes_unless_strict() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    env.script("new.sh", &format!("touch '{}'", marker.display()));
    env.config("hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/new.sh\n");
    let out = doctor(&env, &[]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
    assert!(!marker.exists(), "an unapproved hook is never executed");
    assert_eq!(code(&doctor(&env, &["--strict"])), 1);

    let out = doctor(&env, &["--accept-hooks", "--json"]);
    assert!(marker.exists(), "--accept-hooks smoke-runs it");
    assert!(!env.allowlist_path().exists(), "and still writes nothing");
    let found = findings(&out);
    assert!(found.iter().any(|(l, c, _)| l == "ok" && c == "smoke"));
    assert!(
        found.iter().any(|(l, c, _)| l == "note" && c == "consent"),
        "under the bypass an unapproved hook is a note: {found:#?}"
    );
    // The CI gate of a fresh runner: a sound setup passes even --strict.
    let out = doctor(&env, &["--strict", "--accept-hooks"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 note(s)"));
}

#[test]
fn every_problem_is_found() {
    let env = TestEnv::new();
    env.script("bad-json.sh", "cat >/dev/null; echo 'not json'");
    env.script("slow.sh", "sleep 30");
    env.script("edited.sh", "printf '{}'");
    env.script("hermes.sh", "printf '{}'");
    std::fs::write(env.hermes_home().join("agent-hooks/plain.sh"), "echo").unwrap();
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/gone.sh\n    - command: ~/.hermes/agent-hooks/plain.sh\n    - command: ~/.hermes/agent-hooks/bad-json.sh\n    - command: ~/.hermes/agent-hooks/slow.sh\n      timeout: 1\n    - command: ~/.hermes/agent-hooks/edited.sh\n    - command: ~/.hermes/agent-hooks/bad-json.sh\n    - 42\n  pre_llm_call:\n    - command: ~/.hermes/agent-hooks/hermes.sh\n      matcher: terminal\n      timeout: 999\n  pre_tools_call: []\n",
    );
    for hook in ["bad-json.sh", "slow.sh", "edited.sh"] {
        env.approve("pre_tool_call", &format!("~/.hermes/agent-hooks/{hook}"));
    }
    std::fs::write(
        env.hermes_home().join("agent-hooks/edited.sh"),
        "#!/bin/sh\necho edited\n",
    )
    .unwrap();
    env.hermes_approval(
        "pre_llm_call",
        "~/.hermes/agent-hooks/hermes.sh",
        Some("2000-01-01T00:00:00Z"),
    );
    let list = env.allowlist_path();
    let before = std::fs::read(&list).unwrap();

    let out = doctor(&env, &["--json"]);
    assert_eq!(code(&out), 1);
    let found = findings(&out);
    let has = |level: &str, check: &str, text: &str| {
        assert!(
            found
                .iter()
                .any(|(l, c, m)| l == level && c == check && m.contains(text)),
            "no {level}/{check} containing {text:?} in {found:#?}"
        );
    };
    has("error", "script", "gone.sh does not exist");
    has("error", "script", "plain.sh cannot run");
    has("error", "smoke", "stdout is not JSON");
    has("error", "smoke", "timed out after 1s");
    has("error", "consent", "changed since approval");
    has("warning", "consent", "not approved");
    has("warning", "consent", "without a sha256 pin");
    has(
        "warning",
        "drift",
        "modified since approval (was 2000-01-01T00:00:00Z",
    );
    has(
        "warning",
        "duplicate",
        "config.yaml:5 (same event, matcher and command)",
    );
    has("error", "config", "must be a mapping with a 'command' key");
    has("error", "config", "unknown event 'pre_tools_call'");
    has("warning", "config", "matcher 'terminal' is ignored");
    has("warning", "config", "exceeds the maximum");
    assert_eq!(
        std::fs::read(&list).unwrap(),
        before,
        "doctor never writes the allowlist"
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(doc["summary"]["errors"].as_u64().unwrap() >= 6);

    let out = doctor(&env, &["--no-exec", "--json"]);
    assert!(
        !findings(&out).iter().any(|(_, c, _)| c == "smoke"),
        "--no-exec runs nothing"
    );
}

#[test]
fn mistakes_that_keep_a_guard_from_guarding_are_errors() {
    // Each alone fails plain `doctor`: Hermes never runs the guard, and says nothing.
    let cases = [
        (
            "hooks:\n  pre_tool_call:\n    - command: /bin/guard\n  pre_tool_call:\n    - command: /bin/true\n",
            "hooks.pre_tool_call is written twice (lines 2 and 4): Hermes keeps only the last, so the hooks of the first one never run: `/bin/guard` (line 3); merge the two lists into one",
        ),
        (
            "hooks:\n  session_start:\n    - command: /bin/guard\n",
            "unknown event 'session_start' (did you mean 'on_session_start'?) in hooks:; its hooks never run, here or in Hermes: `/bin/guard` (line 3)",
        ),
        (
            "hooks:\n  pre_tool_call: []\n  pre_tool_cal: []\n",
            "unknown event 'pre_tool_cal' (did you mean 'pre_tool_call'?) in hooks: (skipped)",
        ),
    ];
    for (yaml, message) in cases {
        let env = TestEnv::new();
        env.config(yaml);
        let out = doctor(&env, &["--no-exec", "--json"]);
        assert_eq!(code(&out), 1, "{yaml}");
        let found = findings(&out);
        assert!(
            found
                .iter()
                .any(|(l, c, m)| l == "error" && c == "config" && m == message),
            "{found:#?}"
        );
    }
}

#[test]
fn a_second_hooks_block_appended_by_new_is_an_error_naming_the_hooks_it_drops() {
    let env = TestEnv::new();
    env.config("hooks:\n  on_session_start:\n    - command: /bin/true\n");
    let out = env
        .cmd()
        .args(["new", "guard", "--event", "pre_tool_call", "--config"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // `hermes-hooks new guard --config >> config.yaml`
    let config = env.hermes_home().join("config.yaml");
    let mut yaml = std::fs::read(&config).unwrap();
    yaml.extend_from_slice(&out.stdout);
    std::fs::write(&config, yaml).unwrap();

    let out = doctor(&env, &["--no-exec", "--json"]);
    assert_eq!(code(&out), 1);
    let found = findings(&out);
    let dropped = found
        .iter()
        .find(|(l, c, m)| l == "error" && c == "config" && m.starts_with("hooks is written twice"))
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(
        dropped.2,
        "hooks is written twice (lines 1 and 6): Hermes keeps only the last, so the hooks of the first one never run: on_session_start `/bin/true` (line 3); merge the two blocks into one"
    );
    // Read as Hermes reads it: the appended block's hook is the one there is.
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let commands: Vec<_> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["command"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(commands, ["~/.hermes/agent-hooks/guard.sh"]);
}

#[test]
fn a_broken_config_or_allowlist_is_an_error() {
    let env = TestEnv::new();
    env.config("hooks:\n  pre_tool_call: [\n");
    let out = doctor(&env, &[]);
    assert_eq!(code(&out), 1);
    assert!(
        redacted(&env, &out.stdout).contains("error    ~/.hermes/config.yaml:3:1: "),
        "{}",
        redacted(&env, &out.stdout)
    );

    env.config("hooks:\n  pre_tool_call:\n    - command: /bin/true\n");
    std::fs::write(env.allowlist_path(), "{").unwrap();
    let out = doctor(&env, &["--json", "--no-exec"]);
    assert_eq!(code(&out), 1);
    assert!(
        findings(&out)
            .iter()
            .any(|(l, c, _)| l == "error" && c == "allowlist")
    );
    assert_eq!(std::fs::read_to_string(env.allowlist_path()).unwrap(), "{");
}

#[test]
fn nothing_configured_passes() {
    let env = TestEnv::new();
    let out = doctor(&env, &[]);
    assert_eq!(code(&out), 0);
    assert!(String::from_utf8_lossy(&out.stdout).contains("No hooks in"));
}

#[test]
fn a_smoke_run_close_to_its_timeout_is_a_warning() {
    let env = TestEnv::new();
    env.script("slowish.sh", "cat >/dev/null; sleep 1.2; printf '{}'");
    env.config("hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/slowish.sh\n      timeout: 2\n");
    env.approve("on_session_start", "~/.hermes/agent-hooks/slowish.sh");
    let out = doctor(&env, &["--json"]);
    assert_eq!(code(&out), 0);
    assert!(
        findings(&out).iter().any(|(l, c, m)| l == "warning"
            && c == "smoke"
            && m.contains("more than half its 2s timeout")),
        "{:#?}",
        findings(&out)
    );
}

#[test]
fn a_smoke_run_reports_what_the_hook_answered() {
    let env = TestEnv::new();
    let answer = |name: &str, json: &str| {
        env.script(name, &format!("cat >/dev/null; printf '%s' '{json}'"));
    };
    answer(
        "guard.sh",
        r#"{"action": "block", "message": "no terminal today"}"#,
    );
    answer(
        "rewrite.sh",
        r#"{"action": "modify", "args": {"command": "echo hi"}}"#,
    );
    answer("context.sh", r#"{"context": "It is Friday"}"#);
    answer(
        "gate.sh",
        r#"{"action": "continue", "message": "tests fail"}"#,
    );
    answer(
        "ignored.sh",
        r#"{"action": "block", "message": "too late"}"#,
    );
    answer(
        "writes.sh",
        r#"{"action": "block", "message": "no writes today"}"#,
    );
    env.script("closed.sh", "sleep 30");
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/guard.sh\n    - command: ~/.hermes/agent-hooks/writes.sh\n      matcher: write_file\n    - command: ~/.hermes/agent-hooks/rewrite.sh\n    - command: ~/.hermes/agent-hooks/closed.sh\n      timeout: 1\n      fail_closed: true\n  pre_llm_call:\n    - command: ~/.hermes/agent-hooks/context.sh\n  pre_verify:\n    - command: ~/.hermes/agent-hooks/gate.sh\n  post_llm_call:\n    - command: ~/.hermes/agent-hooks/ignored.sh\n",
    );
    let out = doctor(&env, &["--accept-hooks", "--json"]);
    let found = findings(&out);
    let smoke = |level: &str, text: &str| {
        assert!(
            found
                .iter()
                .any(|(l, c, m)| l == level && c == "smoke" && m.contains(text)),
            "no {level}/smoke containing {text:?} in {found:#?}"
        );
    };
    smoke(
        "warning",
        "blocked the harmless synthetic call (\"no terminal today\")",
    );
    // A guard whose matcher passes over the harmless call is not blamed for blocking it.
    smoke("ok", "blocked (\"no writes today\") in ");
    smoke("ok", "its matcher passes over this call");
    smoke("ok", r#"rewrote the tool input ({"command": "echo hi"})"#);
    smoke("ok", r#"added context ("It is Friday")"#);
    smoke("ok", r#"asked to keep working ("tests fail")"#);
    smoke("ok", "nothing it can ask for here");
    smoke("error", "timed out after 1s");
    assert!(
        !found.iter().any(|(_, _, m)| m.contains("observer")),
        "{found:#?}"
    );
    assert!(
        !env.allowlist_path().exists(),
        "a smoke run records nothing"
    );
}

#[test]
fn a_strict_doctor_failing_on_unapproved_hooks_points_to_accept_hooks() {
    let env = TestEnv::new();
    env.script("new.sh", "cat >/dev/null");
    env.config("hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/new.sh\n");
    let out = doctor(&env, &["--strict"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("`doctor --strict --accept-hooks`"),
        "a fresh runner is told its gate: {}",
        stderr(&out)
    );
    // No hint where it did not fail, or where the bypass is already on.
    for args in [&[][..], &["--strict", "--accept-hooks"]] {
        let out = doctor(&env, args);
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("--accept-hooks"), "{}", stderr(&out));
    }
    // A warning the bypass does not clear: no hint either.
    env.hermes_approval("on_session_start", "~/.hermes/agent-hooks/new.sh", None);
    let out = doctor(&env, &["--strict", "--json"]);
    assert_eq!(code(&out), 1, "unpinned is a warning");
    assert!(!stderr(&out).contains("--accept-hooks"), "{}", stderr(&out));
}

/// Writes an agent's project settings file.
fn settings(env: &TestEnv, file: &str, text: &str) -> std::path::PathBuf {
    let path = env.work().join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// `doctor --no-exec --json` with this binary's folder on PATH (so a bare `hermes-hooks` is
/// found), its wiring findings.
fn wiring_findings(env: &TestEnv, path_has_binary: bool) -> Vec<serde_json::Value> {
    let bin = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    let mut cmd = env.cmd();
    if path_has_binary {
        cmd.env(
            "PATH",
            format!("{}:/usr/bin:/bin", bin.parent().unwrap().display()),
        );
    } else {
        cmd.env("PATH", "/usr/bin:/bin");
    }
    let out = cmd
        .args(["doctor", "--no-exec", "--json"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "wiring" || f["check"] == "tools")
        .cloned()
        .collect()
}

fn has(findings: &[serde_json::Value], level: &str, text: &str) -> bool {
    findings
        .iter()
        .any(|f| f["level"] == level && f["message"].as_str().unwrap().contains(text))
}

#[test]
fn an_agent_wired_without_its_agent_flag_is_an_error_that_says_what_it_loses() {
    let env = TestEnv::new();
    settings(
        &env,
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "hermes-hooks run pre_tool_call"}]}]}}"#,
    );
    settings(
        &env,
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "hermes-hooks run --agent codex PreToolUse"}]}]}}"#,
    );
    let findings = wiring_findings(&env, true);
    assert!(
        has(
            &findings,
            "error",
            "without --agent: Gemini reads JSON on stdout"
        ),
        "{findings:?}"
    );
    assert!(
        has(
            &findings,
            "error",
            "--agent codex` in Claude Code's settings"
        ),
        "{findings:?}"
    );
    let out = env.cmd().args(["doctor", "--no-exec"]).output().unwrap();
    assert_eq!(code(&out), 1);
}

#[test]
fn sound_wiring_passes_and_events_left_out_are_warned_about() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["install", "claude-code", "--project"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let findings = wiring_findings(&env, true);
    assert!(
        findings
            .iter()
            .all(|f| f["level"] == "ok" || f["level"] == "note"),
        "{findings:?}"
    );
    // Take Stop out by hand: its hooks never run.
    let path = env.work().join(".claude/settings.json");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["hooks"].as_object_mut().unwrap().remove("Stop");
    std::fs::write(&path, doc.to_string()).unwrap();
    let findings = wiring_findings(&env, true);
    assert!(
        has(&findings, "warning", "but not for Stop"),
        "{findings:?}"
    );
}

#[test]
fn stale_wiring_is_caught() {
    let env = TestEnv::new();
    settings(
        &env,
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"stop": [{"command": "/gone/bin/hermes-hooks run --agent cursor stop", "timeout": 65}], "beforeShellExecution": [{"command": "hermes-hooks run --agent cursor beforeShellExecuton", "timeout": 65}]}}"#,
    );
    let findings = wiring_findings(&env, true);
    assert!(
        has(
            &findings,
            "error",
            "/gone/bin/hermes-hooks, which does not exist"
        ),
        "{findings:?}"
    );
    assert!(
        has(
            &findings,
            "error",
            "beforeShellExecuton, which Cursor does not have"
        ),
        "{findings:?}"
    );
    // A bare name that is not on PATH cannot be started either.
    let findings = wiring_findings(&env, false);
    assert!(has(&findings, "error", "not on PATH here"), "{findings:?}");
}

#[test]
fn a_timeout_below_the_longest_hook_is_a_warning() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["install", "codex", "--project"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        wiring_findings(&env, true)
            .iter()
            .all(|f| f["level"] == "ok" || f["level"] == "note")
    );
    env.config("hooks:\n  pre_tool_call:\n    - command: /bin/true\n      timeout: 120\n");
    let findings = wiring_findings(&env, true);
    assert!(
        has(
            &findings,
            "warning",
            "PreToolUse: the agent's timeout (65s)"
        ),
        "{findings:?}"
    );
}

#[test]
fn a_tool_matcher_no_wired_agent_meets_is_a_warning() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["install", "claude-code", "--project"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let fm = |tool: &str| {
        format!(
            "name: g-{tool}\ndescription: d\ntrigger: pre-tool-call\nmatcher:\n  tool: {tool}\n"
        )
    };
    // Hermes's name for the shell, with only Claude Code wired: it never sees `Bash`.
    env.hook_md(
        &env.project_hooks(),
        "g-terminal",
        &fm("terminal"),
        "exit 0",
    );
    // The class and Claude Code's own name both meet its calls.
    env.hook_md(&env.project_hooks(), "g-shell", &fm("shell"), "exit 0");
    env.hook_md(&env.project_hooks(), "g-bash", &fm("Bash"), "exit 0");
    let findings = wiring_findings(&env, true);
    let matchers: Vec<_> = findings.iter().filter(|f| f["check"] == "tools").collect();
    assert_eq!(matchers.len(), 1, "{matchers:?}");
    assert!(
        matchers[0]["message"]
            .as_str()
            .unwrap()
            .contains("`terminal`")
    );
    // With Hermes wired too (config.yaml has hooks), each name is one agent's: the guard on
    // `terminal` never runs in Claude Code and the one on `Bash` never in Hermes; the class
    // meets both.
    env.config("hooks:\n  on_session_start:\n    - command: /bin/true\n");
    let findings = wiring_findings(&env, true);
    let said: Vec<&str> = findings
        .iter()
        .filter(|f| f["check"] == "tools")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said.iter()
            .any(|m| m.contains("`terminal` meets no tool of Claude Code"))
    );
    assert!(
        said.iter()
            .any(|m| m.contains("`Bash` meets no tool of Hermes"))
    );
    assert!(!said.iter().any(|m| m.contains("`shell`")));
}

#[test]
fn a_copilot_project_whose_settings_switch_hooks_off_is_an_error_where_copilot_is_wired() {
    // Copilot's project settings live beside its hooks folder, in `.github/copilot/`.
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["install", "copilot", "--project"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!has(
        &wiring_findings(&env, true),
        "error",
        "disableAllHooks"
    ));
    settings(
        &env,
        ".github/copilot/settings.local.json",
        "{\n  \"disableAllHooks\": true\n}\n",
    );
    let findings = wiring_findings(&env, true);
    let found = findings
        .iter()
        .find(|f| {
            f["message"]
                .as_str()
                .unwrap()
                .contains("disableAllHooks is true")
        })
        .unwrap_or_else(|| panic!("{findings:?}"));
    assert_eq!(found["level"], "error");
    assert!(
        found
            .to_string()
            .contains(".github/copilot/settings.local.json:2"),
        "the file and line of the setting: {found}"
    );
}

#[test]
fn a_gemini_project_that_switches_hooks_off_is_an_error_where_gemini_is_wired() {
    // The guard is wired in the user's settings; the project's own settings switch every hook
    // off, the user's included, so the guard is silent there.
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["install", "gemini", "--user"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        !has(&wiring_findings(&env, true), "error", "hooksConfig"),
        "nothing switched off yet"
    );
    settings(
        &env,
        ".gemini/settings.json",
        "{\n  // the project's own choice\n  \"hooksConfig\": {\n    \"enabled\": false,\n    \"disabled\": [\"hermes-hooks run --agent gemini BeforeTool\"]\n  }\n}\n",
    );
    let findings = wiring_findings(&env, true);
    assert!(
        has(&findings, "error", "hooksConfig.enabled is false"),
        "{findings:?}"
    );
    assert!(
        has(&findings, "error", "hooksConfig.disabled lists"),
        "{findings:?}"
    );
    let line = findings
        .iter()
        .find(|f| f["message"].as_str().unwrap().contains("enabled is false"))
        .unwrap();
    assert!(
        line.to_string().contains(":4"),
        "the line of the setting: {line}"
    );
}

#[test]
fn a_setting_that_switches_claude_codes_hooks_off_is_an_error_naming_the_file_and_the_key() {
    // The guard is wired in the user's settings; each file Claude Code reads can switch every
    // hook off, the user's included, and doctor must not call that wiring ok.
    let env = TestEnv::new();
    wire_user(&env, "claude-code");
    let findings = wiring_findings(&env, true);
    assert!(!has(&findings, "error", "disableAllHooks"), "{findings:?}");
    assert!(has(&findings, "ok", "Claude Code is wired"), "{findings:?}");
    let user = env.home().join(".claude/settings.json");
    for file in [".claude/settings.json", ".claude/settings.local.json"] {
        let path = settings(
            &env,
            file,
            "{\n  \"model\": \"x\",\n  \"disableAllHooks\": true\n}\n",
        );
        let findings = wiring_findings(&env, true);
        let error = findings
            .iter()
            .find(|f| {
                f["level"] == "error" && f["message"].as_str().unwrap().contains("disableAllHooks")
            })
            .unwrap_or_else(|| panic!("{file}: {findings:?}"));
        assert_eq!(
            error["at"],
            format!("{}:3", path.display()),
            "names the file and line: {error}"
        );
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("remove \"disableAllHooks\": true"),
            "{error}"
        );
        assert!(
            !has(&findings, "ok", "Claude Code is wired"),
            "{findings:?}"
        );
        let out = env.cmd().args(["doctor", "--no-exec"]).output().unwrap();
        assert_eq!(
            code(&out),
            1,
            "{file}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        std::fs::remove_file(&path).unwrap();
    }
    // In the user's own file too.
    let text = std::fs::read_to_string(&user).unwrap();
    std::fs::write(&user, text.replacen('{', "{\"disableAllHooks\": true,", 1)).unwrap();
    let findings = wiring_findings(&env, true);
    assert!(
        has(&findings, "error", "disableAllHooks is true"),
        "{findings:?}"
    );
}

#[test]
fn a_codex_or_gemini_system_setting_that_switches_hooks_off_is_an_error() {
    let env = TestEnv::new();
    for agent in ["codex", "gemini"] {
        let out = env
            .cmd()
            .args(["install", agent, "--project"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    }
    assert!(
        wiring_findings(&env, true)
            .iter()
            .all(|f| f["level"] != "error"),
        "nothing switched off yet"
    );
    let codex = env.work().join(".codex/config.toml");
    let wired = std::fs::read_to_string(&codex).unwrap();
    std::fs::write(&codex, format!("{wired}\n[features]\nhooks = false\n")).unwrap();
    std::fs::write(
        env.path("gemini-system-settings.json"),
        "{\"hooksConfig\": {\"enabled\": false}}",
    )
    .unwrap();
    let findings = wiring_findings(&env, true);
    assert!(
        has(&findings, "error", "the Codex feature `hooks` is false"),
        "{findings:?}"
    );
    assert!(
        has(&findings, "error", "hooksConfig.enabled is false"),
        "{findings:?}"
    );
}

#[test]
fn an_agent_wired_at_both_levels_is_one_finding_with_the_command_that_fixes_it() {
    let env = TestEnv::new();
    wire_user(&env, "claude-code");
    let out = env
        .cmd()
        .args(["install", "claude-code", "--project", "--also"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let findings = wiring_findings(&env, true);
    let twice: Vec<_> = findings
        .iter()
        .filter(|f| f["message"].as_str().unwrap().contains("twice"))
        .collect();
    assert_eq!(
        twice.len(),
        1,
        "one finding, not one per event: {findings:?}"
    );
    let message = twice[0]["message"].as_str().unwrap();
    assert!(
        message.contains("`hermes-hooks uninstall claude-code --user`"),
        "{message}"
    );
    assert!(
        message.contains("PreToolUse") && message.contains("Stop"),
        "{message}"
    );
    assert_eq!(twice[0]["level"], "warning");
    // The command it names puts it right.
    let out = env
        .cmd()
        .args(["uninstall", "claude-code", "--user"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let findings = wiring_findings(&env, true);
    assert!(
        findings
            .iter()
            .all(|f| f["level"] == "ok" || f["level"] == "note"),
        "{findings:?}"
    );
}

/// The `plugin` findings of `doctor --json --no-exec`, as (level, message).
fn plugin_findings(env: &TestEnv) -> Vec<(String, String)> {
    findings(&doctor(env, &["--json", "--no-exec"]))
        .into_iter()
        .filter(|(_, check, _)| check == "plugin")
        .map(|(level, _, message)| (level, message))
        .collect()
}

fn plugin_has(found: &[(String, String)], level: &str, text: &str) -> bool {
    found.iter().any(|(l, m)| l == level && m.contains(text))
}

#[test]
fn doctor_says_whether_the_hermes_plugin_is_installed_enabled_and_of_this_version() {
    let env = TestEnv::new();
    env.cmd().args(["install", "hermes"]).assert().success();
    let found = plugin_findings(&env);
    assert!(plugin_has(&found, "ok", "installed, version"), "{found:?}");
    assert!(plugin_has(&found, "warning", "not enabled"), "{found:?}");
    env.config("plugins:\n  enabled: [hermes-hooks]\n");
    let found = plugin_findings(&env);
    assert!(
        plugin_has(&found, "ok", "plugins.enabled lists"),
        "{found:?}"
    );
    assert!(!found.iter().any(|(l, _)| l == "warning"), "{found:?}");
    let manifest = env.hermes_home().join("plugins/hermes-hooks/plugin.yaml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    std::fs::write(&manifest, text.replace(version, "0.0.1-old")).unwrap();
    let found = plugin_findings(&env);
    assert!(
        plugin_has(&found, "warning", "version 0.0.1-old"),
        "{found:?}"
    );
}

#[test]
fn a_rewriting_hook_reached_only_through_the_bridge_is_a_warning_until_the_plugin_runs_it() {
    let env = TestEnv::new();
    env.config("hooks:\n  pre_tool_call:\n    - command: hermes-hooks run pre_tool_call\n");
    env.hook_md(
        &env.user_hooks(),
        "soften",
        "name: soften\ndescription: d\ntrigger: pre-tool-call\n",
        "cat >/dev/null",
    );
    let found = plugin_findings(&env);
    assert!(
        plugin_has(&found, "warning", "drops a rewrite"),
        "{found:?}"
    );
    assert!(plugin_has(&found, "warning", "install hermes"), "{found:?}");
    env.cmd().args(["install", "hermes"]).assert().success();
    env.config(
        "plugins:\n  enabled: [hermes-hooks]\nhooks:\n  pre_tool_call:\n    - command: hermes-hooks run pre_tool_call\n",
    );
    let found = plugin_findings(&env);
    assert!(
        !plugin_has(&found, "warning", "drops a rewrite"),
        "{found:?}"
    );
    // The bridge left beside the enabled plugin: the Agent Hooks would run twice.
    assert!(plugin_has(&found, "warning", "runs twice"), "{found:?}");
    env.config("plugins:\n  enabled: [hermes-hooks]\n");
    assert!(!plugin_has(&plugin_findings(&env), "warning", "runs twice"));
}

#[test]
fn a_pre_tool_call_hook_slower_than_hermes_waits_for_a_callback_is_a_warning() {
    let env = TestEnv::new();
    env.hook_md(
        &env.user_hooks(),
        "slow",
        "name: slow\ndescription: d\ntrigger: pre-tool-call\ntimeout: 45000\n",
        "cat >/dev/null",
    );
    env.hook_md(
        &env.user_hooks(),
        "quick",
        "name: quick\ndescription: d\ntrigger: pre-tool-call\ntimeout: 30000\n",
        "cat >/dev/null",
    );
    let found = plugin_findings(&env);
    let slow: Vec<_> = found
        .iter()
        .filter(|(l, m)| l == "warning" && m.contains("hook_callback_timeout"))
        .collect();
    assert_eq!(slow.len(), 1, "only the hook above 30 s: {found:?}");
    assert!(slow[0].1.contains("45s"), "{found:?}");
}

/// The warnings `plugin_findings` gives for Hermes's callback bound.
fn over_the_bound(env: &TestEnv) -> Vec<String> {
    plugin_findings(env)
        .into_iter()
        .filter(|(l, m)| l == "warning" && m.contains("hook_callback_timeout"))
        .map(|(_, m)| m)
        .collect()
}

#[test]
fn a_config_guard_slower_than_hermes_waits_for_its_callback_is_a_warning() {
    // Newer Hermes registers each config hook as a plugin callback and bounds every
    // `pre_tool_call` callback by `plugins.hook_callback_timeout` (hermes_cli/plugins_dispatch.py,
    // `invoke_hook` / `_resolve_hook_callback_timeout`: default 30, `<= 0` off, at most 600).
    let env = TestEnv::new();
    let hooks = "hooks:\n  pre_tool_call:\n    - command: slow.sh\n    - command: quick.sh\n      timeout: 25\n  post_tool_call:\n    - command: after.sh\n";
    env.config(hooks);
    let found = over_the_bound(&env);
    assert_eq!(found.len(), 1, "only the default 60 s guard: {found:?}");
    assert!(
        found[0].contains("(60s)") && found[0].contains("the 30s"),
        "{found:?}"
    );
    for (setting, expected) in [
        ("0", None),
        ("120", None),
        ("'45'", Some("the 45s")),
        ("10.5", Some("the 10.5s")),
        ("-3", Some("the 30s")),
        ("soon", Some("the 30s")),
        ("null", Some("the 30s")),
    ] {
        env.config(&format!(
            "plugins:\n  hook_callback_timeout: {setting}\n{hooks}"
        ));
        let found = over_the_bound(&env);
        match expected {
            None => assert!(found.is_empty(), "{setting}: {found:?}"),
            Some(bound) => {
                let slow = if setting == "10.5" { 2 } else { 1 };
                assert_eq!(found.len(), slow, "{setting}: {found:?}");
                assert!(found[0].contains(bound), "{setting}: {found:?}");
            }
        }
    }
}

#[test]
fn doctor_and_test_say_when_a_config_hook_relies_on_exit_2_outside_pre_tool_call() {
    // Hermes counts exit 2 from a shell hook only on pre_tool_call (`_BLOCKING_EVENTS`,
    // agent/shell_hooks.py); on pre_verify it is a failed hook and its stdout is read.
    let env = TestEnv::new();
    env.script("gate.sh", "cat >/dev/null; echo 'tests fail' >&2; exit 2");
    env.config("hooks:\n  pre_verify:\n    - command: ~/.hermes/agent-hooks/gate.sh\n");
    env.approve("pre_verify", "~/.hermes/agent-hooks/gate.sh");
    let advice = "Hermes reads exit 2 from a config hook only on pre_tool_call";
    let out = doctor(&env, &["--json"]);
    assert!(
        findings(&out)
            .iter()
            .any(|(l, c, m)| l == "warning" && c == "smoke" && m.contains(advice)),
        "{:#?}",
        findings(&out)
    );
    let out = env
        .cmd()
        .args(["test", "pre_verify", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["status"], "failed", "{doc}");
    assert!(
        doc["hooks"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains(advice)),
        "{doc}"
    );
    assert_eq!(doc["directive"], serde_json::json!({}), "no gate: {doc}");
    // On pre_tool_call exit 2 is the block it means, with no such advice.
    env.config("hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/gate.sh\n      timeout: 10\n");
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/gate.sh");
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["directive"]["action"], "block", "{doc}");
    assert!(!doc.to_string().contains(advice), "{doc}");
}

#[test]
fn a_config_yaml_kept_elsewhere_through_a_symlink_is_read_for_the_plugin_checks() {
    let env = TestEnv::new();
    env.cmd().args(["install", "hermes"]).assert().success();
    let kept = env.path("dotfiles-config.yaml");
    std::fs::write(
        &kept,
        "plugins:\n  enabled: [hermes-hooks]\n  hook_callback_timeout: 90\nhooks:\n  pre_tool_call:\n    - command: slow.sh\n",
    )
    .unwrap();
    let config = env.hermes_home().join("config.yaml");
    let _ = std::fs::remove_file(&config);
    std::os::unix::fs::symlink(&kept, &config).unwrap();
    let found = plugin_findings(&env);
    assert!(
        plugin_has(&found, "ok", "plugins.enabled lists"),
        "{found:?}"
    );
    assert!(
        over_the_bound(&env).is_empty(),
        "the 90 s setting is read: {found:?}"
    );
}

#[test]
fn codex_terminal_input_no_hook_sees_is_a_warning_until_codex_switches_terminals_off() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["install", "codex", "--project"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    env.hook_md(
        &env.project_hooks(),
        "no-rm",
        "name: no-rm\ndescription: d\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        "cat >/dev/null",
    );
    let findings = wiring_findings(&env, true);
    assert!(
        has(&findings, "warning", "no hook sees what is typed there"),
        "{findings:?}"
    );
    let config = env.work().join(".codex").join("config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("\n[features]\nunified_exec_tty = false\n");
    std::fs::write(&config, text).unwrap();
    let findings = wiring_findings(&env, true);
    assert!(
        has(&findings, "ok", "Codex's terminals are off"),
        "{findings:?}"
    );
    assert!(
        !has(&findings, "warning", "no hook sees what is typed there"),
        "{findings:?}"
    );
}

#[test]
fn droid_and_qwen_settings_that_switch_hooks_off_are_errors_where_each_is_wired() {
    for (agent, file, setting, key) in [
        (
            "droid",
            ".factory/settings.local.json",
            "{\n  \"hooksDisabled\": true\n}\n",
            "hooksDisabled is true",
        ),
        (
            "qwen",
            ".qwen/settings.json",
            "{\n  // off\n  \"disableAllHooks\": true\n}\n",
            "disableAllHooks is true",
        ),
    ] {
        let env = TestEnv::new();
        let out = env
            .cmd()
            .args(["install", agent, "--user"])
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{agent}: {}", stderr(&out));
        assert!(!has(&wiring_findings(&env, true), "error", key), "{agent}");
        let path = settings(&env, file, setting);
        let findings = wiring_findings(&env, true);
        let error = findings
            .iter()
            .find(|f| f["level"] == "error" && f["message"].as_str().unwrap().contains(key))
            .unwrap_or_else(|| panic!("{agent}: {findings:?}"));
        assert!(
            error["at"]
                .as_str()
                .unwrap()
                .starts_with(&path.display().to_string()),
            "{agent}: names the file: {error}"
        );
    }
}

/// Where an agent is wired, `doctor` also says what the agent needs beyond the file, as
/// `install` did: for a project's Copilot CLI wiring, trusting the folder (`-p` needs
/// `--trust-folder`).
#[test]
fn a_wired_agent_is_told_with_what_it_needs_beyond_the_file() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["install", "copilot", "--project"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let findings = wiring_findings(&env, true);
    let notes: Vec<&Value> = findings.iter().filter(|f| f["level"] == "note").collect();
    assert!(
        notes.iter().any(|f| f["message"]
            .as_str()
            .unwrap_or("")
            .contains("--trust-folder")),
        "{findings:?}"
    );
}

#[test]
fn wiring_that_names_another_install_than_the_one_on_path_is_a_warning() {
    let env = TestEnv::new();
    let bin = assert_cmd::cargo::cargo_bin!("hermes-hooks");
    // An older install, left where the agent's settings still point.
    let old = env.path("old-install/hermes-hooks");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::copy(bin, &old).unwrap();
    let wire = |program: &str| {
        settings(
            &env,
            ".cursor/hooks.json",
            &format!(
                r#"{{"version": 1, "hooks": {{"stop": [{{"command": "{program} run --agent cursor stop", "timeout": 65}}]}}}}"#
            ),
        );
    };
    wire(&old.display().to_string());
    let findings = wiring_findings(&env, true);
    assert!(
        has(&findings, "warning", "but the hermes-hooks on PATH runs"),
        "{findings:?}"
    );
    // The binary on PATH itself, named by its path: nothing to say.
    wire(&bin.display().to_string());
    let findings = wiring_findings(&env, true);
    assert!(
        !has(&findings, "warning", "another install"),
        "{findings:?}"
    );
}

#[test]
fn doctor_names_the_wired_file_and_counts_the_hermes_plugin_among_the_wired_agents() {
    let env = TestEnv::new();
    wire_user(&env, "claude-code");
    let user = env.home().join(".claude/settings.json");
    // The project's `.claude` is missing, then holds `{}`: neither is wired.
    for project in [None, Some("{}\n")] {
        if let Some(text) = project {
            settings(&env, ".claude/settings.json", text);
        }
        let findings = wiring_findings(&env, true);
        let wired: Vec<_> = findings
            .iter()
            .filter(|f| {
                f["message"]
                    .as_str()
                    .unwrap()
                    .contains("is wired to hermes-hooks")
            })
            .collect();
        assert_eq!(wired.len(), 1, "{findings:?}");
        assert_eq!(
            wired[0]["at"],
            user.display().to_string(),
            "only the file that routes the events: {findings:?}"
        );
    }
    // A Hermes tool's matcher, with Claude Code wired: a warning while Hermes is not wired,
    // none once its plugin is installed.
    let guard = env.work().join("guard.sh");
    std::fs::write(&guard, "#!/bin/sh\nexit 0\n").unwrap();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: {}\n",
        guard.display()
    ));
    let unseen = |findings: &[serde_json::Value]| {
        has(
            findings,
            "warning",
            "the matcher `terminal` matches no built-in tool",
        )
    };
    let findings = wiring_findings(&env, true);
    assert!(
        !unseen(&findings),
        "a config hook is Hermes's: {findings:?}"
    );
    env.config("hooks: {}\n");
    env.hook_md(
        &env.user_hooks(),
        "terminal-guard",
        "name: terminal-guard\ndescription: Watches the terminal tool.\ntrigger: pre-tool-call\n\
         matcher:\n  tool: terminal\n",
        "exit 0",
    );
    let findings = wiring_findings(&env, true);
    assert!(unseen(&findings), "{findings:?}");
    let out = env.cmd().args(["install", "hermes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let findings = wiring_findings(&env, true);
    assert!(
        !unseen(&findings),
        "the plugin runs it for Hermes: {findings:?}"
    );
}

/// `install AGENT --user`, which must succeed.
fn wire_user(env: &TestEnv, agent: &str) {
    let out = env
        .cmd()
        .args(["install", agent, "--user"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// `doctor --json` on a user rules file of `text`, approved: its exit code and the findings on
/// rules, as (rule, level, message).
fn rules_doctor(text: &str) -> (i32, Vec<(String, String, String)>) {
    let env = TestEnv::new();
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, text).unwrap();
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = doctor(&env, &["--json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "rule")
        .map(|f| {
            (
                f["hook"].as_str().unwrap().to_owned(),
                f["level"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    (code(&out), found)
}

/// Whether a finding on `rule` at `level` says `words`.
fn said(found: &[(String, String, String)], rule: &str, level: &str, words: &str) -> bool {
    found
        .iter()
        .any(|(hook, at, message)| hook == rule && at == level && message.contains(words))
}

#[test]
fn a_command_field_on_a_rule_that_never_sees_a_shell_call_is_an_error() {
    let (exit, found) = rules_doctor(
        "rules:\n- name: on-edits\n  tool: edit\n  when: {program: '^rm$'}\n- name: \
         on-a-prompt\n  event: pre_llm_call\n  when: {flags: '^-f$'}\n  action: context\n  \
         message: m\n- name: on-mcp\n  tool: 'mcp__.*'\n  when: {args: 'x'}\n- name: \
         exception-on-writes\n  tool: write\n  unless: {subcommand: '^status$'}\n- name: \
         by-name\n  tool: 'terminal|Bash'\n  when: {program: '^rm$'}\n- name: raw-on-mcp\n  \
         tool: 'mcp__.*'\n  when: {command: 'rm'}\n",
    );
    assert_eq!(exit, 1, "errors make doctor fail: {found:?}");
    for (rule, words) in [
        ("on-edits", "edit tools, which have no shell command"),
        ("on-a-prompt", "pre_llm_call has no tool call"),
        ("on-mcp", "the tool `mcp__.*` names no agent's shell tool"),
        (
            "exception-on-writes",
            "write tools, which have no shell command",
        ),
        (
            "raw-on-mcp",
            "the tool `mcp__.*` names no agent's shell tool",
        ),
    ] {
        assert!(said(&found, rule, "error", words), "{rule}: {found:?}");
        assert!(
            said(&found, rule, "error", "the rule never applies"),
            "{rule}: {found:?}"
        );
    }
    assert!(
        found.iter().all(|(hook, ..)| hook != "by-name"),
        "Hermes's and Claude Code's shell tools: {found:?}"
    );
}

#[test]
fn command_fields_are_known_fields_and_their_patterns_are_checked() {
    use std::fmt::Write as _;

    let fields = [
        "program",
        "args",
        "flags",
        "subcommand",
        "paths",
        "redirects",
        "input",
        "line",
    ];
    let mut text = String::from("rules:\n");
    for field in fields {
        write!(
            text,
            "- name: by-{field}\n  tool: shell\n  when: {{{field}: 'x'}}\n  unless: {{{field}: \
             'y'}}\n"
        )
        .unwrap();
    }
    text.push_str(
        "- name: never\n  tool: shell\n  when: {program: '[^\\s\\S]'}\n- name: slow\n  tool: \
         shell\n  when: {line: '(?:a(?=a)|a)*b'}\n- name: costly\n  tool: shell\n  when: \
         {args: '(?=b)c|(?=d)e|(?=f)g|(?=h)i|(?=j)k'}\n",
    );
    let (exit, found) = rules_doctor(&text);
    assert_eq!(exit, 1, "{found:?}");
    assert!(
        !found
            .iter()
            .any(|(.., message)| message.contains("no agent is known")),
        "a command's fields are no unknown fields of the tool input: {found:?}"
    );
    assert!(
        found.iter().all(|(hook, ..)| !hook.starts_with("by-")),
        "{found:?}"
    );
    assert!(
        said(&found, "never", "error", "when program: the pattern"),
        "{found:?}"
    );
    assert!(
        said(&found, "never", "error", "can never match"),
        "{found:?}"
    );
    assert!(said(&found, "slow", "warning", "when line: "), "{found:?}");
    assert!(said(&found, "slow", "warning", "gives up"), "{found:?}");
    assert!(
        said(
            &found,
            "costly",
            "warning",
            "backtracks more than 65536 steps on a 16 KB text"
        ),
        "{found:?}"
    );
}

#[test]
fn a_rule_on_commands_is_shadowed_only_where_the_earlier_one_also_blocks_what_it_cannot_read() {
    let (_, found) = rules_doctor(
        "rules:\n- name: any-rm\n  tool: shell\n  when: {program: '^rm$'}\n- name: \
         recursive-rm\n  tool: shell\n  when: {program: '^rm$', flags: '^-r$'}\n- name: \
         recursive-rm-or-unread\n  tool: shell\n  when: {program: '^rm$', flags: '^-r$'}\n  \
         undecidable: block\n",
    );
    assert!(
        said(&found, "recursive-rm", "warning", "rule any-rm"),
        "{found:?}"
    );
    assert!(
        !said(&found, "recursive-rm-or-unread", "warning", "rule any-rm"),
        "it blocks what any-rm lets through: {found:?}"
    );
}

#[test]
fn undecidable_block_or_ask_on_a_rule_that_names_no_command_field_is_a_warning() {
    let (exit, found) = rules_doctor(
        "rules:\n- name: raw\n  tool: shell\n  when: {command: 'rm'}\n  undecidable: block\n- \
         name: asks\n  tool: shell\n  when: {command: 'mv'}\n  undecidable: ask\n- name: \
         lets\n  tool: shell\n  when: {command: 'cp'}\n  undecidable: allow\n- name: reads\n  \
         tool: shell\n  when: {program: '^rm$'}\n  undecidable: block\n",
    );
    assert_eq!(exit, 0, "warnings only: {found:?}");
    assert!(
        said(&found, "raw", "warning", "undecidable: block never applies"),
        "{found:?}"
    );
    assert!(
        said(&found, "asks", "warning", "undecidable: ask never applies"),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .all(|(hook, ..)| hook != "lets" && hook != "reads"),
        "{found:?}"
    );
}

/// The user's guards run only where an agent is wired: an agent on this machine wired nowhere,
/// or only in this project's settings, is said with the command that wires it for every
/// project; and Hermes without the plugin runs none of the rules.
#[test]
fn the_users_guards_with_an_agent_wired_only_elsewhere_are_said_with_the_fix() {
    use std::os::unix::fs::PermissionsExt as _;
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["new", "--rules", "destructive"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let bin = env.path("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("claude"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(bin.join("claude"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let said = |env: &TestEnv| {
        let out = env
            .cmd()
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env_remove("CLAUDE_CONFIG_DIR")
            .args(["doctor", "--no-exec", "--json"])
            .output()
            .unwrap();
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        doc["findings"].as_array().unwrap().clone()
    };
    let findings = said(&env);
    assert!(
        has(&findings, "warning", "Claude Code is on this machine")
            && has(
                &findings,
                "warning",
                "`hermes-hooks install claude-code` wires it"
            ),
        "{findings:#?}"
    );
    let wire = |args: &[&str]| {
        let out = env
            .cmd()
            .env_remove("CLAUDE_CONFIG_DIR")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
    };
    wire(&["install", "claude-code", "--project"]);
    let findings = said(&env);
    assert!(
        has(
            &findings,
            "warning",
            "Claude Code is wired only in this project's settings"
        ),
        "{findings:#?}"
    );
    wire(&["install", "claude-code", "--also"]);
    let findings = said(&env);
    assert!(
        !findings.iter().any(|f| {
            let message = f["message"].as_str().unwrap();
            message.contains("wired only") || message.contains("is on this machine")
        }),
        "{findings:#?}"
    );
    // Hermes, shown by its config.yaml, runs the rules only through the plugin.
    env.config("model: local\n");
    assert!(
        has(
            &said(&env),
            "warning",
            "the hermes-hooks plugin is not installed"
        ),
        "the plugin"
    );
    wire(&["install", "hermes"]);
    assert!(!has(
        &said(&env),
        "warning",
        "the hermes-hooks plugin is not installed"
    ));
}

/// `doctor` goes by the installed Claude Code: an event it does not take is a warning where it
/// is wired (its settings warning opens at every start), and a note where it is not; neither
/// counts as an event left unwired.
#[test]
fn the_events_of_a_newer_claude_code_are_said_as_such() {
    use std::os::unix::fs::PermissionsExt as _;
    let env = TestEnv::new();
    let bin = env.path("claude-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let claude = |version: &str| {
        std::fs::write(
            bin.join("claude"),
            format!("#!/bin/sh\necho '{version} (Claude Code)'\n"),
        )
        .unwrap();
        std::fs::set_permissions(bin.join("claude"), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    };
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let run = |args: &[&str]| {
        env.cmd()
            .env("PATH", &path)
            .env_remove("CLAUDE_CONFIG_DIR")
            .args(args)
            .output()
            .unwrap()
    };
    claude("2.1.332");
    assert_eq!(code(&run(&["install", "claude-code", "--project"])), 0);
    // Downgraded: the key it does not know is in its settings.
    claude("2.1.197");
    let doc: Value =
        serde_json::from_slice(&run(&["doctor", "--no-exec", "--json"]).stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    assert!(
        has(
            findings,
            "warning",
            "Claude Code 2.1.197 does not take PreSkillShellCommand in its settings"
        ),
        "{findings:#?}"
    );
    assert!(!has(
        findings,
        "warning",
        "but not for PreSkillShellCommand"
    ));
    // Installed again: left out, and a note says what an upgrade adds.
    assert_eq!(code(&run(&["install", "claude-code", "--project"])), 0);
    let doc: Value =
        serde_json::from_slice(&run(&["doctor", "--no-exec", "--json"]).stdout).unwrap();
    let findings = doc["findings"].as_array().unwrap();
    assert!(
        has(
            findings,
            "note",
            "Claude Code 2.1.197 has no PreSkillShellCommand from 2.1.332"
        ),
        "{findings:#?}"
    );
    assert!(has(
        findings,
        "ok",
        "Claude Code is wired to hermes-hooks for every event"
    ));
}

/// A matcher written for one agent's tool names never runs in another wired agent: `doctor`
/// names each agent it cannot see, and a tool class sees them all.
#[test]
fn a_matcher_that_one_wired_agent_never_meets_is_said_for_that_agent() {
    let env = TestEnv::new();
    env.script("guard.sh", "cat >/dev/null; printf '{}'");
    env.config(
        "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ~/.hermes/agent-hooks/guard.sh\n      timeout: 10\n",
    );
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/guard.sh");
    let out = env
        .cmd()
        .env_remove("CLAUDE_CONFIG_DIR")
        .args(["install", "claude-code", "--project"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let findings = wiring_findings(&env, true);
    assert!(
        has(
            &findings,
            "warning",
            "the matcher `terminal` meets no tool of Claude Code, so this hook never runs there (it meets Hermes's)"
        ),
        "{findings:#?}"
    );
    // Written for the shell class, the guard meets both.
    env.hook_md(
        &env.project_hooks(),
        "shell-guard",
        "name: shell-guard\ndescription: A guard.\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        "cat >/dev/null",
    );
    let findings = wiring_findings(&env, true);
    assert!(
        !findings.iter().any(|f| f["message"]
            .as_str()
            .unwrap()
            .contains("shell` meets no tool")),
        "{findings:#?}"
    );
}

/// What a project holds is never run to learn an agent's release: a `claude` reached through a
/// relative PATH entry (`node_modules/.bin`) is passed over by `install` and `doctor`.
#[test]
fn a_projects_own_claude_is_never_run_to_read_a_version() {
    use std::os::unix::fs::PermissionsExt as _;
    let env = TestEnv::new();
    let bin = env.work().join("node_modules/.bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ran = env.path("ran");
    std::fs::write(
        bin.join("claude"),
        format!(
            "#!/bin/sh\ntouch '{}'\necho '2.1.332 (Claude Code)'\n",
            ran.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(bin.join("claude"), std::fs::Permissions::from_mode(0o755)).unwrap();
    for args in [
        &["install", "claude-code", "--project"][..],
        &["doctor", "--no-exec"],
        &["install"],
    ] {
        let _ = env
            .cmd()
            .env("PATH", "node_modules/.bin:/usr/bin:/bin")
            .env_remove("CLAUDE_CONFIG_DIR")
            .args(args)
            .output()
            .unwrap();
        assert!(!ran.exists(), "{args:?} ran the project's claude");
    }
    // The release was not read: the one the checks drive is assumed.
    let text = std::fs::read_to_string(env.work().join(".claude/settings.json")).unwrap();
    assert!(!text.contains("PreSkillShellCommand"), "{text}");
    // The same program through an absolute PATH entry is the person's own, even from the folder
    // it lies under (a `claude` in ~/.local/bin, run from the home folder): it is asked.
    let out = env
        .cmd()
        .current_dir(env.work().join("node_modules"))
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env_remove("CLAUDE_CONFIG_DIR")
        .args(["install", "claude-code", "--project", "..", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(ran.exists());
    let text = std::fs::read_to_string(env.work().join(".claude/settings.json")).unwrap();
    assert!(text.contains("PreSkillShellCommand"), "{text}");
}
