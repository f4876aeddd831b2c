//! Claude Code: its event names, tools and payload, and the answers it reads (exit 0 with
//! `hookSpecificOutput` or `decision`, exit 2 with the reason on stderr where it has no JSON form).

use serde_json::{Map, Value, json};

use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, hook_specific, unmatched};
use crate::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "claude-code",
    title: "Claude Code",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
};

static EVENTS: &[AgentEvent] = &[
    event("SessionStart", "on_session_start")
        .with_context()
        .plain_text_context(),
    event("UserPromptSubmit", "pre_llm_call").plain_text_context(),
    event("PreToolUse", "pre_tool_call"),
    unmatched("PermissionRequest"),
    event("PostToolUse", "post_tool_call").with_context(),
    event("PostToolUseFailure", "post-tool-call-failure").with_context(),
    unmatched("Notification"),
    event("Stop", "pre_verify"),
    event("SubagentStart", "subagent_start"),
    event("SubagentStop", "subagent_stop"),
    event("PreCompact", "pre-context-compact"),
    event("SessionEnd", "on_session_end"),
];

static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("Bash", Some(ToolClass::Shell)),
    ("BashOutput", None),
    ("KillShell", None),
    ("Edit", Some(ToolClass::Edit)),
    ("MultiEdit", Some(ToolClass::Edit)),
    ("NotebookEdit", Some(ToolClass::Edit)),
    ("Write", Some(ToolClass::Write)),
    ("Read", Some(ToolClass::Read)),
    ("Grep", Some(ToolClass::Search)),
    ("Glob", Some(ToolClass::Search)),
    ("LS", Some(ToolClass::Search)),
    ("WebFetch", Some(ToolClass::Web)),
    ("WebSearch", Some(ToolClass::Web)),
    ("Task", None),
    ("TodoWrite", None),
    ("ExitPlanMode", None),
];

/// Claude Code's payload already has `tool_name`, `tool_input` and `cwd`; its `prompt` is taken
/// as `user_message` by every agent's reading.
fn normalise(_event: &str, _input: &mut Map<String, Value>) {}

fn render(reply: &Reply<'_>) -> Rendered {
    render_claude_like(reply, true)
}

/// Claude Code's answers, shared with Codex (which reads the same shapes): `plain_nothing` says
/// whether "nothing" may be `{}` too (it is never printed: empty stdout is "nothing" to both).
pub(super) fn render_claude_like(reply: &Reply<'_>, _plain_nothing: bool) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered::failed_open(reason);
    }
    let event = reply.event;
    match reply.directive {
        None => Rendered::nothing(),
        Some(Directive::Block { message }) => match event {
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

/// A JSON object of `pairs`, in order.
pub(super) fn fields<const N: usize>(pairs: [(&str, Value); N]) -> Map<String, Value> {
    pairs
        .into_iter()
        .map(|(key, value)| (key.to_owned(), value))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::render;
    use crate::agents::Reply;
    use crate::exit::ExitStatus;
    use crate::response::Directive;

    fn reply<'a>(event: &'a str, directive: Option<&'a Directive>) -> Reply<'a> {
        Reply {
            event,
            table: None,
            directive,
            error: None,
        }
    }

    #[test]
    fn a_tool_block_is_a_deny_decision_on_exit_zero() {
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        let out = render(&reply("PreToolUse", Some(&block)));
        assert_eq!(out.exit, ExitStatus::Success);
        assert_eq!(
            out.stdout.unwrap(),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#
        );
    }

    #[test]
    fn nothing_is_empty_stdout() {
        let out = render(&reply("PreToolUse", None));
        assert_eq!((out.stdout, out.exit), (None, ExitStatus::Success));
    }
}
