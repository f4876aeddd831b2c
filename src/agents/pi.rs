//! Pi: an agent that takes no command hooks, only extensions loaded into its own process. The
//! extension this binary ships hands each event of the extension API to `serve` under the
//! event's own name (`tool_call`, ...) with the event object, and returns or does what the
//! answer says: `{"block": true, "reason": M}` is the `tool_call` result that stops the call
//! (the model reads the reason); `{"input": A}` replaces the call's input in place (the only
//! rewrite the API applies); `{"message": ...}` is the `before_agent_start` result that puts
//! context before the model; `{"context": C}` after a call is added to the tool's result;
//! `{}` is nothing. Without a screen (`pi -p`) nothing can ask a person or keep the agent
//! working: the quality gate is not there, and an ask is a block that says a person must
//! approve the call.

use serde_json::{Map, Value, json};

use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, unmatched};
use crate::engine::response::Directive;

pub(super) static CONTRACT: Contract = Contract {
    name: "pi",
    title: "Pi",
    events: EVENTS,
    tools: TOOLS,
    normalise,
    render,
    wiring: None,
    asks: &[],
};

/// The extension API's events the extension hands on.
static EVENTS: &[AgentEvent] = &[
    event("tool_call", "pre_tool_call"),
    event("tool_result", "post_tool_call").with_context(),
    event("before_agent_start", "pre_llm_call"),
    event("session_start", "on_session_start"),
    event("session_shutdown", "on_session_end"),
    // The end of a run: reported, but a follow-up sent then starts no turn in `pi -p`.
    unmatched("agent_end"),
];

/// Pi's built-in tools (0.73), each with its class; `grep`, `find` and `ls` are on with `--tools`.
static TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("bash", Some(ToolClass::Shell)),
    ("edit", Some(ToolClass::Edit)),
    ("write", Some(ToolClass::Write)),
    ("read", Some(ToolClass::Read)),
    ("grep", Some(ToolClass::Search)),
    ("find", Some(ToolClass::Search)),
    ("ls", Some(ToolClass::Search)),
];

/// The event object as hooks know it: `toolName` is the tool's name, `input` its input,
/// `toolCallId` the call, `prompt` the person's message; the extension adds `cwd` (the folder
/// Pi runs in) and `session_id`. After a call, the text of `content` is the result, and
/// `isError` makes it a failed call.
fn normalise(event: &str, input: &mut Map<String, Value>) {
    super::copy_if_absent(input, "toolName", "tool_name");
    super::copy_if_absent(input, "input", "tool_input");
    super::copy_if_absent(input, "toolCallId", "tool_call_id");
    if event == "tool_result" {
        if !input.contains_key("result")
            && let Some(Value::Array(content)) = input.get("content")
        {
            let text: Vec<&str> = content
                .iter()
                .filter_map(|part| part.get("text").and_then(Value::as_str))
                .collect();
            input.insert("result".to_owned(), Value::from(text.join("\n")));
        }
        if input.get("isError") == Some(&Value::Bool(true)) && !input.contains_key("status") {
            input.insert("status".to_owned(), Value::from("error"));
        }
    }
}

/// The answer the extension acts on.
fn render(reply: &Reply<'_>) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered {
            stderr: Some(reason.to_owned()),
            ..Rendered::json(&json!({}))
        };
    }
    match (reply.event, reply.directive) {
        (_, Some(Directive::Block { message } | Directive::Ask { message, .. })) => Rendered {
            exit: crate::ground::exit::ExitStatus::Blocked,
            ..Rendered::json(&json!({"block": true, "reason": message}))
        },
        ("tool_call", Some(Directive::Modify { args })) => {
            Rendered::json(&json!({"input": Value::Object(args.clone())}))
        }
        ("before_agent_start", Some(Directive::Context { text })) => Rendered::json(&json!({
            "message": {"customType": "hermes-hooks", "content": text, "display": false}
        })),
        ("tool_result", Some(Directive::Context { text })) => {
            Rendered::json(&json!({"context": text}))
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

    #[test]
    fn an_event_object_reads_as_hooks_know_it() {
        let Value::Object(mut input) = json!({"type": "tool_result", "toolName": "bash",
            "toolCallId": "c1", "input": {"command": "ls"}, "isError": true,
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]})
        else {
            unreachable!()
        };
        normalise("tool_result", &mut input);
        assert_eq!(input["tool_name"], "bash");
        assert_eq!(input["tool_input"]["command"], "ls");
        assert_eq!(input["result"], "a\nb");
        assert_eq!(input["status"], "error");
    }

    #[test]
    fn each_answer_is_what_the_extension_returns() {
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        let rendered = render(&Reply::of("tool_call", Some(&block)));
        assert_eq!(
            rendered.stdout.as_deref(),
            Some(r#"{"block":true,"reason":"no"}"#)
        );
        let context = Directive::Context {
            text: "note".to_owned(),
        };
        let rendered = render(&Reply::of("before_agent_start", Some(&context)));
        assert_eq!(
            rendered.stdout.as_deref(),
            Some(r#"{"message":{"customType":"hermes-hooks","content":"note","display":false}}"#)
        );
        let rendered = render(&Reply::of("session_start", Some(&context)));
        assert_eq!(rendered.stdout.as_deref(), Some("{}"));
    }
}
