//! The answers of the agents that speak Claude Code's hook contract (Claude Code itself, Codex,
//! and the agents that copied it): `hookSpecificOutput` with `permissionDecision`,
//! `updatedInput` and `additionalContext`, `decision: block`, and exit 2 with the reason on
//! stderr where an event has no JSON form. Each agent's file picks the variant it was seen to
//! read; nothing here is one agent's alone.

use serde_json::{Map, Value, json};

use super::{Rendered, Reply, copy_if_absent, hook_specific};
use crate::engine::response::Directive;

/// The reason given where a hook rewrote a skill's shell command, which cannot be rewritten.
const SKILL_REWRITE: &str = "a hook rewrote this skill shell command, and such a command cannot \
    be rewritten, so it was not run";

/// Claude Code's answer for one decision (as Claude Code 2.1.197 and 2.1.332 were seen to read
/// it).
pub(super) fn render(reply: &Reply<'_>) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered::failed_open(reason);
    }
    let event = reply.event;
    match reply.directive {
        None | Some(Directive::Text { .. }) => Rendered::nothing(),
        Some(Directive::Block { message }) => block(event, message),
        Some(Directive::Continue { message }) => keep_working(event, message),
        Some(Directive::Modify { args }) => rewrite(event, args),
        Some(Directive::Context { text }) => context(event, text),
        Some(Directive::Ask { message, args, .. }) => ask(event, message, args.as_ref()),
    }
}

/// Ask a person (only where the agent's contract says it reads it; elsewhere the call arrives as
/// a block): `permissionDecision: ask` with the reason, and the rewritten input when a hook
/// rewrote it, which Claude Code shows the person and runs if they allow it. Claude Code asks
/// only in a session with a person: in `-p` the call is refused.
fn ask(event: &str, message: &str, args: Option<&Map<String, Value>>) -> Rendered {
    let mut specific = fields([
        ("permissionDecision", json!("ask")),
        ("permissionDecisionReason", json!(message)),
    ]);
    if let Some(args) = args {
        specific.insert("updatedInput".to_owned(), Value::Object(args.clone()));
    }
    Rendered::json(&hook_specific(event, specific))
}

/// A block: a deny before a tool; `decision: block` where Claude Code reads one (the prompt is
/// dropped, the model is told after a tool call, a stop or subagent stop means keep working);
/// at session start, which nothing stops, the reason as context for the model and a
/// `systemMessage` for the person (2.1.332 no longer shows a `decision: block` there to the
/// model; 2.1.197 did, and reads this shape as well); elsewhere exit 2 (which stops a compaction,
/// and otherwise shows the reason to the user).
fn block(event: &str, message: &str) -> Rendered {
    match event {
        "PreToolUse" | "PreSkillShellCommand" => Rendered::json(&hook_specific(
            event,
            fields([
                ("permissionDecision", json!("deny")),
                ("permissionDecisionReason", json!(message)),
            ]),
        )),
        "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure" | "Stop" | "SubagentStop" => {
            decision_block(message)
        }
        "SessionStart" => Rendered::json(&json!({
            "hookSpecificOutput": {"hookEventName": event, "additionalContext": message},
            "systemMessage": message,
        })),
        _ => Rendered::exit_two(message),
    }
}

/// Keep working: `decision: block` on a stop; exit 2 elsewhere.
fn keep_working(event: &str, message: &str) -> Rendered {
    match event {
        "Stop" | "SubagentStop" => decision_block(message),
        _ => Rendered::exit_two(message),
    }
}

/// A rewrite is `updatedInput` alone: Claude Code runs the new input and still asks its own
/// permission question about it (`permissionDecision: allow` beside it would approve the call
/// too, which a rewrite does not mean).
fn rewrite(event: &str, args: &Map<String, Value>) -> Rendered {
    match event {
        // Claude Code never applies a rewrite of a skill's shell command (any `updatedInput`
        // keeps it from running): say so, as a deny with a reason.
        "PreSkillShellCommand" => block(event, SKILL_REWRITE),
        "PreToolUse" => Rendered::json(&hook_specific(
            event,
            fields([("updatedInput", Value::Object(args.clone()))]),
        )),
        _ => Rendered::nothing(),
    }
}

