//! Cursor: its camelCase event names, tools and payload (a shell call's `command` at the top
//! level, `conversation_id` for the session), and the answers it reads (`permission`,
//! `continue`, `followup_message`, `additional_context`, `updated_input`).
//!
//! "Nothing" is `{}` on every event but `beforeSubmitPrompt` (`{"continue": true}`): Cursor's
//! docs do not say whether `{"permission": "allow"}` skips the approval that the user's run mode
//! would ask for, so our hooks never answer it for a call they did not rewrite. An answer
//! without `permission` leaves Cursor's own decision in place.

use serde_json::{Map, Value, json};

use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, unmatched};
use crate::engine::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "cursor",
    title: "Cursor",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: Some(&WIRING),
    asks: &["beforeShellExecution", "beforeMCPExecution"],
};

/// Every event Cursor's hooks page names. `preToolUse` comes first among the tool events, so
/// a table name (`pre_tool_call`) is answered in its shape, the one that carries a rewrite.
static EVENTS: &[AgentEvent] = &[
    event("sessionStart", "on_session_start").with_context(),
    event("sessionEnd", "on_session_end"),
    event("beforeSubmitPrompt", "pre_llm_call"),
    event("preToolUse", "pre_tool_call"),
    // Each also fires for a call `preToolUse` reports (the same `tool_use_id`): `install` wires
    // only `preToolUse`, so a guard runs once per call; a hand wiring of these still works.
    event("beforeShellExecution", "pre_tool_call").not_wired(),
    event("beforeMCPExecution", "pre_tool_call").not_wired(),
    event("beforeReadFile", "pre_tool_call").not_wired(),
    event("postToolUse", "post_tool_call").with_context(),
    event("postToolUseFailure", "post-tool-call-failure"),
    // `postToolUse` already reports every tool call, these three included.
    unmatched("afterShellExecution"),
    unmatched("afterMCPExecution"),
    unmatched("afterFileEdit"),
    event("afterAgentResponse", "post_llm_call"),
    unmatched("afterAgentThought"),
    event("stop", "pre_verify"),
    event("subagentStart", "subagent_start"),
    event("subagentStop", "subagent_stop"),
    event("preCompact", "pre-context-compact"),
    // Inline completions and the app, not the agent.
    unmatched("beforeTabFileRead"),
    unmatched("afterTabFileEdit"),
    unmatched("workspaceOpen"),
];

/// The name a shell call gets when Cursor sends only its `command`.
const SHELL: &str = "Shell";
/// The name a file read gets when Cursor sends only its `file_path`.
const READ: &str = "Read";

/// The `tool_name`s of `preToolUse`: the hooks page names `Shell`, `Read`, `Write`, `Grep`,
/// `Delete`, `Task` and `MCP:<tool>` (an MCP tool has no class); the others are the agent's
/// own tools as hooks in the wild match them.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    (SHELL, Some(ToolClass::Shell)),
    (READ, Some(ToolClass::Read)),
    ("Write", Some(ToolClass::Write)),
    ("Delete", Some(ToolClass::Write)),
    ("StrReplace", Some(ToolClass::Edit)),
    ("Edit", Some(ToolClass::Edit)),
    ("EditNotebook", Some(ToolClass::Edit)),
    ("Grep", Some(ToolClass::Search)),
    ("Glob", Some(ToolClass::Search)),
    ("SemanticSearch", Some(ToolClass::Search)),
    ("WebSearch", Some(ToolClass::Web)),
    ("WebFetch", Some(ToolClass::Web)),
    ("Task", None),
    ("ReadLints", None),
    ("TodoWrite", None),
];

/// Cursor's names for fields the event table names otherwise, by event: (Cursor's, ours).
const FIELDS: &[(&str, &str, &str)] = &[
    ("postToolUse", "tool_output", "result"),
    ("postToolUse", "duration", "duration_ms"),
    ("postToolUseFailure", "error_message", "error"),
    ("postToolUseFailure", "duration", "duration_ms"),
    ("afterAgentResponse", "text", "assistant_response"),
    (
        "subagentStart",
        "parent_conversation_id",
        "parent_session_id",
    ),
    ("subagentStart", "subagent_type", "child_role"),
    ("subagentStart", "task", "child_goal"),
    ("subagentStop", "subagent_type", "child_role"),
    ("subagentStop", "status", "child_status"),
    ("subagentStop", "summary", "child_summary"),
];

