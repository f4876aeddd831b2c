//! Claude Code (observed with 2.1.197, checked on 2.1.332): its event names, tools and payload,
//! and the answers it reads: exit 0 with `hookSpecificOutput` or `decision`, exit 2 with the
//! reason on stderr where it has no JSON form. docs/agents.md says what the agent was seen to do
//! with each.

use super::claude_like::{normalise, render};
use super::{AgentEvent, Contract, ToolClass, event, unmatched};

pub(super) static CONTRACT: Contract = Contract {
    name: "claude-code",
    title: "Claude Code",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: Some(&WIRING),
    asks: &["PreToolUse"],
};

/// Every event Claude Code fires. Plain text on stdout (exit 0) is context only on the two
/// events whose stdout it shows the model; `additionalContext` is read on those and after a tool
/// and at a subagent's start.
static EVENTS: &[AgentEvent] = &[
    event("SessionStart", "on_session_start")
        .with_context()
        .plain_text_context(),
    event("UserPromptSubmit", "pre_llm_call").plain_text_context(),
    unmatched("UserPromptExpansion"),
    event("PreToolUse", "pre_tool_call"),
    // The shell command of a skill or slash command (`` !`cmd` ``), run without a tool call:
    // a shell call for every guard (newer releases; a rewrite cannot be applied there).
    event("PreSkillShellCommand", "pre_tool_call").since("2.1.332"),
    unmatched("PermissionRequest"),
    unmatched("PermissionDenied"),
    event("PostToolUse", "post_tool_call").with_context(),
    event("PostToolUseFailure", "post-tool-call-failure")
        .with_context()
        .since("2.0.56"),
    unmatched("PostToolBatch"),
    unmatched("Notification"),
    event("Stop", "pre_verify"),
    unmatched("StopFailure"),
    event("SubagentStart", "subagent_start")
        .with_context()
        .since("2.0.44"),
    event("SubagentStop", "subagent_stop"),
    event("PreCompact", "pre-context-compact"),
    event("PostCompact", "post-context-compact").since("2.1.76"),
    event("SessionEnd", "on_session_end"),
    unmatched("Setup"),
    unmatched("TeammateIdle"),
    unmatched("TaskCreated"),
    unmatched("TaskCompleted"),
    unmatched("Elicitation"),
    unmatched("ElicitationResult"),
    unmatched("ConfigChange"),
    unmatched("WorktreeCreate"),
    unmatched("WorktreeRemove"),
    unmatched("InstructionsLoaded"),
    unmatched("CwdChanged"),
    unmatched("FileChanged"),
    unmatched("MessageDisplay"),
    unmatched("PreModelSwitch"),
    unmatched("PostModelSwitch"),
    unmatched("DirectoryAdded"),
];

/// Every built-in tool of 2.1.197 (some only on some platforms or plans), then the names older
/// 2.x releases used, which hooks still meet there.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("Bash", Some(ToolClass::Shell)),
    ("PowerShell", Some(ToolClass::Shell)),
    // Runs a shell command in the background and reports each line it prints.
    ("Monitor", Some(ToolClass::Shell)),
    ("Edit", Some(ToolClass::Edit)),
    ("NotebookEdit", Some(ToolClass::Edit)),
    ("Write", Some(ToolClass::Write)),
    ("Read", Some(ToolClass::Read)),
    ("Glob", Some(ToolClass::Search)),
    ("Grep", Some(ToolClass::Search)),
    ("LSP", Some(ToolClass::Search)),
    ("WebFetch", Some(ToolClass::Web)),
    ("WebSearch", Some(ToolClass::Web)),
    ("Agent", None),
    ("AskUserQuestion", None),
    ("CronCreate", None),
    ("CronDelete", None),
    ("CronList", None),
    ("EnterPlanMode", None),
    ("ExitPlanMode", None),
    ("EnterWorktree", None),
    ("ExitWorktree", None),
    ("ListMcpResourcesTool", None),
    ("ReadMcpResourceTool", None),
    ("ReadMcpResourceDirTool", None),
    // JavaScript whose `sh()` and `Bash()` run shell commands (each of which reaches hooks
    // again as `Bash`); its `code` is the command hooks read.
    ("REPL", Some(ToolClass::Shell)),
    ("ReportFindings", None),
    ("ScheduleWakeup", None),
    ("SendMessage", None),
    ("Skill", None),
    ("StructuredOutput", None),
    ("TaskCreate", None),
    ("TaskGet", None),
    ("TaskList", None),
    ("TaskOutput", None),
    ("TaskStop", None),
    ("TaskUpdate", None),
    ("TodoWrite", None),
    ("ToolSearch", None),
    ("Workflow", None),
    // Older releases.
    ("MultiEdit", Some(ToolClass::Edit)),
    ("LS", Some(ToolClass::Search)),
    ("Task", None),
    ("BashOutput", None),
    ("KillShell", None),
];

