//! OpenCode and its fork Kilo Code: agents that take no command hooks, only plugins loaded into
//! their own process. The plugin this binary ships (see [`super::plugin_files`]) hands each hook
//! of the plugin API to `serve` under the hook's own name (`tool.execute.before`, ...) with the
//! hook's arguments, and does what the answer says: `{"throw": M}` throws an `Error(M)`, which
//! stops the call and is the tool result the model reads; `{"args": A}` replaces the call's
//! arguments in place (the only rewrite the API applies); `{"context": C}` adds a text part to
//! the user's message (`chat.message`) or to the tool's output (`tool.execute.after`); `{}` is
//! nothing. The API has no hook that can refuse the end of a turn and never asks a person
//! (`permission.ask` is declared and never fired): the quality gate is not there, and an ask is
//! a block that says a person must approve the call.

use serde_json::{Map, Value, json};

use super::{AgentEvent, Contract, Rendered, Reply, ToolClass, event, unmatched};
use crate::engine::response::Directive;

pub(super) static OPENCODE: Contract = Contract {
    name: "opencode",
    title: "OpenCode",
    events: EVENTS,
    tools: OPENCODE_TOOLS,
    normalise,
    render,
    wiring: None,
    asks: &[],
};

pub(super) static KILO: Contract = Contract {
    name: "kilo",
    title: "Kilo Code",
    events: EVENTS,
    tools: KILO_TOOLS,
    normalise,
    render,
    wiring: None,
    asks: &[],
};

/// The plugin API's hooks the plugin hands on, and the session events it reports.
static EVENTS: &[AgentEvent] = &[
    event("tool.execute.before", "pre_tool_call"),
    event("tool.execute.after", "post_tool_call").with_context(),
    event("chat.message", "pre_llm_call"),
    event("session.created", "on_session_start"),
    event("session.deleted", "on_session_end"),
    // The end of a run: reported, but nothing a plugin answers can keep the agent working.
    unmatched("session.idle"),
];

/// OpenCode's built-in tools (1.18), each with its class. `apply_patch` takes the place of `edit`
/// and `write` for some models; an MCP tool is `<server>_<tool>` and has no class.
static OPENCODE_TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("bash", Some(ToolClass::Shell)),
    ("edit", Some(ToolClass::Edit)),
    ("apply_patch", Some(ToolClass::Edit)),
    ("write", Some(ToolClass::Write)),
    ("read", Some(ToolClass::Read)),
    ("glob", Some(ToolClass::Search)),
    ("grep", Some(ToolClass::Search)),
    ("webfetch", Some(ToolClass::Web)),
    ("websearch", Some(ToolClass::Web)),
    ("task", None),
    ("todowrite", None),
    ("skill", None),
    ("question", None),
];

/// Kilo Code's (7.7): OpenCode's, and `background_process`, a second way to start a command.
static KILO_TOOLS: &[(&str, Option<ToolClass>)] = &[
    ("bash", Some(ToolClass::Shell)),
    ("background_process", Some(ToolClass::Shell)),
    ("edit", Some(ToolClass::Edit)),
    ("apply_patch", Some(ToolClass::Edit)),
    ("write", Some(ToolClass::Write)),
    ("read", Some(ToolClass::Read)),
    ("glob", Some(ToolClass::Search)),
    ("grep", Some(ToolClass::Search)),
    ("webfetch", Some(ToolClass::Web)),
    ("websearch", Some(ToolClass::Web)),
    ("task", None),
    ("todowrite", None),
    ("skill", None),
];

/// The hook's arguments as hooks know them: `tool` is the tool's name, `args` its input,
/// `sessionID` the session, `callID` the call, `directory` (which the plugin adds) the project
/// folder the agent was started for, and `output` (after a call) the text the model will read.
fn normalise(event: &str, input: &mut Map<String, Value>) {
    super::copy_if_absent(input, "sessionID", "session_id");
    super::copy_if_absent(input, "callID", "tool_call_id");
    super::copy_if_absent(input, "tool", "tool_name");
    super::copy_if_absent(input, "args", "tool_input");
    super::copy_if_absent(input, "directory", "cwd");
    if event == "tool.execute.after" {
        super::copy_if_absent(input, "output", "result");
    }
}

/// The answer the plugin acts on.
fn render(reply: &Reply<'_>) -> Rendered {
    if let Some(reason) = reply.error {
        return Rendered {
            stderr: Some(reason.to_owned()),
            ..Rendered::json(&json!({}))
        };
    }
    match reply.directive {
        None | Some(Directive::Text { .. } | Directive::Continue { .. }) => {
            Rendered::json(&json!({}))
        }
        // An ask arrives as a block already (the contract asks nowhere); either way, the plugin
        // throws, which on any hook stops what the hook reports and shows the message.
        Some(Directive::Block { message } | Directive::Ask { message, .. }) => block(message),
        Some(Directive::Modify { args }) => match reply.event {
            "tool.execute.before" => Rendered::json(&json!({"args": Value::Object(args.clone())})),
            _ => Rendered::json(&json!({})),
        },
        Some(Directive::Context { text }) => match reply.event {
            "chat.message" | "tool.execute.after" => Rendered::json(&json!({"context": text})),
            _ => Rendered::json(&json!({})),
        },
    }
}

/// A block: the plugin throws an error with the message, which the model reads as the tool's
/// result; exit 2, as `run` exits on every block.
fn block(message: &str) -> Rendered {
    Rendered {
        exit: crate::ground::exit::ExitStatus::Blocked,
        ..Rendered::json(&json!({"throw": message}))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::{normalise, render};
    use crate::agents::Reply;
    use crate::engine::response::Directive;
    use crate::ground::exit::ExitStatus;

    #[test]
    fn a_tool_call_reads_as_hooks_know_it() {
        let Value::Object(mut input) = json!({"tool": "edit", "sessionID": "ses_1",
            "callID": "call_1", "directory": "/p",
            "args": {"filePath": "/p/a.txt", "oldString": "a", "newString": "b"}})
        else {
            unreachable!()
        };
        normalise("tool.execute.before", &mut input);
        assert_eq!(input["tool_name"], "edit");
        assert_eq!(input["tool_input"]["filePath"], "/p/a.txt");
        assert_eq!(input["session_id"], "ses_1");
        assert_eq!(input["cwd"], "/p");
    }

    #[test]
    fn each_answer_is_what_the_plugin_does() {
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        let rendered = render(&Reply::of("tool.execute.before", Some(&block)));
        assert_eq!(rendered.stdout.as_deref(), Some(r#"{"throw":"no"}"#));
        assert_eq!(rendered.exit, ExitStatus::Blocked);
        let mut args = Map::new();
        args.insert("command".to_owned(), json!("ls"));
        let rewrite = Directive::Modify { args };
        let rendered = render(&Reply::of("tool.execute.before", Some(&rewrite)));
        assert_eq!(
            rendered.stdout.as_deref(),
            Some(r#"{"args":{"command":"ls"}}"#)
        );
        let context = Directive::Context {
            text: "note".to_owned(),
        };
        let rendered = render(&Reply::of("chat.message", Some(&context)));
        assert_eq!(rendered.stdout.as_deref(), Some(r#"{"context":"note"}"#));
        let rendered = render(&Reply::of("tool.execute.before", None));
        assert_eq!(rendered.stdout.as_deref(), Some("{}"));
        assert_eq!(rendered.exit, ExitStatus::Success);
    }
}
