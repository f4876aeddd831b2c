//! `run --agent`: one set of approved hooks guards every agent, each agent's event names and
//! payload come in, and each agent gets the decision in its own contract (and nothing else on
//! stdout). What is the same for every agent is proven here; each agent's own file has the rest.

use std::fs;
use std::io::Write as _;
use std::process::{Output, Stdio};

use serde_json::{Value, json};

use crate::common::{TestEnv, code, stderr};

/// Each agent with its pre-tool event, its shell tool's name and the payload it sends for
/// `command`.
fn shell_calls(env: &TestEnv, command: &str) -> Vec<(&'static str, &'static str, String)> {
    let cwd = env.work().display().to_string();
    let claude_like = |tool: &str, event: &str| {
        json!({"hook_event_name": event, "session_id": "s", "cwd": cwd, "tool_name": tool,
               "tool_input": {"command": command}, "tool_use_id": "t1"})
        .to_string()
    };
    vec![
        (
            "claude-code",
            "PreToolUse",
            claude_like("Bash", "PreToolUse"),
        ),
        ("codex", "PreToolUse", claude_like("Bash", "PreToolUse")),
        (
            "gemini",
            "BeforeTool",
            claude_like("run_shell_command", "BeforeTool"),
        ),
        (
            "cursor",
            "beforeShellExecution",
            json!({"hook_event_name": "beforeShellExecution", "conversation_id": "c",
                   "generation_id": "g", "command": command, "cwd": cwd,
                   "workspace_roots": [cwd]})
            .to_string(),
        ),
        (
            "copilot",
            "preToolUse",
            json!({"sessionId": "s", "timestamp": 1, "cwd": cwd, "toolName": "bash",
                   "toolArgs": {"command": command, "description": "d"}})
            .to_string(),
        ),
    ]
}

