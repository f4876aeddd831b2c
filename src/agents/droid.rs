//! Factory Droid (observed with `droid` 0.215.0): Claude Code's hook contract one to one (its
//! event names, payload and answers, in `.factory/settings.json`), with its own tool names (the
//! shell is `Execute`). docs/agents.md says what the agent was seen to do with each answer.

use super::claude_like::{normalise, render};
use super::{AgentEvent, Contract, ToolClass, event};

pub(super) static CONTRACT: Contract = Contract {
    name: "droid",
    title: "Factory Droid",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: Some(&WIRING),
    asks: &[],
};

/// Every event Droid fires (its settings schema names these nine). `UserPromptSubmit` does not
/// fire under `droid exec`, only in its interactive sessions.
static EVENTS: &[AgentEvent] = &[
    event("SessionStart", "on_session_start")
        .with_context()
        .plain_text_context(),
    event("UserPromptSubmit", "pre_llm_call").plain_text_context(),
    event("PreToolUse", "pre_tool_call"),
    event("PostToolUse", "post_tool_call").with_context(),
    super::unmatched("Notification"),
    event("Stop", "pre_verify"),
    event("SubagentStop", "subagent_stop"),
    event("PreCompact", "pre-context-compact"),
    event("SessionEnd", "on_session_end"),
];

/// The built-in tools of Droid 0.215.0 (`droid exec --list-tools`, and the names its tool
/// schemas give the model), each with its class.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("Execute", Some(ToolClass::Shell)),
    ("Edit", Some(ToolClass::Edit)),
    ("MultiEdit", Some(ToolClass::Edit)),
    ("ApplyPatch", Some(ToolClass::Edit)),
    ("Create", Some(ToolClass::Write)),
    ("Read", Some(ToolClass::Read)),
    ("LS", Some(ToolClass::Search)),
    ("Glob", Some(ToolClass::Search)),
    ("Grep", Some(ToolClass::Search)),
    ("FetchUrl", Some(ToolClass::Web)),
    ("WebSearch", Some(ToolClass::Web)),
    ("TodoWrite", None),
    ("Task", None),
    ("TaskOutput", None),
    ("TaskStop", None),
    ("Skill", None),
    ("ToolSearch", None),
    ("GenerateImage", None),
    ("GenerateDroid", None),
    ("Loop", None),
    ("ExitSpecMode", None),
    ("ProposeMission", None),
    ("StartMissionRun", None),
    ("EndFeatureRun", None),
    ("DismissHandoffItems", None),
    ("slack_post_file", None),
];

/// Droid's hook settings: Claude Code's `hooks.<Event>` lists of matcher groups, in
/// `settings.json` under `.factory`, timeouts in seconds.
pub(super) static WIRING: super::settings::Wiring = super::settings::Wiring {
    user_dir: ".factory",
    user_dir_env: None,
    project_dir: ".factory",
    files: &[super::settings::SettingsFile {
        name: "settings.json",
        format: super::settings::Format::Json,
    }],
    shape: super::settings::Shape::Grouped,
    unit: super::settings::Unit::Seconds,
    new_file: &[],
    needs_user: &[
        "Droid reads hooks when a session starts: start a new session (or `droid exec`), or \
         review the change in the /hooks menu of a running one",
    ],
    needs_project: &[
        "Droid reads hooks when a session starts: start a new session (or `droid exec`), or \
         review the change in the /hooks menu of a running one",
        "commit .factory/settings.json so the project's other users get the wiring; each of \
         them needs hermes-hooks on PATH",
    ],
    switched_off: Some(super::switches::droid),
    switch_files: &[super::settings::SettingsFile {
        name: "settings.local.json",
        format: super::settings::Format::Json,
    }],
    managed: &[],
};

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{CONTRACT, EVENTS};
    use crate::agents::{Agent, Reply, ToolClass};
    use crate::engine::response::Directive;
    use crate::ground::exit::ExitStatus;

    fn answer(event: &str, directive: &Directive) -> Value {
        let rendered = (CONTRACT.render)(&Reply::of(event, Some(directive)));
        assert_eq!(rendered.exit, ExitStatus::Success);
        serde_json::from_str(&rendered.stdout.expect("an answer on stdout")).unwrap()
    }

    #[test]
    fn a_tool_block_is_claude_codes_deny_with_the_reason() {
        let out = answer(
            "PreToolUse",
            &Directive::Block {
                message: "no".to_owned(),
            },
        );
        assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
        assert_eq!(out["hookSpecificOutput"]["permissionDecisionReason"], "no");
    }

    #[test]
    fn a_rewrite_is_updated_input_which_droid_runs() {
        let args = json!({"command": "true"}).as_object().unwrap().clone();
        let out = answer("PreToolUse", &Directive::Modify { args });
        assert_eq!(out["hookSpecificOutput"]["updatedInput"]["command"], "true");
        assert!(
            out["hookSpecificOutput"]
                .get("permissionDecision")
                .is_none()
        );
    }

    #[test]
    fn the_shell_is_execute_and_every_event_resolves() {
        assert_eq!(Agent::Droid.tool_class("Execute"), Some(ToolClass::Shell));
        for own in EVENTS {
            assert!(Agent::Droid.resolve(own.name).is_ok(), "{}", own.name);
        }
        let (resolved, _) = Agent::Droid.resolve("PreToolUse").unwrap().unwrap();
        assert_eq!(resolved.event.name(), "pre_tool_call");
    }
}