/// Context is `additionalContext` where Claude Code reads it; elsewhere nothing (on
/// `PreCompact` any stdout would become compaction instructions).
fn context(event: &str, text: &str) -> Rendered {
    match event {
        "SessionStart" | "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure"
        | "SubagentStart" => Rendered::json(&hook_specific(
            event,
            fields([("additionalContext", json!(text))]),
        )),
        _ => Rendered::nothing(),
    }
}

fn decision_block(message: &str) -> Rendered {
    Rendered::json(&json!({"decision": "block", "reason": message}))
}

/// The Claude Code shapes as Codex reads them (Claude Code's own answers are [`render`]'s, which
/// differ where the real agent was seen to: a rewrite carries `allow`, a session-start block is
/// `continue: false`): `plain_nothing` says whether "nothing" may be `{}` too (it is never
/// printed: empty stdout is "nothing" to both).
pub(super) fn render_allowing_rewrites(reply: &Reply<'_>, _plain_nothing: bool) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered::failed_open(reason);
    }
    let event = reply.event;
    match reply.directive {
        None | Some(Directive::Text { .. }) => Rendered::nothing(),
        Some(Directive::Block { message } | Directive::Ask { message, .. }) => match event {
            "PreToolUse" => Rendered::json(&hook_specific(
                event,
                fields([
                    ("permissionDecision", json!("deny")),
                    ("permissionDecisionReason", json!(message)),
                ]),
            )),
            "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure" | "Stop" | "SubagentStop" => {
                Rendered::json(&json!({"decision": "block", "reason": message}))
            }
            "SessionStart" => Rendered::json(&json!({"continue": false, "stopReason": message})),
            _ => Rendered::exit_two(message),
        },
        Some(Directive::Continue { message }) => match event {
            "Stop" | "SubagentStop" => {
                Rendered::json(&json!({"decision": "block", "reason": message}))
            }
            _ => Rendered::exit_two(message),
        },
        Some(Directive::Modify { args }) => match event {
            "PreToolUse" => Rendered::json(&hook_specific(
                event,
                fields([
                    ("permissionDecision", json!("allow")),
                    ("updatedInput", Value::Object(args.clone())),
                ]),
            )),
            _ => Rendered::nothing(),
        },
        Some(Directive::Context { text }) => match event {
            "SessionStart" | "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure" => {
                Rendered::json(&hook_specific(
                    event,
                    fields([("additionalContext", json!(text))]),
                ))
            }
            _ => Rendered::nothing(),
        },
    }
}

/// Claude Code's payload (and its speakers') already has `tool_name`, `tool_input` and `cwd`
/// (and its `prompt` is taken as `user_message` for every agent). The fields it names its own
/// way are added under the names Hermes hooks read; the event is the payload's own when it says
/// one.
pub(super) fn normalise(event: &str, input: &mut Map<String, Value>) {
    let event = input
        .get("hook_event_name")
        .and_then(Value::as_str)
        .unwrap_or(event)
        .to_owned();
    match event.as_str() {
        // Its `tool_name` is the shell that runs it; a payload without one is still a shell
        // call, never a call no shell guard matches.
        "PreSkillShellCommand" if !input.get("tool_name").is_some_and(Value::is_string) => {
            input.insert("tool_name".to_owned(), Value::from("Bash"));
        }
        "Stop" => copy_if_absent(input, "last_assistant_message", "assistant_response"),
        "PostToolUse" => copy_if_absent(input, "tool_response", "result"),
        "PostToolUseFailure" => {
            input
                .entry("status")
                .or_insert_with(|| Value::from("error"));
        }
        // `subagent_type` and `exit_reason` are the Agent Hooks specification's names.
        "SubagentStart" => {
            copy_if_absent(input, "agent_type", "child_role");
            copy_if_absent(input, "agent_type", "subagent_type");
        }
        "SubagentStop" => {
            copy_if_absent(input, "agent_type", "child_role");
            copy_if_absent(input, "agent_type", "subagent_type");
            copy_if_absent(input, "last_assistant_message", "child_summary");
        }
        "SessionEnd" => copy_if_absent(input, "reason", "exit_reason"),
        _ => {}
    }
}

/// A JSON object of `pairs`, in order.
pub(super) fn fields<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect()
}
