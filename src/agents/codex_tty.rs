//! Codex's terminals: `exec_command` with `tty: true` opens one, and `write_stdin` types into it
//! later. Codex 0.169 fires no hook for `write_stdin`, and its `PreToolUse` for the opening call
//! says only `{"command": ...}`; the call's own arguments, `tty` among them, are in the session's
//! transcript, written before the hook runs. Read from there, `tty: true` is added to the
//! `tool_input` hooks see, and a call that opens a terminal past a shell guard is blocked
//! (docs/agents.md, "Codex CLI").

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::{Map, Value};

/// How much of the transcript's end is read to find the call (it is the last item but a few).
const TAIL: u64 = 4 * 1024 * 1024;

/// Adds `tty: true` to the `tool_input` of a Codex `Bash` call that opens a terminal, when the
/// transcript says so. Anything that cannot be read leaves the input as it is.
pub(super) fn mark(event: &str, input: &mut Map<String, Value>) {
    if event != "PreToolUse" || input.get("tool_name").and_then(Value::as_str) != Some("Bash") {
        return;
    }
    let (Some(path), Some(call)) = (
        input.get("transcript_path").and_then(Value::as_str),
        input.get("tool_use_id").and_then(Value::as_str),
    ) else {
        return;
    };
    if !opens_terminal(Path::new(path), call) {
        return;
    }
    if let Some(Value::Object(tool_input)) = input.get_mut("tool_input") {
        tool_input.insert("tty".to_owned(), Value::Bool(true));
    }
}

/// Whether a Codex call opens a terminal whose input no hook will see: its `tool_input` was
/// marked by [`mark`].
pub(crate) fn opens_unseen_terminal(
    agent: super::Agent,
    tool_input: Option<&Map<String, Value>>,
) -> bool {
    agent == super::Agent::Codex
        && tool_input.and_then(|input| input.get("tty")) == Some(&Value::Bool(true))
}

/// The message a model gets when such a call is blocked.
pub(crate) const BLOCKED: &str = "Codex shows no hook what is typed into a terminal (exec_command \
    with tty, then write_stdin), so the shell guards here could not check the commands run in \
    it: run the command without tty.";

/// How much of the transcript's end is looked at first; a look that does not find the call
/// looks at four times as much, up to [`TAIL`].
const FIRST_LOOK: u64 = 64 * 1024;

/// Whether the transcript at `path` holds the call `call` as an `exec_command` with
/// `tty: true`. Only a regular file is read, from its end: the call was written just before the
/// hook runs, so the first look finds it in nearly every session, however long; at most the
/// last [`TAIL`] bytes are read.
fn opens_terminal(path: &Path, call: &str) -> bool {
    let Ok(mut file) = crate::ground::limits::open_regular(path) else {
        return false;
    };
    let Ok(meta) = file.metadata() else {
        return false;
    };
    let len = meta.len();
    let widest = TAIL.min(len);
    let needle = format!("\"call_id\":{}", Value::from(call));
    let mut look = FIRST_LOOK.min(widest);
    loop {
        let start = len - look;
        if file.seek(SeekFrom::Start(start)).is_err() {
            return false;
        }
        let mut tail = Vec::new();
        if (&mut file).take(look).read_to_end(&mut tail).is_err() {
            return false;
        }
        let text = String::from_utf8_lossy(&tail);
        // A look that starts inside the file starts inside a line: that line waits for a wider
        // look, which holds it whole.
        let whole = if start == 0 {
            &text[..]
        } else {
            text.find('\n').map_or("", |at| &text[at + 1..])
        };
        if let Some(args) = whole
            .lines()
            .rev()
            .filter(|line| line.contains(&needle))
            .find_map(|line| arguments(line, call))
        {
            return args.get("tty").and_then(Value::as_bool).unwrap_or(false);
        }
        if look >= widest {
            return false;
        }
        look = (look * 4).min(widest);
    }
}

