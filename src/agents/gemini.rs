//! Gemini CLI: its event names, tools and payload, and the answers it reads (JSON on stdout is
//! read instead of the exit code whenever it parses, so every decision is JSON with `decision`;
//! a rewrite replaces the tool's arguments whole, so it carries all of them).

use serde_json::{Map, Value, json};

use super::claude_like::fields;
use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, hook_specific, unmatched};
use crate::engine::payload::FAILED_STATUS;
use crate::engine::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "gemini",
    title: "Gemini CLI",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: Some(&WIRING),
    asks: &["BeforeTool"],
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
    event("AfterTool", "post_tool_call").with_context(),
    event("PreCompress", "pre-context-compact"),
    unmatched("Notification"),
];

/// The built-in tools of Gemini CLI 0.61 (what a hook's `tool_name` says), and names older
/// releases used that a hook may still be sent.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("run_shell_command", Some(ToolClass::Shell)),
    ("replace", Some(ToolClass::Edit)),
    ("write_file", Some(ToolClass::Write)),
    ("read_file", Some(ToolClass::Read)),
    ("read_many_files", Some(ToolClass::Read)),
    ("list_directory", Some(ToolClass::Search)),
    ("glob", Some(ToolClass::Search)),
    ("grep_search", Some(ToolClass::Search)),
    // The old name of `grep_search`; a model that calls it reaches hooks under this name.
    ("search_file_content", Some(ToolClass::Search)),
    ("google_web_search", Some(ToolClass::Web)),
    ("web_fetch", Some(ToolClass::Web)),
    ("list_background_processes", None),
    ("read_background_output", None),
    ("write_todos", None),
    ("update_topic", None),
    ("activate_skill", None),
    ("ask_user", None),
    ("invoke_agent", None),
    ("complete_task", None),
    ("get_internal_docs", None),
    ("enter_plan_mode", None),
    ("exit_plan_mode", None),
    ("read_mcp_resource", None),
    ("list_mcp_resources", None),
    ("tracker_create_task", None),
    ("tracker_update_task", None),
    ("tracker_get_task", None),
    ("tracker_list_tasks", None),
    ("tracker_add_dependency", None),
    ("tracker_visualize", None),
    ("save_memory", None),
];

/// Gemini's `AfterAgent` carries the reply as `prompt_response`; `AfterTool` carries the
/// result as `tool_response` (`llmContent`, and `error` when the call failed).
fn normalise(event: &str, input: &mut Map<String, Value>) {
    super::copy_if_absent(input, "prompt_response", "assistant_response");
    if event == "AfterTool" {
        tool_outcome(input);
    }
    // Why the session ended, under the Agent Hooks specification's name.
    if event == "SessionEnd" {
        super::copy_if_absent(input, "reason", "exit_reason");
    }
}

/// `result` from the text the model reads, and `status` `error` when Gemini says the call
/// failed (so the failure hooks run, as for every agent).
fn tool_outcome(input: &mut Map<String, Value>) {
    let Some(Value::Object(response)) = input.get("tool_response") else {
        return;
    };
    let result = response
        .get("llmContent")
        .filter(|v| v.is_string())
        .cloned();
    let failed = response.get("error").is_some_and(Value::is_object);
    if let Some(result) = result {
        input.entry("result").or_insert(result);
    }
    if failed {
        input
            .entry("status")
            .or_insert_with(|| Value::from(FAILED_STATUS));
    }
}

