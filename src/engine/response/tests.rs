//! The unit tests of `response`.

use super::{Answer, Directive, Rules, Status, interpret};
use crate::config::{Event, SourceKind};
use crate::exec::{End, Outcome};
use serde_json::json;
use std::time::Duration;

fn outcome(end: End, stdout: &str, stderr: &str) -> Outcome {
    Outcome {
        end,
        stdout: stdout.as_bytes().to_vec(),
        stdout_overflow: false,
        stderr: stderr.as_bytes().to_vec(),
        elapsed: Duration::ZERO,
    }
}

fn read(event: &str, end: End, stdout: &str, stderr: &str, fail_closed: bool) -> Answer {
    let event = Event::parse(event).unwrap().event;
    interpret(
        &outcome(end, stdout, stderr),
        &Rules {
            event,
            effects: event.effects(SourceKind::Config),
            name: "g.sh".into(),
            timeout: Duration::from_secs(5),
            fail_closed,
            plain_text_context: false,
            config: true,
        },
    )
}

/// A config hook that exited 0 with `stdout`.
fn answer(event: &str, stdout: &str) -> Answer {
    read(event, End::Exited(0), stdout, "", false)
}

#[allow(clippy::unnecessary_wraps)] // compared with `Answer::directive`, an Option
fn block(message: &str) -> Option<Directive> {
    Some(Directive::Block {
        message: message.to_owned(),
    })
}

