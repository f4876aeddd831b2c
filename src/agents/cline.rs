//! Cline (its command-line agent, 3.0): a hook is a file named for its event (`PreToolUse`, ...)
//! in a hooks folder, run with its JSON on stdin; the answer is JSON on stdout and the exit code
//! is not read. Only `PreToolUse` and `PostToolUse` are waited for: the other events run
//! detached and their answers reach nothing.
//!
//! What each answer does there (measured on 3.0.65, docs/agents.md): `overrideInput` replaces
//! the call's input whole; `contextModification` reaches the model after the tool's result;
//! `cancel: true` stops the call and ends the whole task (the model is not called again, and
//! `errorMessage` is shown nowhere). A block is that cancel: nothing blocked runs, and the
//! person finds the reason in `hermes-hooks log`. An answer Cline cannot read lets the call run,
//! so a runner error fails open unless `--fail-closed`.

use serde_json::{Map, Value, json};

use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, unmatched};
use crate::engine::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "cline",
    title: "Cline",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: None,
    asks: &[],
};

/// Every hook file name Cline looks for.
static EVENTS: &[AgentEvent] = &[
    event("TaskStart", "on_session_start"),
    unmatched("TaskResume"),
    event("PreToolUse", "pre_tool_call"),
    event("PostToolUse", "post_tool_call").with_context(),
    // Sent with Cline's own reminder rather than the person's message, and not waited for:
    // context from it never reaches the model.
    unmatched("UserPromptSubmit"),
    event("TaskComplete", "on_session_end"),
    unmatched("TaskCancel"),
    unmatched("TaskError"),
    // Named by Cline's hook folder, never fired.
    unmatched("PreCompact"),
    unmatched("SessionShutdown"),
];

/// The tools of `cline --yolo` (3.0.65), each with its class: `run_commands` runs each of its
/// `commands`.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("run_commands", Some(ToolClass::Shell)),
    ("editor", Some(ToolClass::Edit)),
    ("read_files", Some(ToolClass::Read)),
    ("submit_and_exit", None),
];

/// Cline's payload as hooks know it: `tool_call` holds the call (`name`, `input`), `taskId` is
/// the session, the first of `workspaceRoots` the project; after a call, `tool_result` holds
/// the call and its `output`, the result.
fn normalise(event: &str, input: &mut Map<String, Value>) {
    super::copy_if_absent(input, "taskId", "session_id");
    if !input.get("cwd").is_some_and(Value::is_string)
        && let Some(root) = input
            .get("workspaceRoots")
            .and_then(Value::as_array)
            .and_then(|roots| roots.first())
            .and_then(Value::as_str)
            .map(ToOwned::to_owned)
    {
        input.insert("cwd".to_owned(), Value::from(root));
    }
    // Before a call it is `tool_call`; after it, `tool_result` holds the same keys and the output.
    let call = ["tool_call", "tool_result"]
        .into_iter()
        .find_map(|key| input.get(key).and_then(Value::as_object).cloned());
    if let Some(call) = call {
        if let Some(name) = call.get("name") {
            input.entry("tool_name").or_insert_with(|| name.clone());
        }
        if let Some(args) = call.get("input") {
            input.entry("tool_input").or_insert_with(|| args.clone());
        }
        if let Some(id) = call.get("id") {
            input.entry("tool_call_id").or_insert_with(|| id.clone());
        }
    }
    if event == "PostToolUse"
        && let Some(Value::Object(result)) = input.get("tool_result").cloned()
    {
        if let Some(output) = result.get("output") {
            let text = output
                .as_str()
                .map_or_else(|| output.to_string(), ToOwned::to_owned);
            input.entry("result").or_insert_with(|| Value::from(text));
        }
        let failed = input
            .get("postToolUse")
            .and_then(|post| post.get("success"))
            == Some(&Value::Bool(false));
        if failed && !input.contains_key("status") {
            input.insert("status".to_owned(), Value::from("error"));
        }
    }
}

/// Cline's answer.
fn render(reply: &Reply<'_>) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered {
            stderr: Some(reason.to_owned()),
            ..Rendered::json(&json!({}))
        };
    }
    match (reply.event, reply.directive) {
        ("PreToolUse", Some(Directive::Block { message } | Directive::Ask { message, .. })) => {
            Rendered {
                exit: crate::ground::exit::ExitStatus::Blocked,
                stderr: Some(message.clone()),
                ..Rendered::json(&json!({"cancel": true, "errorMessage": message}))
            }
        }
        ("PreToolUse", Some(Directive::Modify { args })) => {
            Rendered::json(&json!({"overrideInput": Value::Object(args.clone())}))
        }
        ("PreToolUse" | "PostToolUse", Some(Directive::Context { text })) => {
            Rendered::json(&json!({"contextModification": text}))
        }
        // After the call, a block can only tell the model.
        ("PostToolUse", Some(Directive::Block { message })) => {
            Rendered::json(&json!({"contextModification": message}))
        }
        _ => Rendered::json(&json!({})),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::{normalise, render};
    use crate::agents::Reply;
    use crate::engine::response::Directive;

    /// `payload` as `normalise` leaves it for `event`.
    fn normalised(event: &str, payload: Value) -> serde_json::Map<String, Value> {
        let Value::Object(mut input) = payload else {
            unreachable!()
        };
        normalise(event, &mut input);
        input
    }

    #[test]
    fn the_call_and_the_project_read_as_hooks_know_them() {
        let input = normalised(
            "PreToolUse",
            json!({"taskId": "t1", "workspaceRoots": ["/p"], "hookName": "tool_call",
                "tool_call": {"id": "c1", "name": "run_commands", "input": {"commands": ["ls"]}},
                "preToolUse": {"toolName": "run_commands",
                    "parameters": {"commands": "[\"ls\"]"}}}),
        );
        assert_eq!(input["tool_name"], "run_commands");
        assert_eq!(input["tool_input"]["commands"][0], "ls");
        assert_eq!(input["session_id"], "t1");
        assert_eq!(input["cwd"], "/p");
    }

    #[test]
    fn after_a_call_the_call_is_read_from_its_result() {
        let input = normalised(
            "PostToolUse",
            json!({"taskId": "t1", "workspaceRoots": ["/p"], "hookName": "tool_result",
                "tool_result": {"id": "c1", "name": "run_commands",
                    "input": {"commands": ["ls"]},
                    "output": [{"query": "ls", "result": "a\n", "success": true}]},
                "postToolUse": {"toolName": "run_commands", "success": true}}),
        );
        assert_eq!(input["tool_name"], "run_commands");
        assert_eq!(input["tool_input"]["commands"][0], "ls");
        assert_eq!(input["tool_call_id"], "c1");
        assert!(
            input["result"]
                .as_str()
                .unwrap()
                .contains("\"query\":\"ls\"")
        );
    }

    #[test]
    fn a_block_cancels_and_a_rewrite_overrides() {
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        let rendered = render(&Reply::of("PreToolUse", Some(&block)));
        assert_eq!(
            rendered.stdout.as_deref(),
            Some(r#"{"cancel":true,"errorMessage":"no"}"#)
        );
        let rendered = render(&Reply::of("PostToolUse", Some(&block)));
        assert_eq!(
            rendered.stdout.as_deref(),
            Some(r#"{"contextModification":"no"}"#)
        );
    }
}