fn render(reply: &Reply<'_>) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered::failed_open(reason);
    }
    let event = reply.event;
    match reply.directive {
        None | Some(Directive::Text { .. }) => Rendered::nothing(),
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
        // Only on BeforeTool (elsewhere it arrives as a block): the person is asked, about the
        // rewritten input when there is one.
        Some(Directive::Ask { message, args, .. }) => {
            let mut answer = fields([("decision", json!("ask")), ("reason", json!(message))]);
            if let Some(args) = args {
                let specific = hook_specific(event, fields([("tool_input", json!(args))]));
                answer.extend(specific.as_object().cloned().unwrap_or_default());
            }
            Rendered::json(&Value::Object(answer))
        }
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
        "Gemini CLI runs hooks (the user's too) only in a trusted folder: trust each project \
         when Gemini asks, or with /permissions",
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
    switched_off: Some(super::switches::gemini),
    switch_files: &[],
    managed: &[
        super::settings::ManagedFile {
            path: "/etc/gemini-cli/settings.json",
            env: Some(crate::ground::env::GEMINI_CLI_SYSTEM_SETTINGS_PATH),
            format: super::settings::Format::JsonWithComments,
        },
        super::settings::ManagedFile {
            path: "/Library/Application Support/GeminiCli/settings.json",
            env: Some(crate::ground::env::GEMINI_CLI_SYSTEM_SETTINGS_PATH),
            format: super::settings::Format::JsonWithComments,
        },
    ],
};

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::CONTRACT;
    use crate::agents::{Agent, Reply, ToolClass};
    use crate::engine::response::Directive;
    use crate::ground::exit::ExitStatus;

    fn answer(event: &str, directive: &Directive) -> (Value, ExitStatus) {
        let rendered = (CONTRACT.render)(&Reply {
            event,
            table: None,
            directive: Some(directive),
            error: None,
        });
        let stdout = rendered.stdout.expect("an answer on stdout");
        (serde_json::from_str(&stdout).unwrap(), rendered.exit)
    }

    fn normalised(event: &str, payload: &Value) -> Map<String, Value> {
        let mut map = payload.as_object().unwrap().clone();
        Agent::Gemini.normalise(event, &mut map);
        map
    }

    #[test]
    fn a_block_is_a_deny_on_stdout_with_exit_0_because_gemini_reads_stdout_first() {
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        for event in ["BeforeTool", "BeforeAgent", "AfterTool"] {
            let (json, exit) = answer(event, &block);
            assert_eq!(json, json!({"decision": "deny", "reason": "no"}), "{event}");
            assert_eq!(exit, ExitStatus::Success, "{event}");
        }
    }

    #[test]
    fn keep_working_is_a_deny_of_after_agent_whose_reason_becomes_the_next_prompt() {
        let gate = Directive::Continue {
            message: "run the tests".to_owned(),
        };
        let (json, exit) = answer("AfterAgent", &gate);
        assert_eq!(json, json!({"decision": "deny", "reason": "run the tests"}));
        assert_eq!(exit, ExitStatus::Success);
    }

    #[test]
    fn a_rewrite_hands_gemini_every_argument_since_it_replaces_them_whole() {
        let args = json!({"command": "true", "dir_path": "sub", "is_background": false});
        let rewrite = Directive::Modify {
            args: args.as_object().unwrap().clone(),
        };
        let (json, _) = answer("BeforeTool", &rewrite);
        assert_eq!(json["hookSpecificOutput"]["tool_input"], args);
    }

    #[test]
    fn context_goes_where_gemini_reads_it() {
        let context = Directive::Context {
            text: "mind the tests".to_owned(),
        };
        for event in ["SessionStart", "BeforeAgent", "AfterTool"] {
            let (json, _) = answer(event, &context);
            assert_eq!(
                json["hookSpecificOutput"]["additionalContext"], "mind the tests",
                "{event}"
            );
        }
    }

    #[test]
    fn context_after_a_tool_is_allowed_because_gemini_appends_it_to_the_result() {
        let (_, after_tool) = Agent::Gemini.resolve("AfterTool").unwrap().unwrap();
        assert!(
            after_tool
                .allowances()
                .agent_hooks_also
                .contains(crate::config::Effects::CONTEXT)
        );
    }

    #[test]
    fn the_search_class_holds_grep_search_and_the_name_it_had_before() {
        for tool in [
            "grep_search",
            "search_file_content",
            "glob",
            "list_directory",
        ] {
            assert_eq!(
                Agent::Gemini.tool_class(tool),
                Some(ToolClass::Search),
                "{tool}"
            );
        }
        assert_eq!(
            Agent::Gemini.tool_class("run_shell_command"),
            Some(ToolClass::Shell)
        );
        assert_eq!(Agent::Gemini.tool_class("replace"), Some(ToolClass::Edit));
        assert_eq!(
            Agent::Gemini.tool_class("write_file"),
            Some(ToolClass::Write)
        );
    }

    #[test]
    fn a_failed_tool_call_is_status_error_and_its_text_the_result() {
        let failed = json!({"tool_name": "read_file", "tool_response": {
            "llmContent": "no file", "error": {"message": "File not found", "type": "file_not_found"}}});
        let map = normalised("AfterTool", &failed);
        assert_eq!(map["status"], "error");
        assert_eq!(map["result"], "no file");
    }

    #[test]
    fn a_tool_call_that_did_not_fail_has_no_status_even_when_the_command_exited_non_zero() {
        let shell = json!({"tool_name": "run_shell_command", "tool_response": {
            "llmContent": "Output: out\nExit Code: 3", "returnDisplay": "out"}});
        let map = normalised("AfterTool", &shell);
        assert!(!map.contains_key("status"));
        assert_eq!(map["result"], "Output: out\nExit Code: 3");
    }

    #[test]
    fn fields_the_payload_already_has_are_kept() {
        let payload = json!({"status": "ok", "result": "mine", "tool_response": {
            "llmContent": "theirs", "error": {"message": "x"}}});
        let map = normalised("AfterTool", &payload);
        assert_eq!(map["status"], "ok");
        assert_eq!(map["result"], "mine");
    }

    #[test]
    fn why_a_session_ended_is_the_spec_exit_reason() {
        let map = normalised("SessionEnd", &json!({"session_id": "s", "reason": "exit"}));
        assert_eq!(map["exit_reason"], "exit");
        let map = normalised(
            "SessionEnd",
            &json!({"reason": "exit", "exit_reason": "own"}),
        );
        assert_eq!(map["exit_reason"], "own");
    }
}