#[test]
fn both_block_dialects() {
    let a = answer("pre_tool_call", r#"{"action":"block","message":"no"}"#);
    assert_eq!((a.status, a.directive), (Status::Blocked, block("no")));
    let a = answer("pre_tool_call", r#"{"decision":"block","reason":"nope"}"#);
    assert_eq!(a.directive, block("nope"));
    let a = answer("pre_tool_call", r#"{"decision":"deny","message":"m"}"#);
    assert_eq!(a.directive, block("m"));
    let a = answer("pre_tool_call", r#"{"action":"block","message":42}"#);
    assert_eq!(a.directive, block("Blocked by hook g.sh"));
}

#[test]
fn exit_two_message_sources() {
    let a = read(
        "pre_tool_call",
        End::Exited(2),
        "",
        "policy violation\n",
        false,
    );
    assert_eq!(
        (a.status, a.directive),
        (Status::Blocked, block("policy violation"))
    );
    let a = read(
        "pre_tool_call",
        End::Exited(2),
        r#"{"reason":"from json"}"#,
        "stderr",
        false,
    );
    assert_eq!(a.directive, block("from json"));
    let a = read("pre_tool_call", End::Exited(2), "", "", false);
    assert_eq!(a.directive, block("Blocked by hook g.sh"));
    let long = "x".repeat(1000);
    let a = read("pre_tool_call", End::Exited(2), "", &long, false);
    assert_eq!(a.message.unwrap().len(), 400);
}

#[test]
fn exit_two_where_nothing_can_block_is_a_failure() {
    let a = read("post_tool_call", End::Exited(2), "", "no", false);
    assert_eq!((a.status, a.directive), (Status::Failed, None));
}

#[test]
fn modify_both_dialects() {
    let a = answer(
        "pre_tool_call",
        r#"{"action":"modify","args":{"command":"ls"}}"#,
    );
    assert_eq!(a.status, Status::Modified);
    let a = answer(
        "pre_tool_call",
        r#"{"decision":"allow","modified_input":{"command":"ls"}}"#,
    );
    assert_eq!(
        a.directive,
        Some(Directive::Modify {
            args: json!({"command":"ls"}).as_object().unwrap().clone()
        })
    );
    let a = answer("pre_tool_call", r#"{"decision":"allow"}"#);
    assert_eq!((a.status, a.directive, a.message), (Status::Ok, None, None));
    let a = read(
        "pre_tool_call",
        End::Exited(1),
        r#"{"action":"modify","args":{"c":1}}"#,
        "",
        false,
    );
    assert_eq!(
        (a.status, a.directive),
        (Status::Failed, None),
        "a failed hook never modifies"
    );
}

/// `agent/shell_hooks.py` `_parse_response`: a rewrite counts only with non-empty arguments.
#[test]
fn an_empty_rewrite_is_no_answer() {
    for empty in [
        r#"{"action":"modify","args":{}}"#,
        r#"{"decision":"allow","tool_input":{}}"#,
    ] {
        let a = answer("pre_tool_call", empty);
        assert_eq!((a.status, a.directive), (Status::Ok, None), "{empty}");
        assert!(a.message.unwrap().contains("no arguments"), "{empty}");
    }
}

#[test]
fn context_only_where_allowed() {
    let a = answer("pre_llm_call", r#"{"context":"Friday"}"#);
    assert_eq!(
        a.directive,
        Some(Directive::Context {
            text: "Friday".to_owned()
        })
    );
    let a = answer("pre_llm_call", r#"{"action":"block","message":"x"}"#);
    assert_eq!((a.status, a.directive), (Status::Ok, None));
    assert!(a.message.unwrap().contains("can only context"));
    let a = answer("pre_llm_call", r#"{"context":"   "}"#);
    assert_eq!(a.directive, None);
}

#[test]
fn additional_context_is_context_for_agent_hooks_only() {
    let event = Event::parse("pre-agent-turn").unwrap().event;
    let rules = |config| Rules {
        event,
        effects: event.effects(if config {
            SourceKind::Config
        } else {
            SourceKind::AgentHooks
        }),
        name: "h".into(),
        timeout: Duration::from_secs(5),
        fail_closed: false,
        plain_text_context: false,
        config,
    };
    let stdout = r#"{"decision":"allow","additional_context":"Friday"}"#;
    let out = outcome(End::Exited(0), stdout, "");
    let a = interpret(&out, &rules(false));
    assert_eq!(
        (a.status, a.directive),
        (
            Status::Context,
            Some(Directive::Context {
                text: "Friday".to_owned()
            })
        )
    );
    let a = interpret(&out, &rules(true));
    assert_eq!((a.status, a.directive), (Status::Ok, None));
}

#[test]
fn a_new_text_is_exactly_one_non_blank_text_and_a_block_still_blocks() {
    let tts = |stdout: &str| answer("pre_tts_synthesis", stdout);
    let a = tts(r#"{"text": "Build passed."}"#);
    assert_eq!(
        (a.status, a.directive),
        (
            Status::Modified,
            Some(Directive::Text {
                text: "Build passed.".to_owned()
            })
        )
    );
    for refused in [
        r#"{"text": "  "}"#,
        r#"{"text": 123}"#,
        r#"{"action": "allow", "text": "x"}"#,
    ] {
        let a = tts(refused);
        assert_eq!((a.status, a.directive), (Status::Ok, None), "{refused}");
        assert!(a.message.unwrap().contains("exactly"), "{refused}");
    }
    let a = tts(r#"{"action": "block", "message": "no secrets aloud"}"#);
    assert_eq!(a.directive, block("no secrets aloud"));
    let a = answer("pre_llm_call", r#"{"text": "x"}"#);
    assert_eq!(a.directive, None, "only pre_tts_synthesis takes a text");
}

#[test]
fn quality_gate() {
    let gate = |stdout: &str, end| read("pre_verify", end, stdout, "tests fail", false);
    let a = gate(
        r#"{"action":"continue","message":"run tests"}"#,
        End::Exited(0),
    );
    assert_eq!(
        (a.status, a.directive),
        (
            Status::Gated,
            Some(Directive::Continue {
                message: "run tests".into()
            })
        )
    );
    let a = gate(r#"{"decision":"block","reason":"r"}"#, End::Exited(0));
    assert_eq!(
        a.directive,
        Some(Directive::Continue {
            message: "r".into()
        })
    );
    let a = gate(r#"{"action":"continue"}"#, End::Exited(0));
    assert_eq!(a.directive, None);
    // A config hook's exit 2 is not a gate (Hermes counts it on pre_tool_call only): its
    // stdout is read, as for any failing exit.
    let a = gate("", End::Exited(2));
    assert_eq!((a.status, a.directive), (Status::Failed, None));
    let a = gate(
        r#"{"action":"continue","message":"run tests"}"#,
        End::Exited(2),
    );
    assert_eq!(
        a.directive,
        Some(Directive::Continue {
            message: "run tests".into()
        })
    );
}

#[test]
fn quality_gate_words_are_read_as_hermes_reads_them() {
    let gate = |stdout: &str| read("pre_verify", End::Exited(0), stdout, "", false).directive;
    let keep = |m: &str| {
        Some(Directive::Continue {
            message: m.to_owned(),
        })
    };
    // `action`, else `decision`, trimmed, any case; the message trimmed.
    assert_eq!(
        gate(r#"{"action":" Continue ","message":"  run tests \n"}"#),
        keep("run tests")
    );
    assert_eq!(gate(r#"{"decision":"BLOCK","reason":"r"}"#), keep("r"));
    // A non-empty `action` wins even when it is no gate word: `decision` is not read.
    assert_eq!(
        gate(r#"{"action":"allow","decision":"block","reason":"r"}"#),
        None
    );
    // An empty or null `action` falls through to `decision`.
    assert_eq!(
        gate(r#"{"action":"","decision":"continue","message":"m"}"#),
        keep("m")
    );
    assert_eq!(
        gate(r#"{"action":null,"decision":"continue","message":"m"}"#),
        keep("m")
    );
    // `message or reason`: a blank message is still the message, and it makes no gate.
    assert_eq!(
        gate(r#"{"action":"continue","message":"  ","reason":"r"}"#),
        None
    );
    assert_eq!(
        gate(r#"{"action":"continue","message":"","reason":"r"}"#),
        keep("r")
    );
    assert_eq!(gate(r#"{"action":true,"message":"m"}"#), None);
}

#[test]
fn python_json_extensions_are_valid_output() {
    let a = answer(
        "pre_tool_call",
        r#"{"decision":"block","reason":"no","score":NaN,"max":Infinity,"min":-Infinity}"#,
    );
    assert_eq!((a.status, a.directive), (Status::Blocked, block("no")));
    let a = read("pre_tool_call", End::Exited(0), r#"{"x": NaN}"#, "", false);
    assert_eq!((a.status, a.directive), (Status::Ok, None));
    let a = read(
        "pre_tool_call",
        End::Exited(0),
        r#"{"action": "allow", "x": NaN}"#,
        "",
        true,
    );
    assert_eq!((a.status, a.directive), (Status::Ok, None));
}

#[test]
fn invalid_output_and_fail_closed() {
    let a = answer("pre_tool_call", "Traceback ...");
    assert_eq!(
        (a.status, a.directive.is_none()),
        (Status::InvalidOutput, true)
    );
    let a = read("pre_tool_call", End::Exited(0), "[1, 2]", "", true);
    assert_eq!(a.status, Status::InvalidOutput);
    assert!(
        matches!(a.directive, Some(Directive::Block { message }) if message == "hook g.sh gave an answer that could not be read, so this call was blocked (fail_closed)")
    );
    let a = answer("pre_tool_call", r#"{"ok":true} trailing"#);
    assert_eq!(a.status, Status::InvalidOutput);
    let a = read("pre_tool_call", End::TimedOut, "", "", true);
    assert_eq!(
        (a.status, a.directive),
        (
            Status::TimedOut,
            block("hook g.sh timed out after 5s, so this call was blocked (fail_closed)")
        )
    );
    let a = read(
        "pre_tool_call",
        End::SpawnFailed("command not found: x".into()),
        "",
        "",
        false,
    );
    assert_eq!((a.status, a.directive), (Status::SpawnFailed, None));
}

#[test]
fn failures_keep_their_block() {
    let a = read(
        "pre_tool_call",
        End::Exited(1),
        r#"{"action":"block","message":"m"}"#,
        "",
        false,
    );
    assert_eq!((a.status, a.directive), (Status::Failed, block("m")));
    let a = read("pre_tool_call", End::Exited(1), "", "boom\nmore", false);
    assert_eq!(a.message.as_deref(), Some("exited with code 1: boom"));
    let a = read("pre_tool_call", End::Signaled(9), "", "", false);
    assert_eq!(
        (a.status, a.message.as_deref()),
        (Status::Failed, Some("killed by signal 9 (SIGKILL)"))
    );
}
