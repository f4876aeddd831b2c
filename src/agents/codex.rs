//! Codex CLI (observed on 0.169.0): its event names, tools and payload, and the answers it reads
//! (Claude Code's shapes, checked against the output schema Codex ships: a key outside it, a
//! `hookEventName` that is not the event's own, or a blank reason makes the whole answer invalid,
//! and Codex then runs the call; so "nothing" is empty stdout and every reason is non-blank).

use serde_json::{Map, Value};

use super::claude_like::render_allowing_rewrites;
use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, unmatched};

pub(super) static CONTRACT: Contract = Contract {
    name: "codex",
    title: "Codex CLI",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: Some(&WIRING),
    asks: &[],
};

static EVENTS: &[AgentEvent] = &[
    // Codex reads `additionalContext` here, and plain text on stdout as context too.
    event("SessionStart", "on_session_start")
        .with_context()
        .plain_text_context(),
    event("UserPromptSubmit", "pre_llm_call").plain_text_context(),
    event("PreToolUse", "pre_tool_call"),
    unmatched("PermissionRequest"),
    event("PostToolUse", "post_tool_call").with_context(),
    event("PreCompact", "pre-context-compact"),
    event("PostCompact", "post-context-compact"),
    event("Stop", "pre_verify"),
    event("SubagentStart", "subagent_start"),
    event("SubagentStop", "subagent_stop"),
    event("SessionEnd", "on_session_end"),
    unmatched("Interrupt"),
];

/// The names hooks see in `tool_name`. Every shell tool (`exec_command`, `shell_command`,
/// `shell`, `local_shell`) is reported as `Bash`; `apply_patch` adds, changes and deletes files
/// and also answers the matchers `Edit` and `Write` in Codex's own wiring. `write_stdin` (typing
/// into a terminal `exec_command` opened: a `shell` route) and the hosted `web_search` never
/// reach a hook; they are listed so a matcher naming them is known.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("Bash", Some(ToolClass::Shell)),
    ("apply_patch", Some(ToolClass::Edit)),
    ("view_image", Some(ToolClass::Read)),
    ("web_search", Some(ToolClass::Web)),
    ("write_stdin", Some(ToolClass::Shell)),
    ("update_plan", None),
    ("request_user_input", None),
    ("tool_search", None),
    ("get_goal", None),
    ("create_goal", None),
    ("update_goal", None),
    ("spawn_agent", None),
    ("send_input", None),
    ("resume_agent", None),
    ("wait", None),
    ("close_agent", None),
];

/// Codex's payload already has `tool_name`, `tool_input` and `cwd`; a `Bash` call that opens a
/// terminal gets `tool_input.tty` (read from the transcript: the payload does not say it).
fn normalise(event: &str, input: &mut Map<String, Value>) {
    super::codex_tty::mark(event, input);
}

/// Codex refuses a deny or a `decision: block` whose reason is blank, and then lets the call
/// run: a blank reason is filled in before any agent's answer is rendered
/// ([`super::Agent::render`]).
fn render(reply: &Reply<'_>) -> Rendered {
    render_allowing_rewrites(reply, false)
}