/// Adds the fields hooks know: `conversation_id` is the session; the shell, MCP and file-read
/// events carry the call at the top level, which becomes `tool_name` and `tool_input`; an
/// empty `cwd` (Cursor sends one at times) gives way to the first workspace root.
fn normalise(event: &str, input: &mut Map<String, Value>) {
    super::copy_if_absent(input, "conversation_id", "session_id");
    if input.get("cwd").and_then(Value::as_str) == Some("")
        && let Some(root) = first_root(input)
    {
        input.insert("cwd".to_owned(), Value::from(root));
    }
    for (_, from, to) in FIELDS.iter().filter(|(own, _, _)| *own == event) {
        super::copy_if_absent(input, from, to);
    }
    if event == "postToolUseFailure" && !input.contains_key("status") {
        input.insert("status".to_owned(), Value::from("error"));
    }
    tool_call(event, input);
}

/// The first workspace root, when it is a non-empty string.
fn first_root(input: &Map<String, Value>) -> Option<String> {
    input
        .get("workspace_roots")?
        .as_array()?
        .first()?
        .as_str()
        .filter(|root| !root.is_empty())
        .map(ToOwned::to_owned)
}

/// `tool_name` and `tool_input` for the events that send the call's fields at the top level.
fn tool_call(event: &str, input: &mut Map<String, Value>) {
    if input.contains_key("tool_input") && input.contains_key("tool_name") {
        // `beforeMCPExecution` sends the arguments as JSON text.
        if let Some(Value::String(text)) = input.get("tool_input")
            && let Ok(Value::Object(args)) = serde_json::from_str::<Value>(text)
        {
            input.insert("tool_input".to_owned(), Value::Object(args));
        }
        return;
    }
    // The shell call takes the shape `preToolUse` gives it, so one guard reads both alike.
    let (tool, keys): (&str, &[(&str, &str)]) = match event {
        "beforeShellExecution" | "afterShellExecution" => (
            SHELL,
            &[("command", "command"), ("cwd", "working_directory")],
        ),
        "beforeReadFile" => (READ, &[("file_path", "file_path")]),
        _ => return,
    };
    let mut args = Map::new();
    for (from, to) in keys {
        if let Some(value) = input.get(*from) {
            args.insert((*to).to_owned(), value.clone());
        }
    }
    input
        .entry("tool_name")
        .or_insert_with(|| Value::from(tool));
    input
        .entry("tool_input")
        .or_insert_with(|| Value::Object(args));
}

/// Cursor's answer. Exit 0 with JSON throughout (Cursor reads exit 2 as a deny, and any other
/// code as a failed hook); exit 2 only to block where Cursor has no JSON for it.
fn render(reply: &Reply<'_>) -> Rendered {
    let event = reply.event;
    if let Some(reason) = reply.error {
        // The runner could not decide and fails open: Cursor's own decision stands.
        return Rendered {
            stderr: Some(reason.to_owned()),
            ..nothing(event)
        };
    }
    match reply.directive {
        None | Some(Directive::Text { .. }) => nothing(event),
        Some(Directive::Block { message }) => block(event, message),
        Some(Directive::Continue { message }) => keep_working(event, message),
        Some(Directive::Modify { args }) => rewrite(event, args),
        Some(Directive::Context { text }) => context(event, text),
        Some(Directive::Ask { message, args, .. }) => ask(event, message, args.as_ref()),
    }
}

/// Ask a person: `permission: ask` on the shell and MCP events, which cannot apply a rewrite as
/// well (a rewritten call is then blocked, as a rewrite alone is).
fn ask(event: &str, message: &str, args: Option<&Map<String, Value>>) -> Rendered {
    match args {
        Some(args) => rewrite(event, args),
        None => Rendered::json(
            &json!({"permission": "ask", "user_message": message, "agent_message": message}),
        ),
    }
}

/// No decision: an answer with no `permission`, so Cursor decides as it would without hooks.
fn nothing(event: &str) -> Rendered {
    match event {
        "beforeSubmitPrompt" => Rendered::json(&json!({"continue": true})),
        _ => Rendered::json(&json!({})),
    }
}

/// A block, in the fields each event documents.
fn block(event: &str, message: &str) -> Rendered {
    match event {
        "preToolUse" | "beforeShellExecution" | "beforeMCPExecution" => Rendered::json(
            &json!({"permission": "deny", "user_message": message, "agent_message": message}),
        ),
        "beforeReadFile" | "subagentStart" => {
            Rendered::json(&json!({"permission": "deny", "user_message": message}))
        }
        "beforeSubmitPrompt" => {
            Rendered::json(&json!({"continue": false, "user_message": message}))
        }
        "stop" | "subagentStop" => Rendered::json(&json!({"followup_message": message})),
        // Cursor has no JSON to block here; exit 2 is its documented deny.
        _ => Rendered::exit_two(message),
    }
}