/// The arguments of the `exec_command` call `call` a transcript line records, if it is one.
fn arguments(line: &str, call: &str) -> Option<Map<String, Value>> {
    let item: Value = serde_json::from_str(line).ok()?;
    let payload = item.get("payload")?;
    if payload.get("type")?.as_str()? != "function_call"
        || payload.get("call_id")?.as_str()? != call
        || payload.get("name")?.as_str()? != "exec_command"
    {
        return None;
    }
    match serde_json::from_str(payload.get("arguments")?.as_str()?).ok()? {
        Value::Object(args) => Some(args),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use serde_json::{Map, Value, json};

    use super::{mark, opens_unseen_terminal};
    use crate::agents::Agent;

    fn transcript(lines: &[Value]) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        for line in lines {
            writeln!(file, "{line}").unwrap();
        }
        file
    }

    fn call(id: &str, name: &str, args: &Value) -> Value {
        json!({"type": "response_item", "payload": {"type": "function_call", "name": name,
            "arguments": args.to_string(), "call_id": id}})
    }

    fn pre_tool_use(path: &str, id: &str) -> Map<String, Value> {
        let Value::Object(map) = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "bash"}, "tool_use_id": id, "transcript_path": path})
        else {
            unreachable!()
        };
        map
    }

    #[test]
    fn a_call_that_opens_a_terminal_is_marked() {
        let file = transcript(&[
            call("call_1", "exec_command", &json!({"cmd": "ls"})),
            call(
                "call_2",
                "exec_command",
                &json!({"cmd": "bash", "tty": true}),
            ),
        ]);
        let path = file.path().to_str().unwrap();
        let mut input = pre_tool_use(path, "call_2");
        mark("PreToolUse", &mut input);
        assert_eq!(input["tool_input"], json!({"command": "bash", "tty": true}));
        assert!(opens_unseen_terminal(
            Agent::Codex,
            input["tool_input"].as_object()
        ));
        assert!(!opens_unseen_terminal(
            Agent::ClaudeCode,
            input["tool_input"].as_object()
        ));
        let mut input = pre_tool_use(path, "call_1");
        mark("PreToolUse", &mut input);
        assert_eq!(input["tool_input"], json!({"command": "bash"}));
    }

    #[test]
    fn what_cannot_be_read_leaves_the_call_as_it_is() {
        let file = transcript(&[json!({"payload": "not a call"})]);
        for path in [
            file.path().to_str().unwrap(),
            "/nonexistent/rollout.jsonl",
            "/",
        ] {
            let mut input = pre_tool_use(path, "call_2");
            mark("PreToolUse", &mut input);
            assert_eq!(input["tool_input"], json!({"command": "bash"}), "{path}");
        }
    }

    /// The call is found wherever it lies in the last [`super::TAIL`] bytes: right at the end,
    /// behind more than the first look holds, and on a line the first look begins inside of.
    #[test]
    fn a_call_behind_a_long_tail_is_found() {
        let filler = |bytes: usize| {
            let line = json!({"type": "event_msg", "payload": {"text": "x".repeat(1000)}});
            vec![line; bytes / 1000]
        };
        let opening = call(
            "call_9",
            "exec_command",
            &json!({"cmd": "bash", "tty": true}),
        );
        let long_line = call(
            "call_9",
            "exec_command",
            &json!({"cmd": "y".repeat(200_000), "tty": true}),
        );
        for (name, before, the_call, after) in [
            ("at the end", filler(10_000), opening.clone(), Vec::new()),
            (
                "behind 300 KB",
                Vec::new(),
                opening.clone(),
                filler(300_000),
            ),
            (
                "across the first look's edge",
                Vec::new(),
                long_line,
                filler(1_000),
            ),
        ] {
            let mut lines = before;
            lines.push(the_call);
            lines.extend(after);
            let file = transcript(&lines);
            let mut input = pre_tool_use(file.path().to_str().unwrap(), "call_9");
            mark("PreToolUse", &mut input);
            assert_eq!(input["tool_input"]["tty"], json!(true), "{name}");
        }
        // Beyond the last TAIL bytes it is not looked for.
        let mut lines = vec![opening];
        lines.extend(filler(usize::try_from(super::TAIL).unwrap() + 10_000));
        let file = transcript(&lines);
        let mut input = pre_tool_use(file.path().to_str().unwrap(), "call_9");
        mark("PreToolUse", &mut input);
        assert_eq!(input["tool_input"], json!({"command": "bash"}));
    }
}
