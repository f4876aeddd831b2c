//! Cursor: its camelCase event names, tools and payload (a shell call's `command` at the top
//! level), and the answers it reads (`permission`, `continue`, `followup_message`,
//! `additional_context`).

use serde_json::{Map, Value, json};

use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, unmatched};
use crate::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "cursor",
    title: "Cursor",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
};

static EVENTS: &[AgentEvent] = &[
    event("sessionStart", "on_session_start").with_context(),
    event("sessionEnd", "on_session_end"),
    event("beforeSubmitPrompt", "pre_llm_call"),
    event("beforeShellExecution", "pre_tool_call"),
    event("beforeMCPExecution", "pre_tool_call"),
    event("beforeReadFile", "pre_tool_call"),
    event("preToolUse", "pre_tool_call"),
    event("postToolUse", "post_tool_call").with_context(),
    unmatched("afterShellExecution"),
    unmatched("afterMCPExecution"),
    unmatched("afterFileEdit"),
    event("afterAgentResponse", "post_llm_call"),
    unmatched("afterAgentThought"),
    event("stop", "pre_verify"),
    event("subagentStart", "subagent_start"),
    event("subagentStop", "subagent_stop"),
    event("preCompact", "pre-context-compact"),
];

/// The name a shell call gets when Cursor sends only its `command`.
const SHELL: &str = "Shell";
/// The name a file read gets when Cursor sends only its `file_path`.
const READ: &str = "Read";

static TOOLS: &[(&str, Option<ToolClass>)] = &[
    (SHELL, Some(ToolClass::Shell)),
    (READ, Some(ToolClass::Read)),
    ("Write", Some(ToolClass::Write)),
    ("Edit", Some(ToolClass::Edit)),
    ("Delete", Some(ToolClass::Write)),
    ("Grep", Some(ToolClass::Search)),
    ("Glob", Some(ToolClass::Search)),
    ("LS", Some(ToolClass::Search)),
    ("WebSearch", Some(ToolClass::Web)),
    ("WebFetch", Some(ToolClass::Web)),
    ("Task", None),
];

/// Cursor's shell, MCP and file-read events carry the call at the top level: it becomes
/// `tool_name` and `tool_input`. `conversation_id` is the session.
fn normalise(event: &str, input: &mut Map<String, Value>) {
    super::copy_if_absent(input, "conversation_id", "session_id");
    if input.contains_key("tool_input") && input.contains_key("tool_name") {
        // `beforeMCPExecution` sends the arguments as JSON text.
        if let Some(Value::String(text)) = input.get("tool_input")
            && let Ok(Value::Object(args)) = serde_json::from_str::<Value>(text)
        {
            input.insert("tool_input".to_owned(), Value::Object(args));
        }
        return;
    }
    let (tool, keys): (&str, &[&str]) = match event {
        "beforeShellExecution" | "afterShellExecution" => (SHELL, &["command", "cwd"]),
        "beforeReadFile" => (READ, &["file_path"]),
        _ => return,
    };
    let mut args = Map::new();
    for key in keys {
        if let Some(value) = input.get(*key) {
            args.insert((*key).to_owned(), value.clone());
        }
    }
    input
        .entry("tool_name")
        .or_insert_with(|| Value::from(tool));
    input
        .entry("tool_input")
        .or_insert_with(|| Value::Object(args));
}

fn render(reply: &Reply<'_>) -> Rendered {
    let event = reply.event;
    let permission = matches!(
        event,
        "beforeShellExecution" | "beforeMCPExecution" | "beforeReadFile" | "preToolUse"
    );
    let allow = || match event {
        _ if permission => Rendered::json(&json!({"permission": "allow"})),
        "beforeSubmitPrompt" => Rendered::json(&json!({"continue": true})),
        _ => Rendered::json(&json!({})),
    };
    if let Some(reason) = reply.error {
        return Rendered {
            stderr: Some(reason.to_owned()),
            ..allow()
        };
    }
    match reply.directive {
        None => allow(),
        Some(Directive::Block { message }) => match event {
            _ if permission => Rendered::json(
                &json!({"permission": "deny", "user_message": message, "agent_message": message}),
            ),
            "beforeSubmitPrompt" => {
                Rendered::json(&json!({"continue": false, "user_message": message}))
            }
            "stop" => Rendered::json(&json!({"followup_message": message})),
            _ => Rendered::exit_two(message),
        },
        Some(Directive::Continue { message }) => match event {
            "stop" | "subagentStop" => Rendered::json(&json!({"followup_message": message})),
            _ => Rendered::exit_two(message),
        },
        Some(Directive::Modify { args }) => match event {
            "preToolUse" => Rendered::json(
                &json!({"permission": "allow", "updated_input": Value::Object(args.clone())}),
            ),
            _ => allow(),
        },
        Some(Directive::Context { text }) => match event {
            "sessionStart" | "postToolUse" => Rendered::json(&json!({"additional_context": text})),
            _ => allow(),
        },
    }
}
