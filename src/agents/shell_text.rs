//! The text a `shell`-class tool runs, when the tool keeps it under a key other than `command`
//! (Claude Code's `REPL` code, input typed into a running shell): hooks read it as
//! `tool_input.command` beside the tool's own keys, and a rewrite of it goes back where the tool
//! reads it, or blocks where it cannot.

use serde_json::{Map, Value};

use crate::engine::response::Directive;

/// Where one tool keeps the text it runs.
struct Route {
    /// The tool's name, as hooks see it in `tool_name`.
    tool: &'static str,
    /// The key of its input that holds the text.
    key: &'static str,
    /// The text is typed into a shell, so a rewritten command can be typed in its place; else it
    /// is code of another language (JavaScript), which a shell command cannot replace.
    shell_text: bool,
    /// The key holds a list of commands, run one after another (read as one script of lines; a
    /// rewrite goes back as a list of one).
    list: bool,
}

/// Every tool of the `shell` class whose text is not under `command`.
static ROUTES: &[Route] = &[
    // Claude Code: JavaScript whose `sh()` and `Bash()` calls reach hooks again, as `Bash`.
    Route {
        tool: "REPL",
        key: "code",
        shell_text: false,
        list: false,
    },
    // Codex: characters typed into a terminal `exec_command` opened.
    Route {
        tool: "write_stdin",
        key: "chars",
        shell_text: true,
        list: false,
    },
    // GitHub Copilot CLI: input to a shell session its `bash` tool left running.
    Route {
        tool: "write_bash",
        key: "input",
        shell_text: true,
        list: false,
    },
    // Augment: input to a process `launch-process` started.
    Route {
        tool: "write-process",
        key: "input_text",
        shell_text: true,
        list: false,
    },
    // Cline: each of `commands` runs in turn.
    Route {
        tool: "run_commands",
        key: "commands",
        shell_text: true,
        list: true,
    },
];

/// What [`expose`] added, so an answer can be put back in the tool's own terms.
#[derive(Debug, Clone, PartialEq)]
pub struct Exposed {
    /// The tool's name.
    tool: &'static str,
    /// The key that holds the text the tool runs.
    key: &'static str,
    /// A rewrite can go back under `key`.
    shell_text: bool,
    /// `key` holds a list.
    list: bool,
    /// The text, as hooks were given it under `command`.
    text: String,
    /// What the tool's input held under `command` before (`None`: no such key).
    before: Option<Value>,
}

/// Gives hooks the text a `shell`-class tool runs as `tool_input.command`, when the tool keeps
/// it under another key; the tool's own keys stay. A `command` the input already had is
/// replaced: what runs is the other key's text, and that is what a guard must read.
pub(crate) fn expose(input: &mut Map<String, Value>) -> Option<Exposed> {
    let tool = input.get("tool_name").and_then(Value::as_str)?;
    let route = ROUTES.iter().find(|route| route.tool == tool)?;
    let Some(Value::Object(tool_input)) = input.get_mut("tool_input") else {
        return None;
    };
    let text = match tool_input.get(route.key)? {
        Value::String(text) if !route.list => text.clone(),
        Value::Array(items) if route.list => {
            let lines: Option<Vec<&str>> = items.iter().map(Value::as_str).collect();
            lines?.join("\n")
        }
        _ => return None,
    };
    let before = tool_input.insert("command".to_owned(), Value::from(text.clone()));
    Some(Exposed {
        tool: route.tool,
        key: route.key,
        shell_text: route.shell_text,
        list: route.list,
        text,
        before,
    })
}