/// "Keep working": the follow-up message Cursor submits when the agent (or a subagent) stops.
fn keep_working(event: &str, message: &str) -> Rendered {
    match event {
        "stop" | "subagentStop" => Rendered::json(&json!({"followup_message": message})),
        _ => Rendered::exit_two(message),
    }
}

/// A rewrite. Only `preToolUse` takes one (`updated_input`, with the `permission` the docs pair
/// it with). The other tool events cannot apply it, and running the call as it was would undo
/// the hook that changed it: the call is denied instead.
fn rewrite(event: &str, args: &Map<String, Value>) -> Rendered {
    match event {
        "preToolUse" => Rendered::json(
            &json!({"permission": "allow", "updated_input": Value::Object(args.clone())}),
        ),
        "beforeShellExecution" | "beforeMCPExecution" | "beforeReadFile" => block(
            event,
            &format!(
                "a hook rewrote this call and Cursor applies rewrites only on preToolUse, \
                 so it was blocked on {event}"
            ),
        ),
        _ => nothing(event),
    }
}

/// Context for the model, where Cursor reads it (`sessionStart`, `postToolUse`).
fn context(event: &str, text: &str) -> Rendered {
    match event {
        "sessionStart" | "postToolUse" => Rendered::json(&json!({"additional_context": text})),
        _ => nothing(event),
    }
}

