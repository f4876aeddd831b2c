//! Gemini CLI: its event names, tools and payload, and the answers it reads (JSON on stdout is
//! read instead of the exit code whenever it parses, so every decision is JSON with `decision`).

use serde_json::{Map, Value, json};

use super::claude_code::fields;
use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, hook_specific, unmatched};
use crate::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "gemini",
    title: "Gemini CLI",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
};

static EVENTS: &[AgentEvent] = &[
    event("SessionStart", "on_session_start").with_context(),
    event("SessionEnd", "on_session_end"),
    event("BeforeAgent", "pre_llm_call"),
    event("AfterAgent", "pre_verify"),
    unmatched("BeforeModel"),
    unmatched("AfterModel"),
    unmatched("BeforeToolSelection"),
    event("BeforeTool", "pre_tool_call"),
    event("AfterTool", "post_tool_call"),
    event("PreCompress", "pre-context-compact"),
    unmatched("Notification"),
];

static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("run_shell_command", Some(ToolClass::Shell)),
    ("replace", Some(ToolClass::Edit)),
    ("write_file", Some(ToolClass::Write)),
    ("read_file", Some(ToolClass::Read)),
    ("read_many_files", Some(ToolClass::Read)),
    ("list_directory", Some(ToolClass::Search)),
    ("glob", Some(ToolClass::Search)),
    ("search_file_content", Some(ToolClass::Search)),
    ("google_web_search", Some(ToolClass::Web)),
    ("web_fetch", Some(ToolClass::Web)),
    ("save_memory", None),
    ("write_todos", None),
];

/// Gemini's `AfterAgent` carries the reply as `prompt_response`.
fn normalise(_event: &str, input: &mut Map<String, Value>) {
    super::copy_if_absent(input, "prompt_response", "assistant_response");
}

fn render(reply: &Reply<'_>) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered::failed_open(reason);
    }
    let event = reply.event;
    match reply.directive {
        None => Rendered::nothing(),
        Some(Directive::Block { message } | Directive::Continue { message }) => {
            Rendered::json(&json!({"decision": "deny", "reason": message}))
        }
        Some(Directive::Modify { args }) => match event {
            "BeforeTool" => Rendered::json(&hook_specific(
                event,
                fields([("tool_input", Value::Object(args.clone()))]),
            )),
            _ => Rendered::nothing(),
        },
        Some(Directive::Context { text }) => match event {
            "BeforeAgent" | "SessionStart" | "AfterTool" => Rendered::json(&hook_specific(
                event,
                fields([("additionalContext", json!(text))]),
            )),
            _ => Rendered::nothing(),
        },
    }
}
