//! Agent Hooks folders: discovery at user and project level, HOOK.md checks with located
//! messages, entry scripts, order and override, consent on the entry path, the Agent Hooks
//! payload and answers, failure routing, the quality gate and `async` hooks.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::time::Instant;

use serde_json::Value;

use crate::common::{PROMPTLY, TestEnv, await_pid, code, json, statuses, stderr, wait_gone};

fn fm(name: &str, trigger: &str, extra: &str) -> String {
    format!("name: {name}\ndescription: A test hook\ntrigger: {trigger}\n{extra}")
}

fn approve_all(env: &TestEnv) {
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn config_then_user_then_project_by_priority_then_name() {
    let env = TestEnv::new();
    let log = env.path("order.log").display().to_string();
    let say = |word: &str| format!("cat >/dev/null; echo {word} >> '{log}'");
    env.script("cfg.sh", &say("config"));
    env.config("hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/cfg.sh\n");
    let (user, project) = (env.user_hooks(), env.project_hooks());
    for (level, name, trigger, extra) in [
        (&user, "b-user", "pre-session", ""),
        (&user, "a-user", "on_session_start", ""),
        (&user, "z-user", "pre-session", "priority: 500\n"),
        (&project, "p-low", "pre-session", "priority: 1\n"),
        (&project, "p-high", "pre-session", "priority: 1000\n"),
    ] {
        env.hook_md(level, name, &fm(name, trigger, extra), &say(name));
    }
    approve_all(&env);
    let out = env.run("pre-session", "{}");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(statuses(&json(&out)), ["ok"; 6]);
    assert_eq!(
        fs::read_to_string(env.path("order.log")).unwrap(),
        "config\nz-user\na-user\nb-user\np-high\np-low\n"
    );
}

#[test]
fn a_project_hook_replaces_the_user_hook_of_its_name() {
    let env = TestEnv::new();
    let log = env.path("who.log").display().to_string();
    env.hook_md(
        &env.user_hooks(),
        "guard",
        &fm("guard", "pre-tool-call", ""),
        &format!("cat >/dev/null; echo user >> '{log}'"),
    );
    env.hook_md(
        &env.project_hooks(),
        "guard",
        &fm("guard", "pre-tool-call", ""),
        &format!("cat >/dev/null; echo project >> '{log}'"),
    );
    approve_all(&env);
    let out = env.run("pre_tool_call", r#"{"tool_name": "terminal"}"#);
    let line = json(&out);
    assert_eq!(statuses(&line), ["not_run", "ok"], "both are shown");
    assert!(
        line["hooks"][0]["message"].as_str().unwrap().starts_with(
            "replaced by the approved project hook 'guard' (.agents/hooks/guard/HOOK.md"
        ),
        "{line}"
    );
    assert_eq!(
        fs::read_to_string(env.path("who.log")).unwrap(),
        "project\n"
    );
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows: Vec<(String, String)> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["scope"].as_str().unwrap().to_owned(),
                h["consent"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("user".to_owned(), "overridden".to_owned()),
            ("project".to_owned(), "approved".to_owned())
        ]
    );
    assert!(doc["hooks"][0]["replaced_by"].is_string());
    assert!(doc["hooks"][1]["replaces"].is_string());
}

#[test]
fn flags_and_xdg_choose_the_folders() {
    let env = TestEnv::new();
    let elsewhere = env.path("elsewhere");
    let project = env.path("proj");
    env.hook_md(
        &elsewhere,
        "u",
        &fm("u", "pre-session", ""),
        "cat >/dev/null",
    );
    env.hook_md(
        &project.join(".agents/hooks"),
        "p",
        &fm("p", "pre-session", ""),
        "cat >/dev/null",
    );
    let out = env
        .cmd()
        .args(["list", "--json", "--user-hooks"])
        .arg(&elsewhere)
        .arg("--project")
        .arg(&project)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["u", "p"]);

    let xdg = env.path("xdg");
    env.hook_md(
        &xdg.join("agents/hooks"),
        "x",
        &fm("x", "pre-session", ""),
        "cat >/dev/null",
    );
    let out = env
        .cmd()
        .args(["list", "--json"])
        .env("XDG_CONFIG_HOME", &xdg)
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["name"], "x");
}

