//! Hermes: the event table's own names and the Hermes answer line (printed by the caller, not
//! rendered here), and Hermes's tool names for the tool classes.

use serde_json::{Map, Value};

use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event};

pub(super) static CONTRACT: Contract = Contract {
    name: "hermes",
    title: "Hermes",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: None,
    asks: &[],
};

/// The table's own names, except where Hermes reads more than the table's column: after a tool
/// call, the plugin (`install hermes`) appends an Agent Hooks hook's context to the tool's result
/// (`transform_tool_result`). Through the bridge Hermes reads no answer there at all.
static EVENTS: &[AgentEvent] = &[event("post_tool_call", "post_tool_call").with_context()];

/// Every tool Hermes 0.19 registers (its `tools/` package), with its class.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("browser_back", None),
    ("browser_cdp", None),
    ("browser_click", None),
    ("browser_console", None),
    ("browser_dialog", None),
    ("browser_get_images", None),
    ("browser_navigate", Some(ToolClass::Web)),
    ("browser_press", None),
    ("browser_scroll", None),
    ("browser_snapshot", None),
    ("browser_type", None),
    ("browser_vision", None),
    ("clarify", None),
    ("close_terminal", None),
    ("computer_use", None),
    ("cronjob", None),
    ("delegate_task", None),
    ("discord", None),
    ("discord_admin", None),
    ("execute_code", None),
    ("feishu_doc_read", None),
    ("feishu_drive_add_comment", None),
    ("feishu_drive_list_comment_replies", None),
    ("feishu_drive_list_comments", None),
    ("feishu_drive_reply_comment", None),
    ("ha_call_service", None),
    ("ha_get_state", None),
    ("ha_list_entities", None),
    ("ha_list_services", None),
    ("image_generate", None),
    ("kanban_attach", None),
    ("kanban_attach_url", None),
    ("kanban_attachments", None),
    ("kanban_block", None),
    ("kanban_comment", None),
    ("kanban_complete", None),
    ("kanban_create", None),
    ("kanban_heartbeat", None),
    ("kanban_link", None),
    ("kanban_list", None),
    ("kanban_show", None),
    ("kanban_unblock", None),
    ("memory", None),
    ("patch", Some(ToolClass::Edit)),
    ("process", None),
    ("project_create", None),
    ("project_list", None),
    ("project_switch", None),
    ("read_file", Some(ToolClass::Read)),
    ("read_terminal", None),
    ("search_files", Some(ToolClass::Search)),
    ("session_search", None),
    ("skill_manage", None),
    ("skill_view", None),
    ("skills_list", None),
    ("terminal", Some(ToolClass::Shell)),
    ("text_to_speech", None),
    ("todo", None),
    ("video_analyze", None),
    ("video_generate", None),
    ("vision_analyze", None),
    ("web_extract", Some(ToolClass::Web)),
    ("web_search", Some(ToolClass::Web)),
    ("write_file", Some(ToolClass::Write)),
    ("x_search", Some(ToolClass::Web)),
    ("xai_video_edit", None),
    ("xai_video_extend", None),
    ("yb_query_group_info", None),
    ("yb_query_group_members", None),
    ("yb_search_sticker", None),
    ("yb_send_dm", None),
    ("yb_send_sticker", None),
];

fn normalise(_event: &str, _input: &mut Map<String, Value>) {}

/// Hermes reads the answer line `run` prints without `--agent`; nothing is rendered for it.
fn render(_reply: &Reply<'_>) -> Rendered {
    Rendered::nothing()
}
