//! GitHub Copilot CLI (observed with 1.0.102): its own camelCase events, whose payload says
//! `toolName`/`toolArgs` and whose answers are read at the top level (`permissionDecision`,
//! `modifiedArgs`, `additionalContext`, `decision`), and the Claude Code names it also takes,
//! which get Claude Code's payload and answers. docs/agents.md says what it was seen to do.

use serde_json::{Map, Value, json};

use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, copy_if_absent, event, unmatched};
use crate::engine::payload::FAILED_STATUS;
use crate::engine::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "copilot",
    title: "GitHub Copilot CLI",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: Some(&WIRING),
    asks: &[],
};

/// Copilot's own events (the ones `install` wires), then the Claude Code names it also fires a
/// hook for (wired by hand only: each reports the same call as its camelCase twin).
static EVENTS: &[AgentEvent] = &[
    event("sessionStart", "on_session_start").with_context(),
    event("sessionEnd", "on_session_end"),
    event("userPromptSubmitted", "pre_llm_call"),
    unmatched("userPromptTransformed"),
    event("preToolUse", "pre_tool_call"),
    unmatched("preMcpToolCall"),
    event("postToolUse", "post_tool_call").with_context(),
    event("postToolUseFailure", "post-tool-call-failure"),
    event("agentStop", "pre_verify"),
    event("subagentStart", "subagent_start").with_context(),
    event("subagentStop", "subagent_stop"),
    event("preCompact", "pre-context-compact"),
    unmatched("errorOccurred"),
    unmatched("permissionRequest"),
    unmatched("notification"),
    unmatched("postResult"),
    unmatched("prePRDescription"),
    event("SessionStart", "on_session_start")
        .with_context()
        .not_wired(),
    event("SessionEnd", "on_session_end").not_wired(),
    event("UserPromptSubmit", "pre_llm_call").not_wired(),
    event("PreToolUse", "pre_tool_call").not_wired(),
    event("PostToolUse", "post_tool_call")
        .with_context()
        .not_wired(),
    event("PostToolUseFailure", "post-tool-call-failure").not_wired(),
    event("Stop", "pre_verify").not_wired(),
    event("SubagentStart", "subagent_start")
        .with_context()
        .not_wired(),
    event("SubagentStop", "subagent_stop").not_wired(),
    event("PreCompact", "pre-context-compact").not_wired(),
];

/// The tools of Copilot CLI 1.0.102 as its camelCase payload names them (the Claude Code
/// names its payload for a Claude Code event uses are Claude Code's own).
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("bash", Some(ToolClass::Shell)),
    // Input typed into a shell session `bash` left running (under `input`).
    ("write_bash", Some(ToolClass::Shell)),
    ("read_bash", None),
    ("stop_bash", None),
    ("list_bash", None),
    ("edit", Some(ToolClass::Edit)),
    ("str_replace_editor", Some(ToolClass::Edit)),
    ("apply_patch", Some(ToolClass::Edit)),
    ("create", Some(ToolClass::Write)),
    ("view", Some(ToolClass::Read)),
    ("grep", Some(ToolClass::Search)),
    ("glob", Some(ToolClass::Search)),
    ("web_fetch", Some(ToolClass::Web)),
    ("web_search", Some(ToolClass::Web)),
    ("fetch_copilot_cli_documentation", None),
    ("skill", None),
    ("sql", None),
    ("session_store_sql", None),
    ("read_agent", None),
    ("list_agents", None),
    ("write_agent", None),
    ("task", None),
    ("task_complete", None),
    ("ask_user", None),
];

/// The camelCase payload under the names hooks know: `toolArgs` (an object, or a JSON text as
/// older releases sent it) is `tool_input`, the result after a tool is `result`, and a result
/// Copilot calls a failure is `status` `error`.
fn normalise(_event: &str, input: &mut Map<String, Value>) {
    copy_if_absent(input, "toolName", "tool_name");
    copy_if_absent(input, "sessionId", "session_id");
    copy_if_absent(input, "transcriptPath", "transcript_path");
    if !input.contains_key("tool_input")
        && let Some(args) = input.get("toolArgs")
    {
        let args = match args {
            Value::String(text) => serde_json::from_str(text).unwrap_or_else(|_| args.clone()),
            other => other.clone(),
        };
        input.insert("tool_input".to_owned(), args);
    }
    let Some(Value::Object(outcome)) = input.get("toolResult") else {
        return;
    };
    let text = outcome
        .get("textResultForLlm")
        .filter(|v| v.is_string())
        .cloned();
    let failed = matches!(
        outcome.get("resultType").and_then(Value::as_str),
        Some("failure" | "error" | "rejected" | "denied")
    );
    if let Some(text) = text {
        input.entry("result").or_insert(text);
    }
    if failed {
        input
            .entry("status")
            .or_insert_with(|| Value::from(FAILED_STATUS));
    }
}