/// The `list --json` in `out` names exactly the HOOK.md files of `names` as unread.
fn unread_files_are_named(out: &std::process::Output, names: &[&str]) {
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let unread: Vec<&str> = listed["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["file"].as_str().unwrap())
        .collect();
    assert_eq!(unread.len(), names.len(), "{unread:?}");
    for name in names {
        let file = format!(".agents/hooks/{name}/HOOK.md");
        assert!(
            unread.iter().any(|f| f.ends_with(&file)),
            "{name}: {unread:?}"
        );
    }
}

#[test]
fn broken_hook_files_are_skipped_with_file_and_line_and_the_rest_loads() {
    let env = TestEnv::new();
    let level = env.project_hooks();
    env.hook_md(
        &level,
        "good",
        &fm("good", "pre-session", ""),
        "cat >/dev/null",
    );
    fs::create_dir_all(level.join("open/scripts")).unwrap();
    fs::write(
        level.join("open/HOOK.md"),
        "---\nname: open\ntrigger: pre-session\n",
    )
    .unwrap();
    fs::create_dir_all(level.join("none")).unwrap();
    fs::write(level.join("none/HOOK.md"), "# no frontmatter\n").unwrap();
    env.hook_md(
        &level,
        "typo",
        &fm("typo", "pre-sesion", ""),
        "cat >/dev/null",
    );
    env.hook_md(
        &level,
        "notrigger",
        "name: notrigger\ndescription: d\n",
        "cat >/dev/null",
    );
    env.hook_md(&level, "badyaml", "name: [unclosed\n", "cat >/dev/null");
    env.hook_md(
        &level,
        "soft",
        "name: Soft_Name\ntrigger: pre-session\ntimeout: 5\npriority: 5000\n",
        "cat >/dev/null",
    );
    env.hook_md(
        &level,
        "legacy",
        &fm("legacy", "before_session", ""),
        "cat >/dev/null",
    );
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    // The listing shows what loaded, and is an error: five hooks could not be read.
    assert_eq!(code(&out), 1);
    let err = stderr(&out);
    let md = |name: &str| format!(".agents/hooks/{name}/HOOK.md");
    unread_files_are_named(&out, &["badyaml", "none", "notrigger", "open", "typo"]);
    for expected in [
        format!("{}:1: the frontmatter never closes", md("open")),
        format!("{}:1: no YAML frontmatter", md("none")),
        format!(
            "{}:4: trigger: unknown event 'pre-sesion' (did you mean 'pre-session'?); the hook is skipped",
            md("typo")
        ),
        format!("{}:1: no trigger", md("notrigger")),
        format!("{}:2: the frontmatter is not valid YAML", md("badyaml")),
        format!(
            "{}:2: name 'Soft_Name' should be lowercase letters",
            md("soft")
        ),
        format!("{}:1: no description", md("soft")),
        format!(
            "{}:4: timeout 5 ms is outside 100..600000; using 100 ms",
            md("soft")
        ),
        format!(
            "{}:5: priority 5000 is outside 0..1000; using 1000",
            md("soft")
        ),
        format!(
            "{}:4: trigger 'before_session' is a legacy event name; use 'pre-session'",
            md("legacy")
        ),
    ] {
        assert!(err.contains(&expected), "missing {expected:?} in:\n{err}");
    }
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Soft_Name", "good", "legacy"],
        "soft problems keep the hook"
    );

    let out = env
        .cmd()
        .args(["doctor", "--json", "--no-exec"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "a skipped HOOK.md is an error for doctor");
}

#[test]
fn a_hook_named_like_an_option_does_not_load_and_run_says_it_could_not_be_loaded() {
    // `approve --yes` approves every hook: a hook may not be named so that typing its name
    // does that. Declared or taken from its folder, such a name is a hook that cannot be
    // loaded, and the runner knows it: an error in the answer, a block under --fail-closed.
    let env = TestEnv::new();
    let level = env.project_hooks();
    env.hook_md(
        &level,
        "flag",
        &fm("--yes", "pre-tool-call", "fail_closed: true\n"),
        "cat >/dev/null; exit 2",
    );
    env.hook_md(
        &level,
        "-x",
        "description: d\ntrigger: pre-tool-call\n",
        "cat >/dev/null",
    );
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    unread_files_are_named(&out, &["-x", "flag"]);
    let err = stderr(&out);
    assert!(
        err.contains(".agents/hooks/flag/HOOK.md:2: the name '--yes' begins with '-'"),
        "{err}"
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"].as_array().unwrap().len(), 0, "{doc}");
    let payload = r#"{"tool_name": "terminal", "args": {"command": "ls"}}"#;
    let out = env.run("pre_tool_call", payload);
    let answer = json(&out);
    let errors = answer["errors"].as_array().unwrap();
    assert!(
        errors
            .iter()
            .any(|e| e["file"].as_str().unwrap().ends_with("flag/HOOK.md")),
        "{answer}"
    );
    let out = env
        .cmd()
        .args(["run", "--fail-closed", "pre_tool_call"])
        .write_stdin(payload)
        .output()
        .unwrap();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    let out = env.cmd().args(["doctor", "--no-exec"]).output().unwrap();
    assert_eq!(code(&out), 1);
}

#[test]
fn entry_scripts_and_interpreters() {
    let env = TestEnv::new();
    let level = env.project_hooks();
    let marker = env.path("sh-ran");
    fs::create_dir_all(level.join("viash/scripts")).unwrap();
    fs::write(
        level.join("viash/HOOK.md"),
        format!("---\n{}---\n", fm("viash", "pre-session", "")),
    )
    .unwrap();
    fs::write(
        level.join("viash/scripts/run.sh"),
        format!("cat >/dev/null; touch '{}'\n", marker.display()),
    )
    .unwrap();
    fs::set_permissions(
        level.join("viash/scripts/run.sh"),
        fs::Permissions::from_mode(0o644),
    )
    .unwrap();
    fs::create_dir_all(level.join("noentry")).unwrap();
    fs::write(
        level.join("noentry/HOOK.md"),
        format!("---\n{}---\n", fm("noentry", "pre-session", "")),
    )
    .unwrap();
    let out = env
        .cmd()
        .args(["run", "pre-session", "--accept-hooks"])
        .output()
        .unwrap();
    let line = json(&out);
    assert_eq!(statuses(&line), ["spawn_failed", "ok"], "{line}");
    assert!(
        marker.exists(),
        "run.sh without its exec bit runs through sh"
    );
    let list = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(doc["hooks"][1]["script_state"], "ok");
    assert_eq!(doc["hooks"][0]["script_state"], "missing");
    let out = env.cmd().args(["doctor", "--no-exec"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("run.sh exists and can run; it has no exec bit, so it runs through sh"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn consent_is_keyed_on_the_entry_script_and_pinned() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    let entry = env.hook_md(
        &env.project_hooks(),
        "pulled",
        &fm("pulled", "pre-session", ""),
        &format!("touch '{}'", marker.display()),
    );
    let out = env.run("pre-session", "{}");
    assert_eq!(
        statuses(&json(&out)),
        ["unapproved"],
        "a hook that arrives with git pull does not run"
    );
    assert!(!marker.exists());
    approve_all(&env);
    assert_eq!(env.approvals()[0]["command"], entry.display().to_string());
    assert_eq!(env.approvals()[0]["event"], "on_session_start");
    assert_eq!(statuses(&json(&env.run("pre-session", "{}"))), ["ok"]);
    fs::write(&entry, "#!/bin/sh\necho changed >&2\n").unwrap();
    assert_eq!(statuses(&json(&env.run("pre-session", "{}"))), ["changed"]);
}

#[test]
fn hooks_receive_the_agent_hooks_payload() {
    let env = TestEnv::new();
    let saved = env.path("payload.json");
    env.hook_md(
        &env.project_hooks(),
        "rec",
        &fm("rec", "pre-tool-call", ""),
        &format!("cat > '{}'; printf '{{}}'", saved.display()),
    );
    approve_all(&env);
    // The payload's cwd is inside the project: its hooks are found from there.
    let inside = env.work().join("src");
    fs::create_dir_all(&inside).unwrap();
    let out = env.run(
        "pre_tool_call",
        &serde_json::json!({"tool_name": "Shell", "args": {"command": "ls"}, "session_id": "s1", "tool_call_id": "tool_123", "cwd": inside, "model": "m1", "context": {"branch": "main"}}).to_string(),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = fs::read_to_string(&saved).unwrap();
    assert!(
        text.starts_with(r#"{"event_type": "pre-tool-call", "timestamp": ""#),
        "{text}"
    );
    let wire: Value = serde_json::from_str(&text).unwrap();
    assert!(wire["timestamp"].as_str().unwrap().ends_with('Z'));
    assert_eq!(wire["work_dir"], inside.display().to_string());
    assert_eq!(wire["session_id"], "s1");
    assert_eq!(wire["tool_input"]["command"], "ls");
    assert_eq!(wire["tool_use_id"], "tool_123");
    assert_eq!(wire["context"]["branch"], "main");
    assert_eq!(wire["model"], "m1");
}

#[test]
fn agent_hooks_answers() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "rewrite",
        &fm("rewrite", "pre-tool-call", "priority: 200\n"),
        r#"cat >/dev/null; echo '{"decision": "allow", "modified_input": {"command": "ls"}}'"#,
    );
    env.hook_md(
        &env.project_hooks(),
        "stop-session",
        &fm("stop-session", "pre-session", ""),
        "cat >/dev/null; echo 'not today' >&2; exit 2",
    );
    env.hook_md(
        &env.project_hooks(),
        "turn",
        &fm("turn", "post-agent-turn", ""),
        r#"cat >/dev/null; echo '{"decision": "block", "reason": "redo"}'"#,
    );
    approve_all(&env);
    let out = env.run(
        "pre-tool-call",
        r#"{"tool_name": "Shell", "args": {"command": "rm -rf /"}}"#,
    );
    assert_eq!(json(&out)["args"]["command"], "ls");
    let out = env.run("pre-session", "{}");
    assert_eq!(
        code(&out),
        2,
        "Agent Hooks hooks can block any of their events"
    );
    assert_eq!(stderr(&out).lines().last(), Some("not today"));
    let out = env.run("post-agent-turn", "{}");
    assert_eq!(
        (code(&out), json(&out)["message"].as_str()),
        (2, Some("redo"))
    );
}

#[test]
fn matcher_tool_and_pattern() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "py-only",
        &fm(
            "py-only",
            "pre-tool-call",
            "matcher:\n  tool: write_file|patch\n  pattern: '\\.py$'\n",
        ),
        "cat >/dev/null; exit 2",
    );
    approve_all(&env);
    let run = |payload: &str| statuses(&json(&env.run("pre-tool-call", payload)));
    assert_eq!(
        run(r#"{"tool_name": "write_file", "args": {"path": "a.py"}}"#),
        ["blocked"]
    );
    assert_eq!(
        run(r#"{"tool_name": "write_file", "args": {"path": "a.rs"}}"#),
        ["not_matched"]
    );
    assert_eq!(
        run(r#"{"tool_name": "terminal", "args": {"path": "a.py"}}"#),
        ["not_matched"]
    );
}

#[test]
fn failed_tool_calls_run_the_failure_hooks() {
    let env = TestEnv::new();
    let log = env.path("which.log").display().to_string();
    env.script("cfg.sh", &format!("cat >/dev/null; echo config >> '{log}'"));
    env.config("hooks:\n  post_tool_call:\n    - command: ~/.hermes/agent-hooks/cfg.sh\n");
    env.hook_md(
        &env.project_hooks(),
        "ok",
        &fm("ok", "post-tool-call", ""),
        &format!("cat >/dev/null; echo success >> '{log}'"),
    );
    env.hook_md(&env.project_hooks(), "fail", &fm("fail", "post-tool-call-failure", ""), &format!("read -r line; case \"$line\" in *post-tool-call-failure*) echo failure >> '{log}';; esac"));
    approve_all(&env);
    env.run(
        "post_tool_call",
        r#"{"tool_name": "terminal", "status": "ok"}"#,
    );
    assert_eq!(
        fs::read_to_string(env.path("which.log")).unwrap(),
        "config\nsuccess\n"
    );
    fs::remove_file(env.path("which.log")).unwrap();
    let out = env.run(
        "post_tool_call",
        r#"{"tool_name": "terminal", "status": "error"}"#,
    );
    assert_eq!(
        statuses(&json(&out)),
        ["ok", "ok", "not_matched"],
        "config, fail, ok"
    );
    assert_eq!(
        fs::read_to_string(env.path("which.log")).unwrap(),
        "config\nfailure\n"
    );
    fs::remove_file(env.path("which.log")).unwrap();
    env.run("post-tool-call-failure", r#"{"tool_name": "terminal"}"#);
    assert_eq!(
        fs::read_to_string(env.path("which.log")).unwrap(),
        "config\nfailure\n"
    );
}

#[test]
fn the_quality_gate_from_a_hook_folder() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "tests-pass",
        &fm("tests-pass", "pre-agent-turn-stop", ""),
        "cat >/dev/null; echo 'the tests fail; fix them' >&2; exit 2",
    );
    approve_all(&env);
    let out = env.run("pre-agent-turn-stop", "{}");
    assert_eq!(code(&out), 2);
    let line = json(&out);
    assert_eq!(
        (line["action"].as_str(), line["message"].as_str()),
        (Some("continue"), Some("the tests fail; fix them"))
    );
}

#[test]
fn async_hooks_are_not_waited_for_and_end_at_their_deadline() {
    let env = TestEnv::new();
    let pid_file = env.path("async.pid");
    env.hook_md(
        &env.project_hooks(),
        "bg",
        &fm("bg", "pre-tool-call", "async: true\ntimeout: 1000\n"),
        &format!(
            "echo $$ > '{}'; printf '{{\"decision\": \"block\"}}'; exec sleep 1000",
            pid_file.display()
        ),
    );
    approve_all(&env);
    let started = Instant::now();
    let out = env.run("pre-tool-call", r#"{"tool_name": "terminal"}"#);
    assert!(started.elapsed() < PROMPTLY);
    assert_eq!(
        code(&out),
        0,
        "an async hook cannot block: {}",
        stderr(&out)
    );
    assert_eq!(statuses(&json(&out)), ["async"]);
    assert!(
        wait_gone(await_pid(&pid_file, PROMPTLY)),
        "the watchdog ends it at its deadline"
    );
}

#[test]
fn gateway_and_plugin_hooks_are_shown_and_checked_never_run() {
    let env = TestEnv::new();
    let gateway = env.hermes_home().join("hooks/logger");
    fs::create_dir_all(&gateway).unwrap();
    fs::write(
        gateway.join("HOOK.yaml"),
        "name: logger\ndescription: logs\nevents:\n  - agent:end\n  - command:*\n",
    )
    .unwrap();
    fs::write(
        gateway.join("handler.py"),
        "def handle(event_type, context):\n    pass\n",
    )
    .unwrap();
    let plugin = env.hermes_home().join("plugins/calc");
    fs::create_dir_all(&plugin).unwrap();
    fs::write(
        plugin.join("plugin.yaml"),
        "name: calc\nversion: 1.0.0\nprovides_hooks:\n  - post_tool_call\n  - pre_tool_cal\nrequires_env:\n  - HERMES_HOOKS_TEST_UNSET_VARIABLE\n",
    )
    .unwrap();

    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows: Vec<(&str, &str, &str, &str)> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["event"].as_str().unwrap(),
                h["source"].as_str().unwrap(),
                h["consent"].as_str().unwrap(),
                h["script_state"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("agent:end", "gateway", "in-process", "ok"),
            ("command:*", "gateway", "in-process", "ok"),
            ("post_tool_call", "plugin", "in-process", "missing"),
            ("pre_tool_cal", "plugin", "in-process", "missing"),
        ]
    );

    let out = env.cmd().args(["doctor", "--json"]).output().unwrap();
    assert_eq!(code(&out), 1, "a missing handler is an error");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let found: Vec<(String, String)> = doc["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["level"].as_str().unwrap().to_owned(),
                f["message"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let has = |level: &str, text: &str| {
        assert!(
            found.iter().any(|(l, m)| l == level && m.contains(text)),
            "no {level} {text:?} in {found:#?}"
        );
    };
    has("ok", "handler.py is present");
    has("error", "__init__.py is missing");
    has(
        "warning",
        "'pre_tool_cal' is not an event Hermes fires (did you mean 'pre_tool_call'?)",
    );
    has("warning", "HERMES_HOOKS_TEST_UNSET_VARIABLE is not set");
    assert!(
        !found.iter().any(|(_, m)| m.contains("agent:end")),
        "gateway events and command:* are known"
    );
}

#[test]
fn fail_closed_and_the_python_fallback() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "slow-guard",
        &fm(
            "slow-guard",
            "pre-tool-call",
            "timeout: 300\nfail_closed: true\n",
        ),
        "sleep 30",
    );
    approve_all(&env);
    let out = env.run("pre-tool-call", r#"{"tool_name": "Shell"}"#);
    assert_eq!(code(&out), 2);
    assert_eq!(
        json(&out)["message"],
        "hook slow-guard timed out after 0.3s, so this call was blocked (fail_closed)"
    );

    let folder = env.project_hooks().join("py");
    fs::create_dir_all(folder.join("scripts")).unwrap();
    fs::write(
        folder.join("HOOK.md"),
        format!("---\n{}---\n", fm("py", "pre-session", "")),
    )
    .unwrap();
    fs::write(folder.join("scripts/run.py"), "print('{}')\n").unwrap();
    let out = env.cmd().args(["doctor", "--no-exec"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        text.contains("run.py exists and can run; it has no exec bit, so it runs through python3"),
        "{text}"
    );
}
