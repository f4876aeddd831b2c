//! Codex CLI: its event names, tools and payload, and the answers it reads (Claude Code's shapes;
//! any key outside its schema makes the whole answer invalid, so "nothing" is empty stdout).

use serde_json::{Map, Value};

use super::claude_code::render_claude_like;
use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, unmatched};

pub(super) static CONTRACT: Contract = Contract {
    name: "codex",
    title: "Codex CLI",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
};

static EVENTS: &[AgentEvent] = &[
    event("SessionStart", "on_session_start").with_context(),
    event("UserPromptSubmit", "pre_llm_call"),
    event("PreToolUse", "pre_tool_call"),
    unmatched("PermissionRequest"),
    event("PostToolUse", "post_tool_call"),
    event("PreCompact", "pre-context-compact"),
    event("PostCompact", "post-context-compact"),
    event("Stop", "pre_verify"),
    event("SubagentStart", "subagent_start"),
    event("SubagentStop", "subagent_stop"),
];

static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("Bash", Some(ToolClass::Shell)),
    ("apply_patch", Some(ToolClass::Edit)),
    ("web_search", Some(ToolClass::Web)),
    ("view_image", Some(ToolClass::Read)),
    ("update_plan", None),
];

fn normalise(_event: &str, _input: &mut Map<String, Value>) {}

fn render(reply: &Reply<'_>) -> Rendered {
    render_claude_like(reply, false)
}