/// Whether `event` is one of Copilot's own (camelCase) names.
fn is_own(event: &str) -> bool {
    event.starts_with(|c: char| c.is_ascii_lowercase())
}

/// Copilot's answer. A runner error exits 0 with nothing (Copilot denies a tool call whose
/// hook exits non-zero, so any other exit would fail closed).
fn render(reply: &Reply<'_>) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered {
            stdout: None,
            stderr: Some(reason.to_owned()),
            exit: crate::ground::exit::ExitStatus::Success,
        };
    }
    if !is_own(reply.event) {
        return super::claude_like::render(reply);
    }
    let event = reply.event;
    match reply.directive {
        None | Some(Directive::Text { .. }) => Rendered::nothing(),
        Some(Directive::Block { message } | Directive::Ask { message, .. }) => match event {
            "preToolUse" => Rendered::json(&json!({
                "permissionDecision": "deny",
                "permissionDecisionReason": message,
            })),
            "userPromptSubmitted" | "postToolUse" | "agentStop" | "subagentStop" => {
                decision_block(message)
            }
            _ => Rendered::exit_two(message),
        },
        Some(Directive::Continue { message }) => match event {
            "agentStop" | "subagentStop" => decision_block(message),
            _ => Rendered::exit_two(message),
        },
        Some(Directive::Modify { args }) => match event {
            "preToolUse" => Rendered::json(&json!({"modifiedArgs": args})),
            _ => Rendered::nothing(),
        },
        Some(Directive::Context { text }) => match event {
            "sessionStart" | "userPromptSubmitted" | "postToolUse" | "subagentStart" => {
                Rendered::json(&json!({"additionalContext": text}))
            }
            _ => Rendered::nothing(),
        },
    }
}

fn decision_block(message: &str) -> Rendered {
    Rendered::json(&json!({"decision": "block", "reason": message}))
}