/// Puts a rewrite back in the tool's terms: the `command` hooks were given goes, the tool's
/// own `command` (if it had one) comes back, and a changed command goes under the tool's key;
/// where that key holds code in another language, a changed command cannot be applied, and the
/// call is blocked rather than run unchanged.
pub(crate) fn restore(exposed: &Exposed, directive: Directive) -> Directive {
    // A person asked about a rewritten call is shown (and on a yes runs) the input restored the
    // same way; a rewrite that cannot be applied is a block either way.
    if let Directive::Ask {
        message,
        rule_key,
        args: Some(args),
    } = directive
    {
        return match restore(exposed, Directive::Modify { args }) {
            Directive::Modify { args } => Directive::Ask {
                message,
                rule_key,
                args: Some(args),
            },
            other => other,
        };
    }
    let Directive::Modify { mut args } = directive else {
        return directive;
    };
    let command = args.remove("command");
    if let Some(before) = &exposed.before {
        args.insert("command".to_owned(), before.clone());
    }
    let changed = command.filter(|c| c.as_str() != Some(exposed.text.as_str()));
    match changed {
        None => Directive::Modify { args },
        Some(command) if exposed.shell_text => {
            let command = if exposed.list {
                Value::Array(vec![command])
            } else {
                command
            };
            args.insert(exposed.key.to_owned(), command);
            Directive::Modify { args }
        }
        Some(_) => Directive::Block {
            message: format!(
                "A hook rewrote the command of {}, whose `{}` is not a shell command: the \
                 rewrite cannot be applied there, so the call is blocked.",
                exposed.tool, exposed.key
            ),
        },
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, Value, json};

    use super::{expose, restore};
    use crate::engine::response::Directive;

    fn payload(value: Value) -> Map<String, Value> {
        let Value::Object(map) = value else {
            unreachable!()
        };
        map
    }

    #[test]
    fn typed_input_reaches_hooks_as_the_command_and_keeps_its_own_key() {
        let mut input = payload(json!({"tool_name": "write_stdin",
            "tool_input": {"session_id": 7, "chars": "rm -rf keep\n"}}));
        assert!(expose(&mut input).is_some());
        assert_eq!(
            input["tool_input"],
            json!({"session_id": 7, "chars": "rm -rf keep\n", "command": "rm -rf keep\n"})
        );
    }

    #[test]
    fn a_command_key_beside_the_real_text_does_not_hide_it() {
        let mut input = payload(json!({"tool_name": "REPL",
            "tool_input": {"code": "sh('rm -rf keep')", "command": "ls"}}));
        let exposed = expose(&mut input).unwrap();
        assert_eq!(input["tool_input"]["command"], "sh('rm -rf keep')");
        let Directive::Modify { args } = restore(
            &exposed,
            Directive::Modify {
                args: input["tool_input"].as_object().unwrap().clone(),
            },
        ) else {
            panic!("still a rewrite")
        };
        assert_eq!(args["command"], "ls");
    }

    #[test]
    fn tools_that_say_command_themselves_are_left_alone() {
        let mut input = payload(json!({"tool_name": "Bash", "tool_input": {"command": "ls"}}));
        assert!(expose(&mut input).is_none());
        let mut input = payload(json!({"tool_name": "REPL", "tool_input": {"code": 3}}));
        assert!(expose(&mut input).is_none());
    }

    #[test]
    fn a_rewritten_typed_command_is_typed_instead() {
        let mut input = payload(json!({"tool_name": "write_stdin",
            "tool_input": {"session_id": 7, "chars": "rm -rf keep\n"}}));
        let exposed = expose(&mut input).unwrap();
        let mut args = input["tool_input"].as_object().unwrap().clone();
        args.insert("command".to_owned(), json!("echo no\n"));
        let Directive::Modify { args } = restore(&exposed, Directive::Modify { args }) else {
            panic!("still a rewrite")
        };
        assert_eq!(
            Value::Object(args),
            json!({"session_id": 7, "chars": "echo no\n"})
        );
    }

    #[test]
    fn a_rewrite_that_leaves_the_command_gives_the_tool_its_own_input_back() {
        let mut input = payload(json!({"tool_name": "REPL",
            "tool_input": {"code": "sh('ls')", "description": "list"}}));
        let exposed = expose(&mut input).unwrap();
        let mut args = input["tool_input"].as_object().unwrap().clone();
        args.insert("description".to_owned(), json!("look"));
        let Directive::Modify { args } = restore(&exposed, Directive::Modify { args }) else {
            panic!("still a rewrite")
        };
        assert_eq!(
            Value::Object(args),
            json!({"code": "sh('ls')", "description": "look"})
        );
    }

    #[test]
    fn a_shell_command_written_over_code_blocks_the_call() {
        let mut input = payload(json!({"tool_name": "REPL",
            "tool_input": {"code": "sh('rm -rf keep')"}}));
        let exposed = expose(&mut input).unwrap();
        let mut args = input["tool_input"].as_object().unwrap().clone();
        args.insert("command".to_owned(), json!("touch marker"));
        assert!(matches!(
            restore(&exposed, Directive::Modify { args }),
            Directive::Block { .. }
        ));
    }

    #[test]
    fn a_list_of_commands_reads_as_lines_and_a_rewrite_goes_back_as_a_list() {
        let mut input = payload(json!({"tool_name": "run_commands",
            "tool_input": {"commands": ["cd /", "rm -rf home"]}}));
        let exposed = expose(&mut input).unwrap();
        assert_eq!(input["tool_input"]["command"], "cd /\nrm -rf home");
        let mut args = input["tool_input"].as_object().unwrap().clone();
        args.insert("command".to_owned(), json!("echo no"));
        let Directive::Modify { args } = restore(&exposed, Directive::Modify { args }) else {
            panic!("still a rewrite")
        };
        assert_eq!(Value::Object(args), json!({"commands": ["echo no"]}));
    }

    #[test]
    fn other_answers_pass_through() {
        let mut input = payload(json!({"tool_name": "REPL", "tool_input": {"code": "1"}}));
        let exposed = expose(&mut input).unwrap();
        let block = Directive::Block {
            message: "no".to_owned(),
        };
        assert_eq!(restore(&exposed, block.clone()), block);
    }
}
