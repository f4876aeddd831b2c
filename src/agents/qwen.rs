//! Qwen Code (observed with `@qwen-code/qwen-code` 0.24.4): Claude Code's event names, payload
//! and answers in `.qwen/settings.json`, with Gemini CLI's tool names. It ignores a rewrite (the
//! original call runs), so a rewrite is answered as a deny; and it fires `UserPromptSubmit`
//! before every model call of a turn, of which only the first is the person's.

use serde_json::{Map, Value, json};

use super::claude_like::{self, fields, normalise};
use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, hook_specific, unmatched};
use crate::engine::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "qwen",
    title: "Qwen Code",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: Some(&WIRING),
    asks: &[],
};

/// Every event Qwen Code 0.24 fires (its `HookEventName`).
static EVENTS: &[AgentEvent] = &[
    event("SessionStart", "on_session_start").with_context(),
    event("UserPromptSubmit", "pre_llm_call"),
    unmatched("UserPromptExpansion"),
    event("PreToolUse", "pre_tool_call"),
    unmatched("PermissionRequest"),
    unmatched("PermissionDenied"),
    event("PostToolUse", "post_tool_call").with_context(),
    event("PostToolUseFailure", "post-tool-call-failure").with_context(),
    unmatched("PostToolBatch"),
    unmatched("Notification"),
    event("Stop", "pre_verify"),
    unmatched("StopFailure"),
    event("SubagentStart", "subagent_start").with_context(),
    event("SubagentStop", "subagent_stop"),
    event("PreCompact", "pre-context-compact"),
    event("PostCompact", "post-context-compact"),
    event("SessionEnd", "on_session_end"),
    unmatched("SessionDelete"),
];

/// The built-in tools of Qwen Code 0.24.4 (its `ToolNames`), each with its class.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("run_shell_command", Some(ToolClass::Shell)),
    // Runs a shell command in the background and reports what it prints.
    ("monitor", Some(ToolClass::Shell)),
    ("edit", Some(ToolClass::Edit)),
    ("notebook_edit", Some(ToolClass::Edit)),
    ("write_file", Some(ToolClass::Write)),
    ("read_file", Some(ToolClass::Read)),
    ("zoom_image", Some(ToolClass::Read)),
    ("grep_search", Some(ToolClass::Search)),
    ("glob", Some(ToolClass::Search)),
    ("list_directory", Some(ToolClass::Search)),
    ("lsp", Some(ToolClass::Search)),
    ("web_fetch", Some(ToolClass::Web)),
    ("web_search", Some(ToolClass::Web)),
    ("exec", None),
    ("todo_write", None),
    ("save_memory", None),
    ("agent", None),
    ("skill", None),
    ("exit_plan_mode", None),
    ("enter_plan_mode", None),
    ("image_gen", None),
    ("ask_user_question", None),
    ("cron_create", None),
    ("cron_list", None),
    ("cron_delete", None),
    ("loop_wakeup", None),
    ("create_sub_session", None),
    ("list_agents", None),
    ("task_stop", None),
    ("task_create", None),
    ("task_update", None),
    ("task_list", None),
    ("team_create", None),
    ("team_delete", None),
    ("team_plan_approval", None),
    ("request_shutdown", None),
    ("send_message", None),
    ("structured_output", None),
    ("tool_call", None),
    ("tool_search", None),
    ("read_mcp_resource", None),
    ("enter_worktree", None),
    ("exit_worktree", None),
    ("workflow", None),
    ("artifact", None),
    ("record_artifact", None),
    ("record_source", None),
    ("report_findings", None),
    ("get_goal", None),
    ("update_goal", None),
];

/// The reason a rewrite is refused with.
const REWRITE_REFUSED: &str = "A hook rewrote this call, but Qwen Code cannot apply a rewrite \
     (it would run the original call), so the call is blocked instead.";

/// Claude Code's answers, except a rewrite: Qwen Code reads `updatedInput` and runs the original
/// call anyway, which would undo the guard, so the call is denied with a reason saying why.
fn render(reply: &Reply<'_>) -> Rendered {
    match reply.directive {
        Some(Directive::Modify { .. }) if reply.error.is_none() => match reply.event {
            "PreToolUse" => Rendered::json(&hook_specific(
                reply.event,
                fields([
                    ("permissionDecision", json!("deny")),
                    ("permissionDecisionReason", json!(REWRITE_REFUSED)),
                ]),
            )),
            _ => Rendered::nothing(),
        },
        _ => claude_like::render(reply),
    }
}

