//! Example answers, one per effect, in both dialects (Hermes's and the Agent Hooks/Claude Code
//! one): `events EVENT` prints them and `new` writes them into a scaffolded script's comments, so
//! both say the same thing. A test reads every one through the engine's own answer reader.

use crate::config::{Effects, Event, SourceKind};

/// One way to give an answer: an exit code, stdout and stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Answer {
    /// The exit code.
    pub(crate) exit: u8,
    /// One line of JSON for stdout; empty for none.
    pub(crate) stdout: &'static str,
    /// A line for stderr; empty for none.
    pub(crate) stderr: &'static str,
}

/// One effect and how to ask for it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Example {
    /// `block`, `ask`, `modify`, `context`, `gate`, `text`, or `nothing` (let the action go on
    /// unchanged).
    pub(crate) effect: &'static str,
    /// What the answer does, in a few words.
    pub(crate) does: &'static str,
    /// The Hermes form: what Hermes itself reads from a `config` hook.
    pub(crate) hermes: Answer,
    /// The Agent Hooks form (Claude Code's too).
    pub(crate) agent_hooks: Answer,
    /// Which sources' hooks may give this answer on the event.
    pub(crate) config: bool,
    /// Whether an Agent Hooks hook may give it.
    pub(crate) agent: bool,
}

const fn json(stdout: &'static str) -> Answer {
    Answer {
        exit: 0,
        stdout,
        stderr: "",
    }
}

