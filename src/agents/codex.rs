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
    wiring: Some(&WIRING),
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

/// Codex's hook settings: `[[hooks.<Event>]]` tables in `config.toml` (or the same lists in
/// `hooks.json` beside it; a layer that already has hooks in `hooks.json` keeps them there),
/// timeouts in seconds (its default 600).
pub(super) static WIRING: super::settings::Wiring = super::settings::Wiring {
    user_dir: ".codex",
    user_dir_env: Some(crate::env::CODEX_HOME),
    project_dir: ".codex",
    files: &[
        super::settings::SettingsFile {
            name: "config.toml",
            format: super::settings::Format::Toml,
        },
        super::settings::SettingsFile {
            name: "hooks.json",
            format: super::settings::Format::Json,
        },
    ],
    shape: super::settings::Shape::Grouped,
    unit: super::settings::Unit::Seconds,
    new_file: &[],
    needs_user: &[
        "Codex runs a hook only once you trust it: start `codex` and trust the new hooks when \
         it asks, or review them with /hooks (automation that vets hooks itself may pass \
         --dangerously-bypass-hook-trust instead)",
    ],
    needs_project: &[
        "Codex reads <project>/.codex/ only in a trusted project: trust the folder when Codex \
         asks (it records trust_level = \"trusted\" for it in ~/.codex/config.toml)",
        "Codex runs a hook only once you trust it: start `codex` and trust the new hooks when \
         it asks, or review them with /hooks (automation that vets hooks itself may pass \
         --dangerously-bypass-hook-trust instead)",
        "each user of the project needs hermes-hooks on PATH",
    ],
};