/// Whether a `UserPromptSubmit` is one of the model calls after the first of a turn: Qwen Code
/// fires it before each of them, without the `submitted_prompt` the person's own prompt carries
/// (its `prompt` is then empty, or a stop hook's reason). Such a call runs no hook, so a
/// `pre-agent-turn` hook runs once per turn and its context is not repeated on every call.
pub(super) fn repeats_turn(event: &str, input: &Map<String, Value>) -> bool {
    event == "UserPromptSubmit" && !input.contains_key("submitted_prompt")
}

/// Qwen Code's hook settings: Claude Code's `hooks.<Event>` lists of matcher groups in
/// `settings.json` under `.qwen` (comments allowed), timeouts in seconds (its default 60; a
/// value of 1000 or more it still reads as milliseconds).
pub(super) static WIRING: super::settings::Wiring = super::settings::Wiring {
    user_dir: ".qwen",
    user_dir_env: None,
    project_dir: ".qwen",
    files: &[super::settings::SettingsFile {
        name: "settings.json",
        format: super::settings::Format::JsonWithComments,
    }],
    shape: super::settings::Shape::Grouped,
    unit: super::settings::Unit::Seconds,
    new_file: &[],
    needs_user: &["Qwen Code reads hooks when it starts: start a new session"],
    needs_project: &[
        "Qwen Code reads hooks when it starts: start a new session",
        "commit .qwen/settings.json so the project's other users get the wiring; each of them \
         needs hermes-hooks on PATH",
    ],
    switched_off: Some(super::switches::qwen),
    switch_files: &[],
    managed: &[],
};

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{CONTRACT, EVENTS, repeats_turn};
    use crate::agents::{Agent, Reply, ToolClass};
    use crate::engine::response::Directive;

    fn answer(event: &str, directive: &Directive) -> Value {
        let rendered = (CONTRACT.render)(&Reply::of(event, Some(directive)));
        serde_json::from_str(&rendered.stdout.expect("an answer on stdout")).unwrap()
    }

    #[test]
    fn a_rewrite_is_a_deny_saying_the_rewrite_cannot_be_applied() {
        let args = json!({"command": "true"}).as_object().unwrap().clone();
        let out = answer("PreToolUse", &Directive::Modify { args });
        let specific = &out["hookSpecificOutput"];
        assert_eq!(specific["permissionDecision"], "deny");
        assert!(specific.get("updatedInput").is_none());
        let reason = specific["permissionDecisionReason"].as_str().unwrap();
        assert!(reason.contains("cannot apply a rewrite"), "{reason}");
    }

    #[test]
    fn a_block_and_context_are_claude_codes() {
        let out = answer(
            "PreToolUse",
            &Directive::Block {
                message: "no".to_owned(),
            },
        );
        assert_eq!(out["hookSpecificOutput"]["permissionDecisionReason"], "no");
        let out = answer(
            "UserPromptSubmit",
            &Directive::Context {
                text: "note".to_owned(),
            },
        );
        assert_eq!(out["hookSpecificOutput"]["additionalContext"], "note");
    }

    #[test]
    fn only_the_persons_prompt_starts_a_turn() {
        let first = json!({"prompt": "tidy up", "submitted_prompt": "tidy up"});
        let again = json!({"prompt": ""});
        let gate = json!({"prompt": "run the tests first"});
        assert!(!repeats_turn(
            "UserPromptSubmit",
            first.as_object().unwrap()
        ));
        assert!(repeats_turn("UserPromptSubmit", again.as_object().unwrap()));
        assert!(repeats_turn("UserPromptSubmit", gate.as_object().unwrap()));
        assert!(!repeats_turn("PreToolUse", again.as_object().unwrap()));
    }

    #[test]
    fn the_shell_is_run_shell_command_and_every_event_resolves() {
        assert_eq!(
            Agent::Qwen.tool_class("run_shell_command"),
            Some(ToolClass::Shell)
        );
        for own in EVENTS {
            assert!(Agent::Qwen.resolve(own.name).is_ok(), "{}", own.name);
        }
    }
}
