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
    wiring: Some(&WIRING),
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

/// Gemini CLI's hook settings: `hooks.<Event>` lists of matcher groups in `settings.json`
/// (comments allowed), timeouts in milliseconds (its default 60000).
pub(super) static WIRING: super::settings::Wiring = super::settings::Wiring {
    user_dir: ".gemini",
    user_dir_env: None,
    project_dir: ".gemini",
    files: &[super::settings::SettingsFile {
        name: "settings.json",
        format: super::settings::Format::JsonWithComments,
    }],
    shape: super::settings::Shape::Grouped,
    unit: super::settings::Unit::Milliseconds,
    new_file: &[],
    needs_user: &[
        "Gemini CLI runs hooks unless a settings file sets hooksConfig.enabled to false (or \
         lists the command in hooksConfig.disabled); it reads the change at its next start",
    ],
    needs_project: &[
        "Gemini CLI reads <project>/.gemini/settings.json only in a trusted folder: trust it \
         when Gemini asks, or with /permissions",
        "Gemini CLI runs hooks unless a settings file sets hooksConfig.enabled to false; it \
         reads the change at its next start and warns once about the new project hooks",
        "each user of the project needs hermes-hooks on PATH",
    ],
};