/// Codex's hook settings: `[[hooks.<Event>]]` tables in `config.toml` (or the same lists in
/// `hooks.json` beside it; a layer that already has hooks in `hooks.json` keeps them there),
/// timeouts in seconds (its default 600).
pub(super) static WIRING: super::settings::Wiring = super::settings::Wiring {
    user_dir: ".codex",
    user_dir_env: Some(crate::ground::env::CODEX_HOME),
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
    switched_off: Some(super::switches::codex),
    switch_files: &[],
    managed: &[super::settings::ManagedFile {
        path: "/etc/codex/managed_config.toml",
        env: None,
        format: super::settings::Format::Toml,
    }],
};

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::{CONTRACT, render};
    use crate::agents::{Agent, Reply, ToolClass};
    use crate::engine::response::Directive;
    use crate::ground::exit::ExitStatus;

    fn answer(event: &str, directive: &Directive) -> Value {
        let out = crate::agents::Agent::Codex.render(&Reply::of(event, Some(directive)));
        assert_eq!(out.exit, ExitStatus::Success, "{event}: {out:?}");
        serde_json::from_str(&out.stdout.expect("a JSON answer")).unwrap()
    }

    fn block(message: &str) -> Directive {
        Directive::Block {
            message: message.to_owned(),
        }
    }

    /// The keys Codex 0.169.0's output schema allows at the top level and in
    /// `hookSpecificOutput`, per event (`additionalProperties: false` at both levels).
    fn allowed(event: &str) -> (&'static [&'static str], &'static [&'static str]) {
        const UNIVERSAL: &[&str] = &["continue", "stopReason", "suppressOutput", "systemMessage"];
        match event {
            "PreToolUse" => (
                &[
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                    "decision",
                    "reason",
                    "hookSpecificOutput",
                ],
                &[
                    "hookEventName",
                    "permissionDecision",
                    "permissionDecisionReason",
                    "updatedInput",
                    "additionalContext",
                ],
            ),
            "PostToolUse" => (
                &[
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                    "decision",
                    "reason",
                    "hookSpecificOutput",
                ],
                &["hookEventName", "additionalContext", "updatedMCPToolOutput"],
            ),
            "UserPromptSubmit" => (
                &[
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                    "decision",
                    "reason",
                    "hookSpecificOutput",
                ],
                &["hookEventName", "additionalContext"],
            ),
            "SessionStart" | "SubagentStart" => (
                &[
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                    "hookSpecificOutput",
                ],
                &["hookEventName", "additionalContext"],
            ),
            "Stop" | "SubagentStop" => (
                &[
                    "continue",
                    "stopReason",
                    "suppressOutput",
                    "systemMessage",
                    "decision",
                    "reason",
                ],
                &[],
            ),
            _ => (UNIVERSAL, &[]),
        }
    }

    fn assert_in_schema(event: &str, answer: &Value) {
        let (top, inner) = allowed(event);
        let object = answer.as_object().expect("an object");
        for key in object.keys() {
            assert!(
                top.contains(&key.as_str()),
                "{event}: `{key}` is outside the schema"
            );
        }
        if let Some(specific) = object.get("hookSpecificOutput") {
            let specific: &Map<String, Value> = specific.as_object().unwrap();
            assert_eq!(specific["hookEventName"], json!(event));
            for key in specific.keys() {
                assert!(
                    inner.contains(&key.as_str()),
                    "{event}: `{key}` is outside the schema"
                );
            }
        }
    }

    #[test]
    fn every_answer_stays_inside_the_schema_of_its_event() {
        let args: Map<String, Value> = [("command".to_owned(), json!("true"))]
            .into_iter()
            .collect();
        let directives = [
            block("no"),
            Directive::Continue {
                message: "more".to_owned(),
            },
            Directive::Modify { args },
            Directive::Context {
                text: "know this".to_owned(),
            },
        ];
        for own in CONTRACT.events {
            for directive in &directives {
                let out = render(&Reply::of(own.name, Some(directive)));
                if let Some(stdout) = out.stdout {
                    let value: Value = serde_json::from_str(&stdout).unwrap();
                    assert_in_schema(own.name, &value);
                }
            }
        }
    }

    #[test]
    fn a_blank_block_reason_still_blocks() {
        for blank in ["", "   ", "\n\t"] {
            let value = answer("PreToolUse", &block(blank));
            let reason = value["hookSpecificOutput"]["permissionDecisionReason"]
                .as_str()
                .unwrap();
            assert!(!reason.trim().is_empty(), "{blank:?} gave {value}");
            assert_eq!(value["hookSpecificOutput"]["permissionDecision"], "deny");
        }
    }

    #[test]
    fn a_blank_keep_working_message_still_keeps_codex_working() {
        for directive in [
            block(" "),
            Directive::Continue {
                message: String::new(),
            },
        ] {
            let value = answer("Stop", &directive);
            assert_eq!(value["decision"], "block");
            assert!(
                !value["reason"].as_str().unwrap().trim().is_empty(),
                "{value}"
            );
        }
    }

    #[test]
    fn a_reason_that_is_given_reaches_codex_as_it_was_given() {
        let value = answer("PreToolUse", &block("rm -rf is not permitted"));
        assert_eq!(
            value["hookSpecificOutput"]["permissionDecisionReason"],
            "rm -rf is not permitted"
        );
    }

    #[test]
    fn a_rewrite_is_allow_with_the_whole_new_input() {
        let args: Map<String, Value> = [("command".to_owned(), json!("touch marker"))]
            .into_iter()
            .collect();
        let value = answer("PreToolUse", &Directive::Modify { args });
        assert_eq!(
            value,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "allow", "updatedInput": {"command": "touch marker"}}})
        );
    }

    #[test]
    fn context_goes_where_codex_reads_it() {
        let context = Directive::Context {
            text: "know this".to_owned(),
        };
        for event in ["SessionStart", "UserPromptSubmit", "PostToolUse"] {
            let value = answer(event, &context);
            assert_eq!(
                value["hookSpecificOutput"]["additionalContext"],
                "know this"
            );
        }
    }

    #[test]
    fn nothing_is_empty_stdout() {
        for own in CONTRACT.events {
            let out = render(&Reply::of(own.name, None));
            assert_eq!(
                (out.stdout, out.exit),
                (None, ExitStatus::Success),
                "{}",
                own.name
            );
        }
    }

    #[test]
    fn every_shell_codex_runs_is_the_shell_class() {
        assert_eq!(Agent::Codex.tool_class("Bash"), Some(ToolClass::Shell));
        assert_eq!(
            Agent::Codex.tool_class("apply_patch"),
            Some(ToolClass::Edit)
        );
        assert_eq!(Agent::Codex.tool_class("view_image"), Some(ToolClass::Read));
        assert_eq!(
            Agent::Codex.tool_class("write_stdin"),
            Some(ToolClass::Shell)
        );
        assert_eq!(Agent::Codex.tool_class("get_goal"), None);
    }

    #[test]
    fn codex_events_that_take_plain_text_as_context_say_so() {
        for name in ["SessionStart", "UserPromptSubmit"] {
            let own = CONTRACT.events.iter().find(|e| e.name == name).unwrap();
            assert!(own.allowances().plain_text_context, "{name}");
        }
        let own = CONTRACT
            .events
            .iter()
            .find(|e| e.name == "PreToolUse")
            .unwrap();
        assert!(!own.allowances().plain_text_context);
    }
}
