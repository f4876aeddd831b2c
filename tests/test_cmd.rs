//! `test <event>`: synthetic payloads, `--for-tool`, `--payload-file`, consent, `--expect`, and
//! the report in both forms. It never exits 2.

use serde_json::Value;
use snapbox::{assert_data_eq, str};

use crate::common::{TestEnv, code, stderr};

/// A blocking guard on `terminal` and a recorder without a matcher, both approved.
fn setup(env: &TestEnv) -> std::path::PathBuf {
    let seen = env.path("seen.json");
    env.script(
        "guard.sh",
        "cat >/dev/null; echo 'no terminal today' >&2; exit 2",
    );
    env.script(
        "record.sh",
        &format!("cat > '{}'; printf '{{}}'", seen.display()),
    );
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/record.sh\n    - matcher: terminal\n      command: ~/.hermes/agent-hooks/guard.sh\n",
    );
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/record.sh");
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/guard.sh");
    seen
}

#[test]
fn report_shows_each_hook_then_the_result() {
    let env = TestEnv::new();
    setup(&env);
    let out = env.cmd().args(["test", "pre_tool_call"]).output().unwrap();
    assert_eq!(code(&out), 0, "test never exits 2: {}", stderr(&out));
    assert_data_eq!(
        String::from_utf8_lossy(&out.stdout).into_owned(),
        str![[r#"
test pre_tool_call: 2 hook(s), synthetic payload, all hooks (no --for-tool, no tool_name in a payload)

record.sh  ~/.hermes/agent-hooks/record.sh
  status:     ok  exit 0  [..] ms

guard.sh  ~/.hermes/agent-hooks/guard.sh
  status:     blocked  exit 2  [..] ms
  directive:  {"action":"block","message":"no terminal today"}
  message:    no terminal today
  stderr:     no terminal today

result: {"action":"block","message":"no terminal today"}

"#]]
    );
}

#[test]
fn hooks_get_the_synthetic_wire_payload() {
    let env = TestEnv::new();
    let seen = setup(&env);
    env.cmd().args(["test", "pre-tool-call"]).output().unwrap();
    let wire: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(wire["tool_name"], "terminal");
    assert_eq!(wire["tool_input"]["command"], "echo hello");
    assert_eq!(wire["session_id"], "test-session");
    assert_eq!(wire["extra"]["task_id"], "test-task");
    assert_eq!(wire["extra"]["tool_call_id"], "test-call");
}

#[test]
fn for_tool_applies_matchers_and_payload_files_merge() {
    let env = TestEnv::new();
    let seen = setup(&env);
    let file = env.path("p.json");
    std::fs::write(
        &file,
        r#"{"args": {"command": "ls"}, "session_id": "mine"}"#,
    )
    .unwrap();
    let out = env
        .cmd()
        .args([
            "test",
            "pre_tool_call",
            "--for-tool",
            "web_search",
            "--json",
            "--payload-file",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let statuses: Vec<&str> = doc["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["ok", "not_matched"]);
    assert_eq!(doc["payload"]["tool_name"], "web_search");
    assert!(doc["directive"].as_object().unwrap().is_empty());
    let wire: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(
        (
            wire["tool_input"]["command"].as_str(),
            wire["session_id"].as_str()
        ),
        (Some("ls"), Some("mine"))
    );

    // A captured wire payload (tool_input, extra) replaces the synthetic call's input too.
    std::fs::write(
        &file,
        r#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "rm -rf /"}, "session_id": "w", "cwd": "/", "extra": {"task_id": "t9"}}"#,
    )
    .unwrap();
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--json", "--payload-file"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let wire: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(wire["tool_input"]["command"], "rm -rf /");
    assert_eq!(wire["extra"]["task_id"], "t9");
    assert_eq!(wire["session_id"], "w");
    // An Agent Hooks payload too.
    let with_file = |content: &str| {
        std::fs::write(&file, content).unwrap();
        env.cmd()
            .args(["test", "pre_tool_call", "--payload-file"])
            .arg(&file)
            .output()
            .unwrap()
    };
    with_file(
        r#"{"event_type": "pre-tool-call", "tool_name": "Shell", "tool_input": {"command": "pwd"}, "tool_use_id": "u1"}"#,
    );
    let wire: Value = serde_json::from_slice(&std::fs::read(&seen).unwrap()).unwrap();
    assert_eq!(wire["tool_input"]["command"], "pwd");
    assert_eq!(wire["extra"]["tool_call_id"], "u1");

    // A broken file: the parser's reason once, with its place, not repeated as a cause.
    let out = with_file("{\"a\":\n\n");
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out).matches("EOF while parsing").count(),
        1,
        "{}",
        stderr(&out)
    );

    let out = with_file("[1]");
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("must be a JSON object"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn expect_is_a_one_line_assertion() {
    let env = TestEnv::new();
    setup(&env);
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--expect", "block"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0);
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.ends_with("ok: the hooks answered block, as expected\n"),
        "a pass says so: {shown}"
    );
    let out = env
        .cmd()
        .args([
            "test",
            "pre_tool_call",
            "--for-tool",
            "patch",
            "--expect",
            "block",
        ])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1);
    assert_eq!(
        stderr(&out).trim_end(),
        "hermes-hooks: error: test pre_tool_call: expected block, got none"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("ok: "));
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--expect", "maybe"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 1, "a bad value is a usage error");
}

#[test]
fn consent_applies() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    env.script("new.sh", &format!("touch '{}'", marker.display()));
    env.config("hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/new.sh\n");
    let out = env
        .cmd()
        .args(["test", "on_session_start", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["status"], "unapproved");
    assert!(
        !marker.exists(),
        "testing a fresh config never runs unreviewed code"
    );
    // The report says why; stderr does not say it again.
    let message = doc["hooks"][0]["message"].as_str().unwrap();
    assert!(message.starts_with("not approved, not run"), "{message}");
    assert!(!stderr(&out).contains("not approved"), "{}", stderr(&out));
    let human = env
        .cmd()
        .args(["test", "on_session_start"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&human.stdout);
    assert_eq!(shown.matches("not approved, not run").count(), 1, "{shown}");
    assert!(
        !stderr(&human).contains("not approved"),
        "{}",
        stderr(&human)
    );
    // `run` has only its JSON line: the notice goes to stderr too.
    let run = env.run("on_session_start", "{}");
    assert!(
        stderr(&run).contains("not approved, not run"),
        "{}",
        stderr(&run)
    );

    let out = env
        .cmd()
        .args(["test", "on_session_start", "--accept-hooks", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["status"], "ok");
    assert!(marker.exists());
    // What the report does not show (approved on the spot) is said on stderr.
    assert!(
        stderr(&out).contains("approved by --accept-hooks"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn bad_event_and_bad_config() {
    let env = TestEnv::new();
    let out = env.cmd().args(["test", "pre_tool_cal"]).output().unwrap();
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("did you mean 'pre_tool_call'?"));
    env.config("hooks: {");
    let out = env.cmd().args(["test", "pre_tool_call"]).output().unwrap();
    assert_eq!(code(&out), 1);
    // The end of the file, which PyYAML's C loader (as Hermes) puts on a line of its own.
    assert!(
        stderr(&out).contains("config.yaml:2:1:"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn color_always_colours_the_statuses() {
    let env = TestEnv::new();
    setup(&env);
    let out = env
        .cmd()
        .args(["test", "pre_tool_call", "--color", "always"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("status:     \u{1b}[32mok\u{1b}[0m"),
        "{text:?}"
    );
    assert!(text.contains("\u{1b}[33mblocked\u{1b}[0m"), "{text:?}");
    let plain = env.cmd().args(["test", "pre_tool_call"]).output().unwrap();
    assert!(!plain.stdout.contains(&0x1b), "piped: no colour by default");
}

/// A `fail_closed` guard on `pre_tool_call` that was edited to let everything through.
fn open_guard(env: &TestEnv) -> std::path::PathBuf {
    let script = env.script("guard.sh", "cat >/dev/null; printf '{}'");
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/guard.sh\n      fail_closed: true\n",
    );
    script
}

fn expect(env: &TestEnv, args: &[&str]) -> std::process::Output {
    env.cmd()
        .args(["test", "pre_tool_call"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_block_that_consent_gave_does_not_pass_expect_block() {
    let env = TestEnv::new();
    let script = open_guard(&env);
    // A fresh runner: nothing approved, so the guard fails closed without running.
    let out = expect(&env, &["--expect", "block"]);
    assert_eq!(code(&out), 1, "the block is consent's, not the guard's");
    let said = stderr(&out);
    assert!(said.contains("guard.sh (unapproved)"), "{said}");
    assert!(said.contains("--accept-hooks"), "{said}");
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("not the hooks' own answer: guard.sh (unapproved)"),
        "{shown}"
    );

    // Run, the guard answers for itself: nothing to block.
    let out = expect(&env, &["--accept-hooks", "--expect", "block"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("expected block, got none"),
        "{}",
        stderr(&out)
    );

    // Approved (by the run above), then edited: the block is the pin's, not the guard's.
    std::fs::write(&script, "#!/bin/sh\ncat >/dev/null; printf '{}' # edited\n").unwrap();
    let out = expect(&env, &["--expect", "block", "--json"]);
    assert_eq!(code(&out), 1);
    assert!(
        stderr(&out).contains("guard.sh (changed since approval)"),
        "{}",
        stderr(&out)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["directive"]["action"], "block");
    assert_eq!(doc["matched"], false);
    assert_eq!(doc["did_not_run"][0]["name"], "guard.sh");
    assert_eq!(doc["did_not_run"][0]["status"], "changed");
}

#[test]
fn expect_none_fails_while_a_hook_that_could_answer_did_not_run() {
    let env = TestEnv::new();
    env.script("guard.sh", "cat >/dev/null; exit 2");
    env.config(
        "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ~/.hermes/agent-hooks/guard.sh\n",
    );
    let out = expect(&env, &["--expect", "none", "--json"]);
    assert_eq!(
        code(&out),
        1,
        "an unapproved guard's silence is not its answer"
    );
    assert!(
        stderr(&out).contains("guard.sh (unapproved)"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("--accept-hooks"), "{}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["did_not_run"][0]["status"], "unapproved");

    // A hook whose matcher does not match this tool would not answer anyway.
    let out = expect(&env, &["--for-tool", "web_search", "--expect", "none"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    // A hook that can change nothing on its event (an observer) is no part of the answer.
    env.config("hooks:\n  post_llm_call:\n    - command: ~/.hermes/agent-hooks/guard.sh\n");
    let out = env
        .cmd()
        .args(["test", "post_llm_call", "--expect", "none"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));

    // Approved, but its program cannot be started: no answer either, and consent is not why.
    env.config("hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/gone.sh\n");
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/gone.sh");
    let out = expect(&env, &["--accept-hooks", "--expect", "none"]);
    assert_eq!(code(&out), 1);
    let said = stderr(&out);
    assert!(said.contains("gone.sh (spawn_failed"), "{said}");
    assert!(!said.contains("approves and runs"), "{said}");
}

#[test]
fn a_guard_that_ran_and_failed_closed_blocked_by_what_it_did() {
    let env = TestEnv::new();
    env.script("guard.sh", "cat >/dev/null; echo 'not json'");
    env.config(
        "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/guard.sh\n      fail_closed: true\n",
    );
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/guard.sh");
    let out = expect(&env, &["--expect", "block", "--json"]);
    assert_eq!(code(&out), 0, "as `run` would: {}", stderr(&out));
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["status"], "invalid_output");
    assert_eq!(doc["did_not_run"], serde_json::json!([]));
}

#[test]
fn test_sees_the_hooks_run_sees_for_the_same_payload() {
    let env = TestEnv::new();
    let project = env.root().join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    env.hook_md(
        &project.join(".agents/hooks"),
        "guard",
        "name: guard\ndescription: blocks\ntrigger: pre-tool-call\n",
        "cat >/dev/null; echo 'guarded' >&2; exit 2",
    );
    let approved = env
        .cmd()
        .current_dir(&project)
        .args(["approve", "--yes"])
        .output()
        .unwrap();
    assert_eq!(code(&approved), 0, "{}", stderr(&approved));
    // The payload names the project; both commands start in a folder outside it.
    for key in ["cwd", "work_dir"] {
        let call = serde_json::json!({"tool_name": "terminal", "tool_input": {"command": "ls"}, key: project});
        let file = env.path("payload.json");
        std::fs::write(&file, call.to_string()).unwrap();
        let run = env
            .cmd()
            .args(["run", "pre_tool_call", "--payload-file"])
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(code(&run), 2, "{}", stderr(&run));
        let out = env
            .cmd()
            .args(["test", "pre_tool_call", "--json", "--expect", "block"])
            .arg("--payload-file")
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(code(&out), 0, "{key}: {}", stderr(&out));
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let line: Value = serde_json::from_slice(&run.stdout).unwrap();
        let names = |hooks: &Value| -> Vec<String> {
            hooks
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["name"].as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(names(&doc["hooks"]), names(&line["hooks"]), "{key}");
        assert_eq!(names(&doc["hooks"]), ["guard"]);
    }
}

/// A rule on the commands a shell call runs, approved.
const COMMAND_RULE: &str = "rules:\n- name: no-rm-root\n  tool: shell\n  when:\n    program: \
                            '^rm$'\n    paths: '^/$'\n  undecidable: block\n  message: Not the \
                            root.\n";

fn command_rule(env: &TestEnv) {
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, COMMAND_RULE).unwrap();
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// `test pre_tool_call` on a shell call of `command`: the human report and the JSON one.
fn tested(env: &TestEnv, command: &str) -> (String, Value) {
    let payload = env.path("payload.json");
    let call = serde_json::json!({"tool_name": "terminal", "tool_input": {"command": command}});
    std::fs::write(&payload, call.to_string()).unwrap();
    let run = |json: bool| {
        let mut cmd = env.cmd();
        cmd.args(["test", "pre_tool_call", "--payload-file"])
            .arg(&payload);
        if json {
            cmd.arg("--json");
        }
        let out = cmd.output().unwrap();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        out.stdout
    };
    let human = String::from_utf8(run(false)).unwrap();
    (human, serde_json::from_slice(&run(true)).unwrap())
}

#[test]
fn a_rule_on_commands_shows_the_commands_of_the_call_and_why_it_did_or_did_not_apply() {
    let env = TestEnv::new();
    command_rule(&env);
    let (human, doc) = tested(&env, "cd /tmp && sudo rm -rf /");
    let commands = &doc["commands"]["commands"];
    assert_eq!(commands[1]["line"], "rm -rf /", "{doc}");
    assert_eq!(commands[1]["through"], serde_json::json!(["sudo"]), "{doc}");
    assert_eq!(doc["hooks"][0]["rule"]["verdict"], "applies", "{doc}");
    assert!(
        human.contains("commands the call would run") && human.contains("rm -rf /  (through sudo)"),
        "{human}"
    );
    assert!(human.contains("rule:       applies"), "{human}");
    let (human, doc) = tested(&env, "rm -rf ./build");
    assert_eq!(
        doc["hooks"][0]["rule"]["verdict"], "does_not_apply",
        "{doc}"
    );
    assert!(human.contains("rule:       does not apply"), "{human}");
    let (human, doc) = tested(&env, "$RM -rf /");
    let rule = &doc["hooks"][0]["rule"];
    assert_eq!(rule["verdict"], "undecidable", "{doc}");
    assert_eq!(rule["then"], "block", "{doc}");
    assert!(rule["why"].as_str().is_some_and(|why| !why.is_empty()));
    assert!(
        doc["commands"]["commands"][0]["unknown"].is_string(),
        "{doc}"
    );
    assert!(human.contains("rule:       undecidable: "), "{human}");
    assert!(human.contains("(unknown: "), "{human}");
    // list --long and events show its conditions on one command, and what an undecidable call
    // gets.
    let out = env.cmd().args(["list", "--long"]).output().unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(
        listed.contains("for one command: program ~ `^rm$`, paths ~ `^/$`")
            && listed.contains("undecidable:  block"),
        "{listed}"
    );
    let out = env.cmd().args(["list", "--json"]).output().unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["hooks"][0]["rule"]["when"][0]["per_command"], true);
    assert_eq!(doc["hooks"][0]["rule"]["undecidable"], "block");
    let out = env
        .cmd()
        .args(["events", "pre_tool_call"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("no-rm-root")
            && shown.contains("for one command: program ~ `^rm$`, paths ~ `^/$`")
            && shown.contains("undecidable:   block"),
        "{shown}"
    );
    let out = env
        .cmd()
        .args(["events", "pre_tool_call", "--json"])
        .output()
        .unwrap();
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["rules"][0]["name"], "no-rm-root", "{doc}");
    assert_eq!(doc["rules"][0]["undecidable"], "block", "{doc}");
}

/// A payload that names its tool is a call of that tool: a guard whose matcher names another
/// agent's tool does not answer, `--expect block` fails, and `test` says which tools each
/// matcher meets; a tool class meets every agent's shell.
#[test]
fn a_payloads_tool_is_matched_and_a_matcher_that_never_meets_it_is_said() {
    let env = TestEnv::new();
    env.script(
        "no-rm-rf.sh",
        "cat >/dev/null; echo 'rm -rf is not allowed here' >&2; exit 2",
    );
    env.config(
        "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: ~/.hermes/agent-hooks/no-rm-rf.sh\n",
    );
    env.approve("pre_tool_call", "~/.hermes/agent-hooks/no-rm-rf.sh");
    let payload = env.path("bash.json");
    std::fs::write(
        &payload,
        r#"{"tool_name": "Bash", "tool_input": {"command": "rm -rf /tmp/x"}}"#,
    )
    .unwrap();
    let test = |args: &[&str]| {
        env.cmd()
            .args(["test", "pre_tool_call", "--payload-file"])
            .arg(&payload)
            .args(args)
            .output()
            .unwrap()
    };
    let out = test(&["--expect", "block"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let shown = String::from_utf8_lossy(&out.stdout);
    assert!(
        shown.contains("tool Bash (named by the payload)"),
        "{shown}"
    );
    assert!(
        shown.contains("No hook's matcher meets the tool `Bash`")
            && shown.contains("no-rm-rf.sh (matcher terminal) meets Hermes: terminal"),
        "{shown}"
    );
    let doc: Value = serde_json::from_slice(&test(&["--json"]).stdout).unwrap();
    assert_eq!(doc["unmet"]["tool"], "Bash", "{doc}");
    assert_eq!(doc["hooks"][0]["status"], "not_matched");
    // The same guard as a HOOK.md for the `shell` class answers in every agent.
    env.hook_md(
        &env.project_hooks(),
        "no-rm-rf",
        "name: no-rm-rf\ndescription: No rm -rf.\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        "cat >/dev/null; echo 'rm -rf is not allowed here' >&2; exit 2",
    );
    let out = env
        .cmd()
        .args(["approve", "--yes", "no-rm-rf"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let out = test(&["--expect", "block"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stdout));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("No hook's matcher"));
}