const NOTHING: Answer = json("");
const ALLOW: Answer = json(r#"{"action": "allow"}"#);

/// The message the block examples give.
pub(crate) const BLOCK_MESSAGE: &str = "Not allowed here: say why";

/// The reason the "ask a person" examples give.
#[cfg(test)]
pub(crate) const ASK_MESSAGE: &str = "This deletes files: a person should decide";

const TABLE: [(Effects, &str, &str, Answer, Answer); 6] = [
    (
        Effects::BLOCK,
        "block",
        "stop what is about to happen, with a reason",
        json(concat!(
            r#"{"action": "block", "message": ""#,
            "Not allowed here: say why",
            r#""}"#
        )),
        Answer {
            exit: 2,
            stdout: "",
            stderr: BLOCK_MESSAGE,
        },
    ),
    (
        Effects::ASK,
        "ask",
        "let a person decide before it runs",
        json(concat!(
            r#"{"action": "approve", "message": ""#,
            "This deletes files: a person should decide",
            r#""}"#
        )),
        json(concat!(
            r#"{"decision": "ask", "reason": ""#,
            "This deletes files: a person should decide",
            r#""}"#
        )),
    ),
    (
        Effects::MODIFY,
        "modify",
        "rewrite the tool input (merged over the current one)",
        json(r#"{"action": "modify", "args": {"command": "timeout 60 echo hello"}}"#),
        json(r#"{"decision": "allow", "modified_input": {"command": "timeout 60 echo hello"}}"#),
    ),
    (
        Effects::CONTEXT,
        "context",
        "add text for the model",
        json(r#"{"context": "Reminder: this repository uses tabs"}"#),
        json(r#"{"context": "Reminder: this repository uses tabs"}"#),
    ),
    (
        Effects::GATE,
        "gate",
        "keep the agent working instead of stopping",
        json(concat!(
            r#"{"action": "continue", "message": ""#,
            "Run the tests before you stop",
            r#""}"#
        )),
        json(concat!(
            r#"{"decision": "block", "reason": ""#,
            "Run the tests before you stop",
            r#""}"#
        )),
    ),
    (
        Effects::TEXT,
        "text",
        "speak this text instead (exactly one key, `text`)",
        json(r#"{"text": "The build passed."}"#),
        json(r#"{"text": "The build passed."}"#),
    ),
];

/// The answers a hook may give on `event`: `nothing` first, then each effect a hook of either
/// executable source may ask for there.
pub(crate) fn examples(event: Event) -> Vec<Example> {
    let config = event.effects(SourceKind::Config);
    let agent = event.effects(SourceKind::AgentHooks);
    // Where a config hook can block it may be `fail_closed`, and then it says "go on" in words
    // (an empty stdout blocks it, as in the newest Hermes).
    let nothing = Example {
        effect: "nothing",
        does: "let it go on unchanged",
        hermes: if config.contains(Effects::BLOCK) {
            ALLOW
        } else {
            NOTHING
        },
        agent_hooks: NOTHING,
        config: true,
        agent: true,
    };
    std::iter::once(nothing)
        .chain(
            TABLE
                .iter()
                .filter(|(effect, ..)| config.contains(*effect) || agent.contains(*effect))
                .map(|&(effect, name, does, hermes, agent_hooks)| Example {
                    effect: name,
                    does,
                    hermes,
                    agent_hooks,
                    config: config.contains(effect),
                    agent: agent.contains(effect),
                }),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{ASK_MESSAGE, Answer, BLOCK_MESSAGE, examples};
    use crate::config::Event;
    use crate::engine::response::{Directive, Rules, interpret};
    use crate::exec::{End, Outcome};

    const GATE_MESSAGE: &str = "Run the tests before you stop";
    const CONTEXT_TEXT: &str = "Reminder: this repository uses tabs";
    const MODIFIED_INPUT: &str = r#"{"command": "timeout 60 echo hello"}"#;

    fn read(event: Event, answer: Answer) -> Option<Directive> {
        let outcome = Outcome {
            end: End::Exited(i32::from(answer.exit)),
            stdout: answer.stdout.as_bytes().to_vec(),
            stdout_overflow: false,
            stderr: answer.stderr.as_bytes().to_vec(),
            elapsed: Duration::ZERO,
        };
        let rules = Rules {
            event,
            effects: event.def().config.with(event.def().agent_hooks),
            name: "example".into(),
            timeout: Duration::from_secs(1),
            fail_closed: false,
            plain_text_context: false,
            config: false,
        };
        interpret(&outcome, &rules).directive
    }

    #[test]
    fn every_example_means_what_it_says_in_both_dialects() {
        let modified: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(MODIFIED_INPUT).unwrap();
        for event in Event::all() {
            for example in examples(event) {
                for answer in [example.hermes, example.agent_hooks] {
                    let expected = match example.effect {
                        "nothing" => None,
                        "block" => Some(Directive::Block {
                            message: BLOCK_MESSAGE.to_owned(),
                        }),
                        "modify" => Some(Directive::Modify {
                            args: modified.clone(),
                        }),
                        "context" => Some(Directive::Context {
                            text: CONTEXT_TEXT.to_owned(),
                        }),
                        "gate" => Some(Directive::Continue {
                            message: GATE_MESSAGE.to_owned(),
                        }),
                        "text" => Some(Directive::Text {
                            text: "The build passed.".to_owned(),
                        }),
                        "ask" => Some(Directive::Ask {
                            message: ASK_MESSAGE.to_owned(),
                            rule_key: None,
                            args: None,
                        }),
                        other => panic!("unexpected effect {other}"),
                    };
                    assert_eq!(read(event, answer), expected, "{event} {answer:?}");
                }
            }
        }
    }

    #[test]
    fn observers_get_only_nothing_and_the_tool_call_gets_block_ask_and_modify() {
        let effects = |name: &str| -> Vec<&str> {
            examples(Event::parse(name).unwrap().event)
                .iter()
                .map(|e| e.effect)
                .collect()
        };
        assert_eq!(effects("on_stream_delta"), ["nothing"]);
        assert_eq!(
            effects("pre_tool_call"),
            ["nothing", "block", "ask", "modify"]
        );
        assert_eq!(effects("pre_llm_call"), ["nothing", "block", "context"]);
        assert_eq!(effects("pre_verify"), ["nothing", "gate"]);
        let post = examples(Event::parse("post_tool_call").unwrap().event);
        assert!(!post[1].config && post[1].agent);
    }
}
