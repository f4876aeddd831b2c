//! The engine as a library: `hermes_hooks::answer` is the path `run` takes, so a library caller
//! gets the same answer line, exit status and agent answer, and hears what `run` says on stderr.

use std::cell::RefCell;
use std::fmt::Display;
use std::path::Path;

use hermes_hooks::{Agent, Locations, Options, Request, Talk};
use serde_json::{Map, Value};

use crate::common::{TestEnv, code, json};

/// What the engine said, kept for the test to read.
#[derive(Default)]
struct Heard(RefCell<Vec<String>>);

impl Talk for Heard {
    fn warn(&self, message: impl Display) {
        self.0.borrow_mut().push(format!("warning: {message}"));
    }

    fn note(&self, message: impl Display) {
        self.0.borrow_mut().push(format!("note: {message}"));
    }

    fn error(&self, err: &anyhow::Error) {
        self.0.borrow_mut().push(format!("error: {err:#}"));
    }
}

/// A line with each hook's time taken out (the one field two runs never share).
fn timeless(mut line: Value) -> Value {
    for hook in line["hooks"].as_array_mut().into_iter().flatten() {
        hook.as_object_mut().unwrap().remove("elapsed_ms");
    }
    line
}

fn payload(text: &str) -> Map<String, Value> {
    serde_json::from_str(text).unwrap()
}

/// Answers `name` as `agent` in-process, with the locations the test binary's run uses.
fn answered(env: &TestEnv, agent: Agent, name: &str, body: &str) -> (hermes_hooks::Answer, Heard) {
    let (home, user_hooks, work) = (env.hermes_home(), env.user_hooks(), env.work());
    let options = Options {
        locations: Locations {
            hermes_home: Some(&home),
            config: None,
            user_hooks: Some(&user_hooks),
            project: Some(&work),
        },
        audit_log: Some(Path::new("off")),
        ..Options::default()
    };
    let heard = Heard::default();
    let request = Request {
        name,
        agent,
        dry_run: false,
        current_dir: &work,
        project_dir: None,
    };
    let answer = hermes_hooks::answer(&options, &request, || Ok(payload(body)), &heard);
    (answer, heard)
}

/// A hook script that blocks every call with "not here"; approved by the caller.
fn guard(env: &TestEnv) -> std::path::PathBuf {
    env.script(
        "guard.sh",
        r#"cat >/dev/null; printf '{"action": "block", "message": "not here"}'"#,
    )
}

const RM: &str = r#"{"tool_name": "terminal", "tool_input": {"command": "rm -rf /"}}"#;

#[test]
fn a_library_caller_gets_the_answer_run_prints() {
    let env = TestEnv::new();
    let guard = guard(&env);
    let unapproved = env.script("new.sh", "cat >/dev/null");
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n    - matcher: terminal\n      command: {}\n",
        unapproved.display(),
        guard.display()
    ));
    env.approve("pre_tool_call", &guard.display().to_string());

    let (answer, heard) = answered(&env, Agent::Hermes, "pre_tool_call", RM);
    let run = env
        .cmd()
        .args(["run", "pre_tool_call", "--project"])
        .arg(env.work())
        .env("HERMES_HOOKS_AUDIT_LOG", "off")
        .write_stdin(RM)
        .output()
        .unwrap();
    let line: Value = serde_json::from_str(answer.line.as_deref().unwrap()).unwrap();
    assert_eq!(timeless(line), timeless(json(&run)));
    assert_eq!(i32::from(answer.status.code()), code(&run));
    assert_eq!(answer.agent_message.as_deref(), Some("not here"));
    // The unapproved hook is said, as `run` says it on stderr.
    let heard = heard.0.into_inner();
    assert!(
        heard
            .iter()
            .any(|said| said.starts_with("warning: ") && said.contains("new.sh")),
        "{heard:?}"
    );
    assert!(String::from_utf8_lossy(&run.stderr).contains("new.sh"));
}

#[test]
fn a_library_caller_speaks_the_agents_contract_as_run_agent_does() {
    let env = TestEnv::new();
    let guard = guard(&env);
    env.one_approved_hook(&guard);
    let bash = r#"{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "rm -rf /"}}"#;

    let (answer, _) = answered(&env, Agent::ClaudeCode, "PreToolUse", bash);
    let run = env
        .cmd()
        .args(["run", "PreToolUse", "--agent", "claude-code", "--project"])
        .arg(env.work())
        .env("HERMES_HOOKS_AUDIT_LOG", "off")
        .write_stdin(bash)
        .output()
        .unwrap();
    assert_eq!(
        answer.line.as_deref().unwrap_or_default(),
        String::from_utf8_lossy(&run.stdout).trim_end()
    );
    assert_eq!(i32::from(answer.status.code()), code(&run));
    assert!(answer.line.unwrap().contains("not here"));
}

#[test]
fn an_unknown_event_is_said_to_the_caller_and_decides_nothing() {
    let env = TestEnv::new();
    let (answer, heard) = answered(&env, Agent::Hermes, "pre_tool_cal", "{}");
    assert_eq!(answer.status.code(), 1);
    assert!(answer.directive.is_none());
    let heard = heard.0.into_inner();
    assert!(
        heard
            .iter()
            .any(|said| said.starts_with("error: ") && said.contains("pre_tool_cal")),
        "{heard:?}"
    );
}