fn run_as(env: &TestEnv, agent: &str, event: &str, payload: &str, extra: &[&str]) -> Output {
    env.cmd()
        .args(["run", "--agent", agent])
        .args(extra)
        .arg(event)
        .write_stdin(payload)
        .output()
        .unwrap()
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|err| {
        panic!(
            "stdout is not one JSON document ({err}): {:?}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// A project guard that blocks `rm -rf`, written once with the `shell` class.
fn shell_guard(env: &TestEnv) {
    env.hook_md(
        &env.project_hooks(),
        "no-rm",
        "name: no-rm\ndescription: Refuses recursive deletes\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        "case \"$(cat)\" in *'rm -rf'*) echo '{\"decision\":\"block\",\"reason\":\"rm -rf is not allowed here\"}';; esac",
    );
    approve_all(env);
}

fn approve_all(env: &TestEnv) {
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

/// Whether `out` is the agent's "no": its deny shape, where it reads one.
fn denied(agent: &str, out: &Output) -> bool {
    if code(out) == 2 {
        return out.stdout.is_empty();
    }
    if out.stdout.is_empty() {
        return false;
    }
    let answer = stdout_json(out);
    match agent {
        "claude-code" | "codex" => {
            answer["hookSpecificOutput"]["permissionDecision"] == "deny"
                && answer["hookSpecificOutput"]["permissionDecisionReason"]
                    .as_str()
                    .is_some_and(|reason| reason.contains("rm -rf is not allowed"))
        }
        "gemini" => {
            answer["decision"] == "deny"
                && answer["reason"]
                    .as_str()
                    .is_some_and(|reason| reason.contains("rm -rf is not allowed"))
        }
        "cursor" => answer["permission"] == "deny",
        // At the top level: Copilot does not read a nested deny on its own events.
        "copilot" => {
            answer["permissionDecision"] == "deny"
                && answer["permissionDecisionReason"]
                    .as_str()
                    .is_some_and(|reason| reason.contains("rm -rf is not allowed"))
        }
        _ => false,
    }
}

#[test]
fn one_shell_guard_blocks_every_agents_shell_call_in_that_agents_own_words() {
    let env = TestEnv::new();
    shell_guard(&env);
    for (agent, event, payload) in shell_calls(&env, "rm -rf keep") {
        let out = run_as(&env, agent, event, &payload, &[]);
        assert!(denied(agent, &out), "{agent}: {out:?}");
        // Exit 0 with JSON, or exit 2 with nothing on stdout: never the Hermes line.
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains("\"hooks\""),
            "{agent}"
        );
    }
    // Hermes's own shell tool, through the answer line.
    let out = env.run(
        "pre_tool_call",
        r#"{"tool_name": "terminal", "args": {"command": "rm -rf keep"}}"#,
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
}

#[test]
fn a_call_the_guard_lets_through_gets_the_agents_nothing() {
    let env = TestEnv::new();
    shell_guard(&env);
    for (agent, event, payload) in shell_calls(&env, "ls") {
        let out = run_as(&env, agent, event, &payload, &[]);
        assert_eq!(code(&out), 0, "{agent}: {}", stderr(&out));
        assert!(!denied(agent, &out), "{agent}");
        if agent != "cursor" {
            assert!(out.stdout.is_empty(), "{agent}: {out:?}");
        }
    }
}

#[test]
fn a_class_matcher_fits_only_its_class() {
    let env = TestEnv::new();
    shell_guard(&env);
    let cwd = env.work().display().to_string();
    // A read of a file whose name says `rm -rf` is not a shell call.
    for (agent, event, tool) in [
        ("claude-code", "PreToolUse", "Read"),
        ("gemini", "BeforeTool", "read_file"),
    ] {
        let payload = json!({"cwd": cwd, "tool_name": tool,
                             "tool_input": {"file_path": "rm -rf notes.txt"}})
        .to_string();
        let out = run_as(&env, agent, event, &payload, &[]);
        assert_eq!(code(&out), 0, "{agent}");
        assert!(out.stdout.is_empty(), "{agent}: {out:?}");
    }
}

#[test]
fn agent_hooks_hooks_read_the_agents_tool_name_and_its_class() {
    let env = TestEnv::new();
    let seen = env.path("seen.json");
    env.hook_md(
        &env.project_hooks(),
        "look",
        "name: look\ndescription: Records its payload\ntrigger: pre-tool-call\n",
        &format!("cat > '{}'", seen.display()),
    );
    approve_all(&env);
    for (agent, event, payload) in shell_calls(&env, "ls") {
        let out = run_as(&env, agent, event, &payload, &[]);
        assert_eq!(code(&out), 0, "{agent}: {}", stderr(&out));
        let got: Value = serde_json::from_slice(&fs::read(&seen).unwrap()).unwrap();
        assert_eq!(got["tool_class"], "shell", "{agent}: {got}");
        assert_eq!(got["tool_input"]["command"], "ls", "{agent}: {got}");
        assert_eq!(got["event_type"], "pre-tool-call", "{agent}");
        let expected_tool = match agent {
            "claude-code" | "codex" => "Bash",
            "gemini" => "run_shell_command",
            "copilot" => "bash",
            _ => "Shell",
        };
        assert_eq!(got["tool_name"], expected_tool, "{agent}");
    }
}

#[test]
fn stdout_holds_only_the_agents_answer_and_the_report_goes_to_the_audit_log() {
    let env = TestEnv::new();
    shell_guard(&env);
    // A second hook that fails: said on stderr, never on stdout.
    env.hook_md(
        &env.project_hooks(),
        "broken",
        "name: broken\ndescription: Always fails\ntrigger: pre-tool-call\n",
        "cat >/dev/null; echo boom >&2; exit 3",
    );
    approve_all(&env);
    let log = env.path("audit.jsonl");
    let (_, _, payload) = shell_calls(&env, "ls").remove(0);
    let out = run_as(
        &env,
        "claude-code",
        "PreToolUse",
        &payload,
        &["--audit-log", log.to_str().unwrap()],
    );
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(stderr(&out).contains("boom"), "{}", stderr(&out));
    let audit = fs::read_to_string(&log).unwrap();
    assert!(
        audit.contains("\"failed\"") && audit.contains("broken"),
        "{audit}"
    );
    let line: Value = serde_json::from_str(audit.lines().next().unwrap()).unwrap();
    assert_eq!(line["agent"], "claude-code");
    assert_eq!(line["tool_name"], "Bash");
}

#[test]
fn plain_text_is_context_only_where_the_agent_reads_it_so() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "brief",
        "name: brief\ndescription: Adds the house rules\ntrigger: pre-agent-turn\n",
        "cat >/dev/null; echo 'House rule: never touch keep/.'",
    );
    approve_all(&env);
    let payload = json!({"cwd": env.work(), "prompt": "hello", "session_id": "s"}).to_string();
    let out = run_as(&env, "claude-code", "UserPromptSubmit", &payload, &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout_json(&out)["hookSpecificOutput"]["additionalContext"],
        "House rule: never touch keep/."
    );
    // Gemini reads JSON only: the text is not an answer there (and is said on stderr).
    let out = run_as(&env, "gemini", "BeforeAgent", &payload, &[]);
    assert_eq!(code(&out), 0);
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(stderr(&out).contains("not JSON"), "{}", stderr(&out));
}

#[test]
fn context_at_session_start_reaches_the_agents_that_take_it() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "welcome",
        "name: welcome\ndescription: Says where things are\ntrigger: pre-session\n",
        "cat >/dev/null; echo '{\"context\": \"The build is make check.\"}'",
    );
    approve_all(&env);
    let payload = json!({"cwd": env.work(), "session_id": "s", "source": "startup"}).to_string();
    for agent in ["claude-code", "codex", "gemini"] {
        let out = run_as(&env, agent, "SessionStart", &payload, &[]);
        assert_eq!(code(&out), 0, "{agent}: {}", stderr(&out));
        assert_eq!(
            stdout_json(&out)["hookSpecificOutput"]["additionalContext"],
            "The build is make check.",
            "{agent}"
        );
    }
    let out = run_as(&env, "cursor", "sessionStart", &payload, &[]);
    assert_eq!(
        stdout_json(&out)["additional_context"],
        "The build is make check."
    );
}