/// Cursor's hook settings: `hooks.<event>` lists of `{command, timeout}` in `hooks.json`
/// (`"version": 1`), timeouts in seconds.
pub(super) static WIRING: super::settings::Wiring = super::settings::Wiring {
    user_dir: ".cursor",
    user_dir_env: None,
    project_dir: ".cursor",
    files: &[super::settings::SettingsFile {
        name: "hooks.json",
        format: super::settings::Format::Json,
    }],
    shape: super::settings::Shape::Flat,
    unit: super::settings::Unit::Seconds,
    new_file: &[("version", 1)],
    needs_user: &["restart Cursor so it reads hooks.json again"],
    needs_project: &[
        "restart Cursor so it reads hooks.json again",
        "each user of the project needs hermes-hooks on PATH",
    ],
    switched_off: None,
    switch_files: &[],
    managed: &[],
};

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::render;
    use crate::agents::{Agent, Reply, ToolClass};
    use crate::engine::response::Directive;
    use crate::ground::exit::ExitStatus;

    fn answer(event: &str, directive: Option<&Directive>) -> (Option<Value>, ExitStatus) {
        let out = render(&Reply {
            event,
            table: None,
            directive,
            error: None,
        });
        let json = out.stdout.map(|text| serde_json::from_str(&text).unwrap());
        (json, out.exit)
    }

    fn block(message: &str) -> Directive {
        Directive::Block {
            message: message.to_owned(),
        }
    }

    const PERMISSION_EVENTS: [&str; 5] = [
        "preToolUse",
        "beforeShellExecution",
        "beforeMCPExecution",
        "beforeReadFile",
        "subagentStart",
    ];

    #[test]
    fn nothing_never_grants_a_permission() {
        for own in Agent::Cursor.events() {
            let (json, exit) = answer(own.name, None);
            let json = json.unwrap();
            assert_eq!(exit, ExitStatus::Success, "{}", own.name);
            assert!(json.get("permission").is_none(), "{}: {json}", own.name);
        }
        assert_eq!(answer("preToolUse", None).0, Some(json!({})));
        assert_eq!(
            answer("beforeSubmitPrompt", None).0,
            Some(json!({"continue": true}))
        );
    }

    #[test]
    fn a_runner_error_fails_open_without_granting_a_permission() {
        for event in PERMISSION_EVENTS {
            let out = render(&Reply {
                event,
                table: None,
                directive: None,
                error: Some("cannot read the payload"),
            });
            assert_eq!(out.stdout.as_deref(), Some("{}"), "{event}");
            assert_eq!(out.exit, ExitStatus::Success);
            assert_eq!(out.stderr.as_deref(), Some("cannot read the payload"));
        }
    }

    #[test]
    fn a_block_is_a_deny_on_every_event_that_takes_a_permission() {
        for event in PERMISSION_EVENTS {
            let (json, exit) = answer(event, Some(&block("no")));
            let json = json.unwrap();
            assert_eq!(exit, ExitStatus::Success, "{event}");
            assert_eq!(json["permission"], "deny", "{event}");
            assert_eq!(json["user_message"], "no", "{event}");
        }
        assert_eq!(
            answer("beforeShellExecution", Some(&block("no"))).0,
            Some(json!({"permission": "deny", "user_message": "no", "agent_message": "no"}))
        );
        assert_eq!(
            answer("beforeSubmitPrompt", Some(&block("no"))).0,
            Some(json!({"continue": false, "user_message": "no"}))
        );
    }

    #[test]
    fn a_block_where_cursor_has_no_deny_field_is_exit_two() {
        let out = render(&Reply {
            event: "sessionStart",
            table: None,
            directive: Some(&block("not now")),
            error: None,
        });
        assert_eq!(out.exit, ExitStatus::Blocked);
        assert_eq!((out.stdout, out.stderr.as_deref()), (None, Some("not now")));
    }

    #[test]
    fn keep_working_is_the_follow_up_message() {
        let gate = Directive::Continue {
            message: "run the tests".to_owned(),
        };
        for event in ["stop", "subagentStop"] {
            assert_eq!(
                answer(event, Some(&gate)),
                (
                    Some(json!({"followup_message": "run the tests"})),
                    ExitStatus::Success
                )
            );
        }
    }

    #[test]
    fn a_rewrite_is_updated_input_on_pre_tool_use_and_a_deny_where_cursor_cannot_apply_it() {
        let mut args = Map::new();
        args.insert("command".to_owned(), json!("ls"));
        let modify = Directive::Modify { args };
        assert_eq!(
            answer("preToolUse", Some(&modify)).0,
            Some(json!({"permission": "allow", "updated_input": {"command": "ls"}}))
        );
        for event in [
            "beforeShellExecution",
            "beforeMCPExecution",
            "beforeReadFile",
        ] {
            let json = answer(event, Some(&modify)).0.unwrap();
            assert_eq!(json["permission"], "deny", "{event}");
            assert!(json.get("updated_input").is_none());
        }
    }

    #[test]
    fn context_goes_where_cursor_reads_it_and_nowhere_else() {
        let context = Directive::Context {
            text: "be careful".to_owned(),
        };
        for event in ["sessionStart", "postToolUse"] {
            assert_eq!(
                answer(event, Some(&context)).0,
                Some(json!({"additional_context": "be careful"}))
            );
        }
        assert_eq!(
            answer("beforeSubmitPrompt", Some(&context)).0,
            Some(json!({"continue": true}))
        );
    }

    fn normalised(event: &str, payload: Value) -> Map<String, Value> {
        let Value::Object(mut map) = payload else {
            unreachable!()
        };
        Agent::Cursor.normalise(event, &mut map);
        map
    }

    #[test]
    fn a_shell_call_reads_as_pre_tool_use_sends_it() {
        let map = normalised(
            "beforeShellExecution",
            json!({"command": "git push", "cwd": "/p", "conversation_id": "c1"}),
        );
        assert_eq!(map["tool_name"], "Shell");
        assert_eq!(
            map["tool_input"],
            json!({"command": "git push", "working_directory": "/p"})
        );
        assert_eq!(map["session_id"], "c1");
        assert_eq!(
            Agent::Cursor.tool_class("Shell"),
            Some(ToolClass::Shell),
            "the shell class matches Cursor's shell"
        );
    }

    #[test]
    fn an_empty_cwd_gives_way_to_the_workspace_root() {
        let map = normalised(
            "beforeShellExecution",
            json!({"command": "ls", "cwd": "", "workspace_roots": ["/w"]}),
        );
        assert_eq!(map["cwd"], "/w");
        let map = normalised("stop", json!({"workspace_roots": ["/w"]}));
        assert_eq!(map["cwd"], "/w");
    }

    #[test]
    fn mcp_arguments_sent_as_text_become_an_object() {
        let map = normalised(
            "beforeMCPExecution",
            json!({"tool_name": "query", "tool_input": "{\"sql\": \"drop\"}"}),
        );
        assert_eq!(map["tool_input"], json!({"sql": "drop"}));
    }

    #[test]
    fn no_cursor_event_takes_plain_text_as_context() {
        assert!(Agent::Cursor.events().iter().all(|own| !own.plain_text));
    }

    #[test]
    fn a_table_name_answers_in_the_shape_that_carries_a_rewrite() {
        let event = crate::config::Event::parse("pre_tool_call").unwrap().event;
        assert_eq!(Agent::Cursor.names_for(event).first(), Some(&"preToolUse"));
    }
}