/// Claude Code's hook settings: `hooks.<Event>` lists of matcher groups in `settings.json`,
/// timeouts in seconds (its default 600).
pub(super) static WIRING: super::settings::Wiring = super::settings::Wiring {
    user_dir: ".claude",
    user_dir_env: Some(crate::ground::env::CLAUDE_CONFIG_DIR),
    project_dir: ".claude",
    files: &[super::settings::SettingsFile {
        name: "settings.json",
        format: super::settings::Format::Json,
    }],
    shape: super::settings::Shape::Grouped,
    unit: super::settings::Unit::Seconds,
    new_file: &[],
    needs_user: &[
        "Claude Code reads hooks when a session starts: start a new session, or review the \
         change in the /hooks menu of a running one",
    ],
    needs_project: &[
        "Claude Code reads hooks when a session starts: start a new session, or review the \
         change in the /hooks menu of a running one",
        "commit .claude/settings.json so the project's other users get the wiring; each of them \
         needs hermes-hooks on PATH",
    ],
    switched_off: Some(super::switches::claude_code),
    switch_files: &[super::settings::SettingsFile {
        name: "settings.local.json",
        format: super::settings::Format::Json,
    }],
    managed: &[
        super::settings::ManagedFile {
            path: "/etc/claude-code/managed-settings.json",
            env: None,
            format: super::settings::Format::Json,
        },
        super::settings::ManagedFile {
            path: "/Library/Application Support/ClaudeCode/managed-settings.json",
            env: None,
            format: super::settings::Format::Json,
        },
    ],
};

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::{EVENTS, normalise, render};
    use crate::agents::{Agent, Reply, ToolClass};
    use crate::engine::response::Directive;
    use crate::ground::exit::ExitStatus;

    fn every_directive() -> Vec<Directive> {
        let args = json!({"command": "true"}).as_object().unwrap().clone();
        vec![
            Directive::Block {
                message: "no".to_owned(),
            },
            Directive::Continue {
                message: "more".to_owned(),
            },
            Directive::Modify { args },
            Directive::Context {
                text: "note".to_owned(),
            },
        ]
    }

    /// The keys Claude Code 2.1.197's hook output schema takes in `hookSpecificOutput` for
    /// `event` (`None`: the event has no such object).
    fn specific_keys(event: &str) -> Option<&'static [&'static str]> {
        Some(match event {
            "PreToolUse" => &[
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
                "additionalContext",
            ],
            // Newer releases (read in 2.1.332's schema).
            "PreSkillShellCommand" => &[
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
            ],
            "SessionStart" | "UserPromptSubmit" | "PostToolUse" | "PostToolUseFailure"
            | "SubagentStart" | "Stop" | "SubagentStop" => &["additionalContext"],
            _ => return None,
        })
    }

    /// Whether `answer` passes the schema Claude Code checks hook output against: an answer it
    /// rejects is dropped, and even exit 2 beside it no longer blocks.
    fn claude_code_takes(event: &str, answer: &Value) -> bool {
        let top = [
            "continue",
            "stopReason",
            "decision",
            "reason",
            "hookSpecificOutput",
            "systemMessage",
            "suppressOutput",
        ];
        let Some(object) = answer.as_object() else {
            return false;
        };
        let decision_ok = answer
            .get("decision")
            .is_none_or(|d| *d == "block" || *d == "approve");
        let specific_ok = answer.get("hookSpecificOutput").is_none_or(|specific| {
            specific_keys(event).is_some_and(|keys| {
                specific["hookEventName"] == event
                    && specific
                        .as_object()
                        .unwrap()
                        .keys()
                        .all(|key| key == "hookEventName" || keys.contains(&key.as_str()))
                    && specific
                        .get("permissionDecision")
                        .is_none_or(|d| ["allow", "deny", "ask", "defer"].iter().any(|k| d == k))
            })
        });
        object.keys().all(|key| top.contains(&key.as_str())) && decision_ok && specific_ok
    }

    #[test]
    fn every_json_answer_passes_claude_codes_own_output_schema() {
        for own in EVENTS {
            for directive in every_directive() {
                let out = render(&Reply::of(own.name, Some(&directive)));
                if let Some(stdout) = out.stdout {
                    let answer: Value = serde_json::from_str(&stdout).unwrap();
                    assert!(
                        claude_code_takes(own.name, &answer),
                        "{}: {directive:?} -> {answer}",
                        own.name
                    );
                    assert_eq!(out.exit, ExitStatus::Success, "{}", own.name);
                }
            }
        }
    }

    #[test]
    fn a_tool_block_is_a_deny_decision_on_exit_zero() {
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        let out = render(&Reply::of("PreToolUse", Some(&block)));
        assert_eq!(out.exit, ExitStatus::Success);
        assert_eq!(
            out.stdout.unwrap(),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#
        );
    }

    #[test]
    fn a_rewrite_gives_the_new_input_and_approves_nothing() {
        let args = json!({"command": "touch marker", "description": "d"});
        let modify = Directive::Modify {
            args: args.as_object().unwrap().clone(),
        };
        let out = render(&Reply::of("PreToolUse", Some(&modify)));
        let answer: Value = serde_json::from_str(&out.stdout.unwrap()).unwrap();
        assert_eq!(
            answer,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": args}})
        );
    }

    #[test]
    fn a_block_at_session_start_is_context_for_the_model_and_a_message_for_the_person() {
        // Nothing refuses a session: `continue: false` is ignored there, and 2.1.332 no longer
        // shows the model a `decision: block`; the context reaches it on 2.1.197 and 2.1.332.
        let block = Directive::Block {
            message: "not here".to_owned(),
        };
        let out = render(&Reply::of("SessionStart", Some(&block)));
        assert_eq!(out.exit, ExitStatus::Success);
        let answer: Value = serde_json::from_str(&out.stdout.unwrap()).unwrap();
        assert_eq!(
            answer,
            json!({
                "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "not here"},
                "systemMessage": "not here",
            })
        );
    }

    #[test]
    fn nothing_is_empty_stdout_on_every_event() {
        for own in EVENTS {
            let out = render(&Reply::of(own.name, None));
            assert_eq!(
                (out.stdout, out.exit),
                (None, ExitStatus::Success),
                "{}",
                own.name
            );
        }
        // PreCompact appends any stdout to the compaction instructions.
        let context = Directive::Context {
            text: "note".to_owned(),
        };
        assert_eq!(
            render(&Reply::of("PreCompact", Some(&context))).stdout,
            None
        );
    }

    #[test]
    fn a_runner_error_fails_open_with_nothing_on_stdout() {
        let out = render(&Reply {
            error: Some("payload is not JSON"),
            ..Reply::of("PreToolUse", None)
        });
        assert_eq!((out.stdout, out.exit), (None, ExitStatus::Error));
    }

    #[test]
    fn every_tool_that_runs_a_command_is_in_the_shell_class() {
        for tool in ["Bash", "PowerShell", "Monitor"] {
            assert_eq!(
                Agent::ClaudeCode.tool_class(tool),
                Some(ToolClass::Shell),
                "{tool}"
            );
        }
        for (tool, class) in [
            ("Edit", ToolClass::Edit),
            ("NotebookEdit", ToolClass::Edit),
            ("Write", ToolClass::Write),
            ("Read", ToolClass::Read),
            ("Glob", ToolClass::Search),
            ("Grep", ToolClass::Search),
            ("WebFetch", ToolClass::Web),
            ("WebSearch", ToolClass::Web),
        ] {
            assert_eq!(Agent::ClaudeCode.tool_class(tool), Some(class), "{tool}");
        }
    }

    #[test]
    fn every_event_claude_code_fires_is_accepted() {
        for name in [
            "PreToolUse",
            "PostToolUse",
            "PostToolUseFailure",
            "PostToolBatch",
            "Notification",
            "UserPromptSubmit",
            "UserPromptExpansion",
            "SessionStart",
            "SessionEnd",
            "Stop",
            "StopFailure",
            "SubagentStart",
            "SubagentStop",
            "PreCompact",
            "PostCompact",
            "PermissionRequest",
            "PermissionDenied",
            "Setup",
            "TeammateIdle",
            "TaskCreated",
            "TaskCompleted",
            "Elicitation",
            "ElicitationResult",
            "ConfigChange",
            "WorktreeCreate",
            "WorktreeRemove",
            "InstructionsLoaded",
            "CwdChanged",
            "FileChanged",
            "MessageDisplay",
        ] {
            assert!(Agent::ClaudeCode.resolve(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn a_stop_payload_carries_the_last_answer_under_the_hermes_name() {
        let mut input: Map<String, Value> = json!({
            "hook_event_name": "Stop", "last_assistant_message": "done", "stop_hook_active": false
        })
        .as_object()
        .unwrap()
        .clone();
        normalise("Stop", &mut input);
        assert_eq!(input["assistant_response"], "done");
        assert_eq!(input["last_assistant_message"], "done");
    }
}