#[test]
fn the_quality_gate_asks_each_agent_to_keep_working() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "tests-first",
        "name: tests-first\ndescription: Wants the tests run\ntrigger: pre-agent-turn-stop\n",
        "cat >/dev/null; echo 'run the tests first' >&2; exit 2",
    );
    approve_all(&env);
    let payload = json!({"cwd": env.work(), "session_id": "gate"}).to_string();
    for (agent, event) in [
        ("claude-code", "Stop"),
        ("codex", "Stop"),
        ("gemini", "AfterAgent"),
        ("cursor", "stop"),
    ] {
        let out = run_as(&env, agent, event, &payload, &[]);
        assert_eq!(code(&out), 0, "{agent}: {}", stderr(&out));
        let answer = stdout_json(&out);
        let said = match agent {
            "claude-code" | "codex" => {
                answer["decision"] == "block" && answer["reason"] == "run the tests first"
            }
            "gemini" => answer["decision"] == "deny" && answer["reason"] == "run the tests first",
            _ => answer["followup_message"] == "run the tests first",
        };
        assert!(said, "{agent}: {answer}");
    }
}

#[test]
fn an_agents_event_with_no_counterpart_runs_no_hook_and_answers_nothing() {
    let env = TestEnv::new();
    let marker = env.path("ran");
    env.hook_md(
        &env.project_hooks(),
        "any",
        "name: any\ndescription: Marks that it ran\ntrigger: pre-agent-turn\n",
        &format!("cat >/dev/null; touch '{}'", marker.display()),
    );
    approve_all(&env);
    let out = run_as(&env, "gemini", "BeforeModel", "{}", &[]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert!(!marker.exists());
}

#[test]
fn runner_errors_fail_open_by_default_and_give_the_agents_deny_when_closed() {
    let env = TestEnv::new();
    shell_guard(&env);
    for (agent, event) in [
        ("claude-code", "PreToolUse"),
        ("codex", "PreToolUse"),
        ("gemini", "BeforeTool"),
    ] {
        let out = run_as(&env, agent, event, "{not json", &[]);
        assert_eq!(code(&out), 1, "{agent}");
        assert!(out.stdout.is_empty(), "{agent}: {out:?}");
        assert!(stderr(&out).contains("payload"), "{agent}");
        let out = run_as(&env, agent, event, "{not json", &["--fail-closed"]);
        let answer = stdout_json(&out);
        let deny = answer["hookSpecificOutput"]["permissionDecision"] == "deny"
            || answer["decision"] == "deny";
        assert!(deny, "{agent}: {answer}");
    }
}

/// An event name an agent adds later (or a misspelt one) is nothing, with a warning that says
/// so (and what was perhaps meant), never exit 1: the agent would read that as a failed hook.
#[test]
fn an_event_this_version_does_not_know_is_nothing_with_a_warning() {
    let env = TestEnv::new();
    shell_guard(&env);
    for (agent, event) in [
        ("gemini", "BeforeTol"),
        ("claude-code", "PreFutureThing"),
        ("codex", "PreFutureThing"),
    ] {
        for flags in [&[][..], &["--fail-closed"][..]] {
            let out = run_as(&env, agent, event, "{}", flags);
            assert_eq!(code(&out), 0, "{agent} {flags:?}: {}", stderr(&out));
            assert!(out.stdout.is_empty(), "{agent}: {out:?}");
            assert!(
                stderr(&out).contains("no hook runs for it"),
                "{}",
                stderr(&out)
            );
        }
    }
    let out = run_as(&env, "gemini", "BeforeTol", "{}", &[]);
    assert!(stderr(&out).contains("did you mean 'BeforeTool'"));
}

#[test]
fn an_unknown_agent_is_a_usage_error() {
    let env = TestEnv::new();
    let out = run_as(&env, "vim", "PreToolUse", "{}", &[]);
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("claude-code"), "{}", stderr(&out));
}