/// Copilot CLI's hook files: any `*.json` of `.github/hooks/` in a project and of
/// `~/.copilot/hooks/` for the user, `{"version": 1, "hooks": {"<event>": [{"type": "command",
/// "bash": C, "timeoutSec": T}]}}`.
pub(super) static WIRING: super::settings::Wiring = super::settings::Wiring {
    user_dir: ".copilot/hooks",
    user_dir_env: None,
    project_dir: ".github/hooks",
    files: &[super::settings::SettingsFile {
        name: "hermes-hooks.json",
        format: super::settings::Format::Json,
    }],
    shape: super::settings::Shape::Typed,
    unit: super::settings::Unit::Seconds,
    new_file: &[("version", 1)],
    needs_user: &["Copilot CLI reads the hooks at its next start"],
    needs_project: &[
        "Copilot CLI loads a project's hooks only in a trusted folder: trust it when Copilot \
         asks; `copilot -p` needs --trust-folder (or COPILOT_ALLOW_ALL=true) each run",
        "Copilot CLI runs no hook where the project's .github/copilot/settings.json (or \
         settings.local.json) sets disableAllHooks to true",
        "each user of the project needs hermes-hooks on PATH",
    ],
    switched_off: Some(super::switches::copilot),
    // A project's Copilot settings, beside `.github/hooks/` (from the user's folder these name
    // nothing: Copilot does not read `disableAllHooks` in the user's settings).
    switch_files: &[
        super::settings::SettingsFile {
            name: "../copilot/settings.json",
            format: super::settings::Format::Json,
        },
        super::settings::SettingsFile {
            name: "../copilot/settings.local.json",
            format: super::settings::Format::Json,
        },
    ],
    managed: &[],
};

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use crate::agents::{Agent, Reply, ToolClass};
    use crate::engine::response::Directive;
    use crate::ground::exit::ExitStatus;

    fn answer(event: &str, directive: &Directive) -> (Option<Value>, ExitStatus) {
        let rendered = Agent::Copilot.render(&Reply::of(event, Some(directive)));
        let json = rendered
            .stdout
            .map(|text| serde_json::from_str(&text).unwrap());
        (json, rendered.exit)
    }

    fn normalised(event: &str, payload: &Value) -> Map<String, Value> {
        let mut map = payload.as_object().unwrap().clone();
        Agent::Copilot.normalise(event, &mut map);
        map
    }

    #[test]
    fn a_block_before_a_tool_is_a_top_level_deny_because_copilot_ignores_a_nested_one() {
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        let (json, exit) = answer("preToolUse", &block);
        assert_eq!(
            json,
            Some(json!({"permissionDecision": "deny", "permissionDecisionReason": "no"}))
        );
        assert_eq!(exit, ExitStatus::Success);
    }

    #[test]
    fn the_claude_code_names_get_claude_codes_answers() {
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        let (json, _) = answer("PreToolUse", &block);
        assert_eq!(
            json.unwrap()["hookSpecificOutput"]["permissionDecision"],
            "deny"
        );
    }

    #[test]
    fn a_rewrite_is_modified_args_with_every_argument() {
        let args = json!({"command": "true", "description": "x"});
        let rewrite = Directive::Modify {
            args: args.as_object().unwrap().clone(),
        };
        let (json, _) = answer("preToolUse", &rewrite);
        assert_eq!(json, Some(json!({"modifiedArgs": args})));
    }

    #[test]
    fn context_is_at_the_top_level_where_copilot_reads_it() {
        let context = Directive::Context {
            text: "mind the tests".to_owned(),
        };
        for event in ["sessionStart", "userPromptSubmitted", "postToolUse"] {
            let (json, _) = answer(event, &context);
            assert_eq!(
                json,
                Some(json!({"additionalContext": "mind the tests"})),
                "{event}"
            );
        }
    }

    #[test]
    fn keep_working_is_a_block_of_agent_stop_whose_reason_becomes_the_next_prompt() {
        let gate = Directive::Continue {
            message: "run the tests".to_owned(),
        };
        let (json, exit) = answer("agentStop", &gate);
        assert_eq!(
            json,
            Some(json!({"decision": "block", "reason": "run the tests"}))
        );
        assert_eq!(exit, ExitStatus::Success);
    }

    #[test]
    fn a_runner_error_exits_0_because_copilot_denies_the_call_on_any_other_exit() {
        let rendered = Agent::Copilot.render(&Reply {
            event: "preToolUse",
            table: None,
            directive: None,
            error: Some("unreadable"),
        });
        assert_eq!(rendered.exit, ExitStatus::Success);
        assert_eq!(rendered.stdout, None);
    }

    #[test]
    fn tool_args_become_tool_input_whether_an_object_or_a_json_text() {
        for args in [
            json!({"command": "ls", "description": "x"}),
            json!("{\"command\": \"ls\", \"description\": \"x\"}"),
        ] {
            let map = normalised(
                "preToolUse",
                &json!({"toolName": "bash", "toolArgs": args, "cwd": "/p"}),
            );
            assert_eq!(map["tool_name"], "bash");
            assert_eq!(map["tool_input"]["command"], "ls");
        }
    }

    #[test]
    fn a_failed_result_is_status_error_and_its_text_the_result() {
        let map = normalised(
            "postToolUse",
            &json!({"toolName": "bash", "toolArgs": {}, "toolResult": {
                "resultType": "failure", "textResultForLlm": "boom"}}),
        );
        assert_eq!(map["status"], "error");
        assert_eq!(map["result"], "boom");
    }

    #[test]
    fn bash_and_the_input_to_its_sessions_are_shell() {
        assert_eq!(Agent::Copilot.tool_class("bash"), Some(ToolClass::Shell));
        assert_eq!(
            Agent::Copilot.tool_class("write_bash"),
            Some(ToolClass::Shell)
        );
        assert_eq!(Agent::Copilot.tool_class("edit"), Some(ToolClass::Edit));
        assert_eq!(Agent::Copilot.tool_class("view"), Some(ToolClass::Read));
    }
}