#[test]
fn serve_answers_a_request_in_its_agents_contract() {
    let env = TestEnv::new();
    shell_guard(&env);
    let (_, _, payload) = shell_calls(&env, "rm -rf keep").remove(2);
    let requests = format!(
        "{}\n{}\n{}\n",
        json!({"id": 1, "agent": "gemini", "event": "BeforeTool",
               "payload": serde_json::from_str::<Value>(&payload).unwrap()}),
        json!({"id": 2, "agent": "gemini", "event": "BeforeModel", "payload": {}}),
        json!({"id": 3, "agent": "emacs", "event": "BeforeTool"}),
    );
    let mut child = env
        .std_cmd()
        .arg("serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(requests.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0]["id"], 1);
    assert_eq!(lines[0]["exit"], 0);
    assert_eq!(lines[0]["answer"]["decision"], "deny", "{}", lines[0]);
    assert_eq!(lines[1], json!({"id": 2, "exit": 0, "answer": null}));
    assert_eq!(lines[2]["id"], 3);
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap()
            .contains("unknown agent"),
        "{}",
        lines[2]
    );
}

#[test]
fn events_shows_every_agents_names_for_each_event() {
    let env = TestEnv::new();
    let out = env
        .cmd()
        .args(["events", "--agent", "gemini", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = stdout_json(&out);
    let rows = doc["events"].as_array().unwrap();
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).cloned();
    assert_eq!(row("BeforeTool").unwrap()["event"], "pre_tool_call");
    assert_eq!(row("BeforeModel").unwrap()["event"], Value::Null);
    assert_eq!(
        row("SessionStart").unwrap()["agent_hooks"],
        json!(["block", "context"])
    );
    // Another agent's name shows the event it stands for, with every agent's names.
    let out = env
        .cmd()
        .args(["events", "beforeShellExecution", "--json"])
        .output()
        .unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let detail = stdout_json(&out);
    assert_eq!(detail["event"], "pre_tool_call");
    assert_eq!(detail["names"]["agents"]["gemini"], json!(["BeforeTool"]));
    let out = env.cmd().args(["events", "--json"]).output().unwrap();
    let table = stdout_json(&out);
    assert_eq!(
        table["events"][0]["agents"]["cursor"],
        json!([
            "preToolUse",
            "beforeShellExecution",
            "beforeMCPExecution",
            "beforeReadFile"
        ])
    );
}

#[test]
fn a_block_with_a_blank_reason_still_blocks_every_agent_and_says_so() {
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "terse",
        "name: terse\ndescription: Blocks without a word\ntrigger: pre-tool-call\n",
        "cat >/dev/null; echo '{\"decision\":\"block\",\"reason\":\"   \"}'",
    );
    approve_all(&env);
    for (agent, event, payload) in shell_calls(&env, "ls") {
        let out = run_as(&env, agent, event, &payload, &[]);
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let answer = stdout_json(&out);
        let reason = answer["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .or(answer["permissionDecisionReason"].as_str())
            .or(answer["reason"].as_str())
            .or(answer["agent_message"].as_str())
            .unwrap_or_else(|| panic!("{agent}: no reason in {text}"));
        assert!(
            reason.contains("without giving a reason"),
            "{agent}: {text}"
        );
    }
}

#[test]
fn hermes_hears_a_post_tool_call_note_where_its_plugin_can_deliver_it() {
    // The plugin appends it to the tool's result (transform_tool_result); the answer carries it.
    let env = TestEnv::new();
    env.hook_md(
        &env.project_hooks(),
        "note",
        "name: note\ndescription: Leaves a note after each call\ntrigger: post-tool-call\n",
        "cat >/dev/null; echo '{\"context\": \"the build is stale\"}'",
    );
    approve_all(&env);
    let payload = json!({"tool_name": "terminal", "args": {"command": "ls"}, "result": "ok",
                         "cwd": env.work()})
    .to_string();
    let out = env.run("post_tool_call", &payload);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["context"], "the build is stale");
}

#[test]
fn a_hermes_payload_reaches_its_hooks_as_it_came() {
    // Another agent's fields are read into the names hooks know; Hermes's own payload is not
    // touched (a `prompt` stays a `prompt`, no `user_message` appears).
    let env = TestEnv::new();
    let seen = env.path("seen.json");
    let hook = env.script("look.sh", &format!("cat > '{}'", seen.display()));
    env.config(&format!(
        "hooks:\n  pre_llm_call:\n    - command: {}\n",
        hook.display()
    ));
    env.approve("pre_llm_call", &hook.display().to_string());
    let out = env.run("pre_llm_call", r#"{"session_id": "s", "prompt": "p"}"#);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got: Value = serde_json::from_slice(&fs::read(&seen).unwrap()).unwrap();
    assert_eq!(got["extra"], json!({"prompt": "p"}), "{got}");
}

#[test]
fn the_shell_class_covers_the_shells_of_agents_that_speak_claude_codes_contract() {
    let env = TestEnv::new();
    shell_guard(&env);
    let cwd = env.work().display().to_string();
    // Factory Droid's `Execute`, GitHub Copilot CLI's `bash` and the input its shell sessions
    // take, Augment's processes: wired by hand with Claude Code's contract.
    for (tool, input) in [
        ("Execute", json!({"command": "rm -rf keep"})),
        ("bash", json!({"command": "rm -rf keep"})),
        (
            "write_bash",
            json!({"sessionId": "1", "input": "rm -rf keep\n"}),
        ),
        (
            "launch-process",
            json!({"command": "rm -rf keep", "wait": true}),
        ),
        (
            "write-process",
            json!({"terminal_id": 1, "input_text": "rm -rf keep\n"}),
        ),
    ] {
        let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": cwd,
            "tool_name": tool, "tool_input": input, "tool_use_id": "t1"})
        .to_string();
        let out = run_as(&env, "claude-code", "PreToolUse", &payload, &[]);
        assert!(denied("claude-code", &out), "{tool}: {out:?}");
    }
}

/// A person sees a guard that stopped guarding (SPEC 9): someone fixes a typo in an approved
/// guard, and at the next call the agent's message to the person (its `systemMessage`) names
/// the guard and `hermes-hooks approve`, once per session and guard. The model is never told
/// to approve anything.
#[test]
fn an_edited_guard_is_told_to_the_person_once_per_session() {
    let env = TestEnv::new();
    let guard = env.hook_md(
        &env.project_hooks(),
        "no-deletes",
        "name: no-deletes\ndescription: Refuses deletes\ntrigger: pre-tool-call\nmatcher:\n  tool: shell\n",
        "grep -q 'rm -rf' && { echo 'deletes are not allowed' >&2; exit 2; }; exit 0",
    );
    let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    fs::write(
        &guard,
        "#!/bin/sh\n# fixed a typo\ngrep -q 'rm -rf' && { echo 'deletes are not allowed' >&2; exit 2; }; exit 0\n",
    )
    .unwrap();
    for (agent, event, payload) in shell_calls(&env, "rm -rf ../victim") {
        if agent == "cursor" || agent == "copilot" {
            continue; // no message for the person in their answers (docs/agents.md)
        }
        let call = |session: &str| {
            let mut payload: Value = serde_json::from_str(&payload).unwrap();
            payload["session_id"] = Value::from(format!("{agent}-{session}"));
            let out = env
                .cmd()
                .args(["run", "--agent", agent, event])
                .write_stdin(payload.to_string())
                .output()
                .unwrap();
            assert_eq!(code(&out), 0, "{agent}: {}", stderr(&out));
            serde_json::from_slice::<Value>(&out.stdout).unwrap_or(Value::Null)
        };
        let first = call("one");
        let message = first["systemMessage"].as_str().unwrap_or_default();
        assert!(
            message.contains("no-deletes") && message.contains("hermes-hooks approve"),
            "{agent}: the person is told: {first}"
        );
        let for_model = first.to_string().replace(message, "");
        assert!(!for_model.contains("approve"), "{agent}: {first}");
        let second = call("one");
        assert!(
            second["systemMessage"].is_null(),
            "{agent}: once per session: {second}"
        );
        let other = call("two");
        assert!(
            other["systemMessage"].is_string(),
            "{agent}: each session: {other}"
        );
    }
}
