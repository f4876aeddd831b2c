//! The payload: reading either input shape (Hermes callback kwargs, or the wire payload a shell
//! hook receives), and writing each source's wire form byte for byte as Hermes serialises it.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::config::Event;
use crate::engine::tool_classes::{ToolClass, ToolClasses};

/// Why an input payload was refused.
#[derive(Debug, thiserror::Error)]
pub enum PayloadError {
    /// Not JSON; the message gives line and column (in the message, not repeated as a cause).
    #[error("payload is not valid JSON: {0}")]
    Json(serde_json::Error),
    /// JSON, but not an object.
    #[error("payload must be a JSON object, not {0}")]
    NotObject(&'static str),
    /// Nested deeper than Python's `json.loads` reads (so deeper than Hermes ever sends).
    #[error(
        "payload is nested deeper than {limit} levels (at line {line} column {column}), \
         deeper than Python's json.loads reads"
    )]
    TooDeep {
        /// The deepest level that is read (1,000).
        limit: usize,
        /// Where the level after it opens: line,
        line: usize,
        /// and column (in bytes).
        column: usize,
    },
}

impl From<crate::ground::pyjson::JsonError> for PayloadError {
    fn from(err: crate::ground::pyjson::JsonError) -> Self {
        match err {
            crate::ground::pyjson::JsonError::Invalid(err) => Self::Json(err),
            crate::ground::pyjson::JsonError::TooDeep(at) => Self::too_deep(at),
        }
    }
}

impl PayloadError {
    pub(crate) const fn too_deep(at: crate::ground::pyjson::TooDeep) -> Self {
        Self::TooDeep {
            limit: at.limit,
            line: at.line,
            column: at.column,
        }
    }
}

/// Parses an input payload as Python's `json.loads` would. Empty (or blank) input is `{}`; a
/// UTF-8 BOM is tolerated.
pub fn parse(bytes: &[u8]) -> Result<Map<String, Value>, PayloadError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match crate::ground::pyjson::from_slice(bytes)? {
        Value::Object(map) => Ok(map),
        other => Err(PayloadError::NotObject(json_kind(&other))),
    }
}

pub(crate) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The value of `key`, taken out of `input` (null is left in its place).
fn take(input: &mut Map<String, Value>, key: &str) -> Option<Value> {
    input.get_mut(key).map(std::mem::take)
}

/// Input keys the wire payload takes its own fields from; every other key travels in `extra`.
const WIRE_KEYS: [&str; 9] = [
    "hook_event_name",
    "tool_name",
    "args",
    "tool_input",
    "session_id",
    "parent_session_id",
    "cwd",
    "profile",
    "extra",
];

/// One call, normalised from either input shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Invocation {
    /// `tool_name` as given, else null.
    pub tool_name: Value,
    /// `args` (or `tool_input`) when it is an object.
    pub tool_input: Option<Map<String, Value>>,
    /// `session_id`, else `parent_session_id`, else `""` (Python truthiness, as Hermes).
    pub session_id: Value,
    /// The input's `cwd`, else the current directory.
    pub cwd: String,
    /// The input's `profile`, else `"default"`.
    pub profile: Value,
    /// The input's `extra` object, plus every input key the fields above do not use.
    pub extra: Map<String, Value>,
    /// The input's `parent_session_id`: Hermes keeps it out of `extra` (it is only the session's
    /// fallback there); Agent Hooks payloads carry it at the top level.
    pub parent_session_id: Option<Value>,
    /// The class of the tool (`shell`, `edit`, ...), when it has one: by Hermes's tool names,
    /// then any agent's (a caller that knows the agent sets it by that agent's list). Agent
    /// Hooks matchers may name it, and Agent Hooks payloads carry it.
    pub tool_class: Option<&'static str>,
    /// The shell command's reading, made when a rule first needs it.
    pub(crate) commands: crate::shell::Kept,
}

impl Invocation {
    /// Normalises `input`; `current_dir` stands in for a missing `cwd`; `tools` names the class
    /// of the tool called (the calling agent's names first).
    pub fn from_input(
        mut input: Map<String, Value>,
        current_dir: &str,
        tools: &impl ToolClasses,
    ) -> Self {
        // Taken, not cloned (`args` may carry a whole file, any value may nest a thousand levels
        // deep); these keys never reach `extra`, and none is removed, so the others keep their
        // order.
        let mut object = |key: &str| {
            input
                .get_mut(key)
                .and_then(Value::as_object_mut)
                .map(std::mem::take)
        };
        let tool_input = object("args").or_else(|| object("tool_input"));
        let mut extra = object("extra").unwrap_or_default();
        let parent_session_id = input.get("parent_session_id").cloned();
        let session_id = ["session_id", "parent_session_id"]
            .into_iter()
            .find(|key| input.get(*key).is_some_and(crate::ground::pyjson::truthy))
            .and_then(|key| take(&mut input, key))
            .unwrap_or_else(|| Value::from(""));
        let cwd = match input.get("cwd").and_then(Value::as_str) {
            Some(cwd) if !cwd.is_empty() => cwd.to_owned(),
            _ => current_dir.to_owned(),
        };
        let tool_name = take(&mut input, "tool_name").unwrap_or(Value::Null);
        let profile = take(&mut input, "profile")
            .filter(|v| !v.is_null())
            .unwrap_or_else(|| Value::from("default"));
        for (key, value) in input {
            if !WIRE_KEYS.contains(&key.as_str()) {
                extra.insert(key, value);
            }
        }
        let tool_class = tool_name
            .as_str()
            .and_then(|tool| tools.tool_class(tool))
            .map(ToolClass::as_str);
        Self {
            tool_name,
            tool_input,
            session_id,
            cwd,
            profile,
            extra,
            parent_session_id,
            tool_class,
            commands: crate::shell::Kept::default(),
        }
    }

    /// The tool name, when it is a string.
    pub fn tool_name(&self) -> Option<&str> {
        self.tool_name.as_str()
    }

    /// The hook's working directory: `cwd` when it is an existing directory, else `fallback`.
    pub fn work_dir(&self, fallback: &Path) -> PathBuf {
        let cwd = Path::new(&self.cwd);
        if cwd.is_absolute() && cwd.is_dir() {
            cwd.to_path_buf()
        } else {
            fallback.to_path_buf()
        }
    }

    /// The Hermes wire payload for `event`, with `tool_input` as it stands after earlier rewrites
    /// (serialise it with `pyjson::write_compact`).
    pub fn hermes_wire<'a>(
        &'a self,
        event: Event,
        tool_input: Option<&'a Map<String, Value>>,
    ) -> HermesWire<'a> {
        HermesWire {
            hook_event_name: event.name(),
            tool_name: &self.tool_name,
            tool_input,
            session_id: &self.session_id,
            cwd: &self.cwd,
            profile: &self.profile,
            extra: &self.extra,
        }
    }
}

/// The Hermes wire payload of one call, borrowed from its [`Invocation`] (nothing is copied, a
/// payload that nests a thousand levels deep included).
#[derive(Serialize)]
pub struct HermesWire<'a> {
    hook_event_name: &'a str,
    tool_name: &'a Value,
    tool_input: Option<&'a Map<String, Value>>,
    session_id: &'a Value,
    cwd: &'a str,
    profile: &'a Value,
    extra: &'a Map<String, Value>,
}

/// A payload in any shape (Hermes keyword arguments, the Hermes wire with `tool_input` and
/// `extra`, the Agent Hooks wire) turned into the keyword shape, so it can be merged key by key
/// over another: `tool_input` becomes `args`, `tool_use_id` becomes `tool_call_id`, `extra`'s keys
/// come up to the top level (a key written at the top level wins), and the event's name is left
/// out (the caller's event decides).
pub(crate) fn kwargs_shape(mut input: Map<String, Value>) -> Map<String, Value> {
    // `shift_remove`: the keys left keep their order (`remove` would move the last one up).
    let renames = [("tool_input", "args"), ("tool_use_id", "tool_call_id")];
    for (from, to) in renames {
        if let Some(value) = input.shift_remove(from) {
            input.entry(to).or_insert(value);
        }
    }
    if let Some(Value::Object(extra)) = input.shift_remove("extra") {
        for (key, value) in extra {
            input.entry(key).or_insert(value);
        }
    }
    input.shift_remove("hook_event_name");
    input.shift_remove("event_type");
    input
}

/// Where the project root search starts for a payload: its `cwd`, else its `work_dir` (the
/// Agent Hooks name), whichever is first an existing absolute directory; else `fallback`.
pub(crate) fn project_start(input: &Map<String, Value>, fallback: &Path) -> PathBuf {
    ["cwd", "work_dir"]
        .iter()
        .filter_map(|key| input.get(*key).and_then(Value::as_str))
        .map(Path::new)
        .find(|dir| dir.is_absolute() && dir.is_dir())
        .map_or_else(|| fallback.to_path_buf(), Path::to_path_buf)
}

/// Which wire form a hook receives: its source's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// A `config` hook: the Hermes wire payload.
    Hermes,
    /// An Agent Hooks hook, declared for the failure alias or not.
    AgentHooks {
        /// Declared for the failed call (`post-tool-call-failure`).
        on_failure: bool,
    },
}

impl Invocation {
    /// Writes the payload a hook of `dialect` receives for `event` (with `tool_input` as it
    /// stands after earlier rewrites), byte for byte as Hermes serialises; an Agent Hooks payload
    /// is stamped with the current time.
    pub fn write_wire<W: std::io::Write + ?Sized>(
        &self,
        out: &mut W,
        dialect: Dialect,
        event: Event,
        tool_input: Option<&Map<String, Value>>,
    ) -> std::io::Result<()> {
        match dialect {
            Dialect::AgentHooks { on_failure } => {
                let event_type = event
                    .failure_alias()
                    .filter(|_| on_failure)
                    .or(event.agent_name())
                    .unwrap_or(event.name());
                let now = crate::ground::clock::now_iso();
                let wire = self
                    .agent_wire(event_type, event.is_tool_event(), tool_input, &now)
                    .with_spec_fields(&self.extra, event.def().spec_fields);
                crate::ground::pyjson::write_compact(out, &wire)
            }
            Dialect::Hermes => {
                crate::ground::pyjson::write_compact(out, &self.hermes_wire(event, tool_input))
            }
        }
    }
}

/// The payload's `status` when the tool call failed.
pub(crate) const FAILED_STATUS: &str = "error";

impl Invocation {
    /// Whether the tool call failed: `status` is `error` (it travels in `extra`).
    pub fn failed(&self) -> bool {
        self.extra.get("status").and_then(Value::as_str) == Some(FAILED_STATUS)
    }

    /// The Agent Hooks event payload: `event_type` (the kebab name), `timestamp`, `session_id`,
    /// `work_dir`, `context`, then on tool events `tool_name`, `tool_input`, `tool_use_id`,
    /// `tool_class` (null when the tool is in no class), then
    /// `parent_session_id` when the input has one, then the fields the Hermes payload carries in
    /// `extra`, never overwriting one of those. It borrows from `self`: a large payload is not
    /// copied.
    pub fn agent_wire<'a>(
        &'a self,
        event_type: &'a str,
        tool_event: bool,
        tool_input: Option<&'a Map<String, Value>>,
        timestamp: &'a str,
    ) -> AgentWire<'a> {
        let context = self.extra.get("context").filter(|c| c.is_object());
        let mut fields: Vec<(&str, Field<'a>)> = vec![
            ("event_type", Field::Str(event_type)),
            ("timestamp", Field::Str(timestamp)),
            ("session_id", Field::Value(&self.session_id)),
            ("work_dir", Field::Str(&self.cwd)),
            ("context", context.map_or(Field::EmptyObject, Field::Value)),
        ];
        if tool_event {
            let id = self
                .extra
                .get("tool_use_id")
                .or_else(|| self.extra.get("tool_call_id"));
            fields.push(("tool_name", Field::Value(&self.tool_name)));
            fields.push(("tool_input", tool_input.map_or(Field::Null, Field::Object)));
            fields.push(("tool_use_id", id.map_or(Field::Null, Field::Value)));
            fields.push((
                "tool_class",
                self.tool_class.map_or(Field::Null, Field::Str),
            ));
        }
        if let Some(parent) = &self.parent_session_id {
            fields.push(("parent_session_id", Field::Value(parent)));
        }
        let fixed = fields.len();
        for (key, value) in &self.extra {
            if !fields[..fixed].iter().any(|(name, _)| name == key) {
                fields.push((key.as_str(), Field::Value(value)));
            }
        }
        AgentWire(fields)
    }
}

/// An Agent Hooks payload: an ordered JSON object whose values are borrowed where they can be.
pub struct AgentWire<'a>(Vec<(&'a str, Field<'a>)>);

impl<'a> AgentWire<'a> {
    /// Adds each specification field (`(spec name, Hermes name)`) the payload lacks, from the
    /// `extra` field of the same meaning, when there is one.
    fn with_spec_fields(
        mut self,
        extra: &'a Map<String, Value>,
        spec_fields: &'static [(&'static str, &'static str)],
    ) -> Self {
        for (spec, hermes) in spec_fields {
            if let Some(value) = extra.get(*hermes)
                && !self.0.iter().any(|(name, _)| name == spec)
            {
                self.0.push((spec, Field::Value(value)));
            }
        }
        self
    }
}

impl Serialize for AgentWire<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(key, value)| (key, value)))
    }
}

/// One value of [`Fields`].
enum Field<'a> {
    Str(&'a str),
    Value(&'a Value),
    Object(&'a Map<String, Value>),
    EmptyObject,
    Null,
}

impl Serialize for Field<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        match self {
            Self::Str(text) => serializer.serialize_str(text),
            Self::Value(value) => value.serialize(serializer),
            Self::Object(map) => map.serialize(serializer),
            Self::EmptyObject => serializer.serialize_map(Some(0))?.end(),
            Self::Null => serializer.serialize_unit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Invocation, PayloadError, parse};
    use crate::config::Event;
    use crate::ground::pyjson::to_compact as to_python_json;
    use serde_json::json;

    const HERMES: crate::agents::Agent = crate::agents::Agent::Hermes;

    fn wire(input: &serde_json::Value, event: &str) -> String {
        let map = input.as_object().unwrap().clone();
        let inv = Invocation::from_input(map, "/work", &HERMES);
        let event = Event::parse(event).unwrap().event;
        String::from_utf8(to_python_json(
            &inv.hermes_wire(event, inv.tool_input.as_ref()),
        ))
        .unwrap()
    }

    #[test]
    fn kwargs_shape_becomes_the_hermes_wire() {
        let text = wire(
            &json!({"tool_name": "terminal", "args": {"command": "rm -rf /"}, "task_id": "t", "tool_call_id": "c", "session_id": "s"}),
            "pre_tool_call",
        );
        assert_eq!(
            text,
            r#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "rm -rf /"}, "session_id": "s", "cwd": "/work", "profile": "default", "extra": {"task_id": "t", "tool_call_id": "c"}}"#
        );
    }

    #[test]
    fn wire_shape_round_trips() {
        let input = r#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, "session_id": "s", "cwd": "/p", "profile": "work", "extra": {"task_id": "t"}}"#;
        let inv = Invocation::from_input(parse(input.as_bytes()).unwrap(), "/elsewhere", &HERMES);
        let event = Event::parse("pre_tool_call").unwrap().event;
        assert_eq!(
            String::from_utf8(to_python_json(
                &inv.hermes_wire(event, inv.tool_input.as_ref())
            ))
            .unwrap(),
            input
        );
    }

    #[test]
    fn extra_keeps_the_order_of_the_input() {
        // Python adds the unused keys to `extra` in the order they came, wherever `extra` was.
        let input = r#"{"a": 1, "extra": {"x": 0}, "tool_name": "t", "b": 2, "session_id": "s", "c": 3, "d": 4}"#;
        let inv = Invocation::from_input(parse(input.as_bytes()).unwrap(), "/w", &HERMES);
        let keys: Vec<&str> = inv.extra.keys().map(String::as_str).collect();
        assert_eq!(keys, ["x", "a", "b", "c", "d"]);
        let shaped = super::kwargs_shape(
            parse(br#"{"a": 1, "tool_input": {}, "b": 2, "extra": {"z": 0}, "c": 3, "hook_event_name": "e", "d": 4}"#)
                .unwrap(),
        );
        let keys: Vec<&str> = shaped.keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "b", "c", "d", "args", "z"]);
    }

    #[test]
    fn subagent_payload_falls_back_to_parent_session() {
        let text = wire(
            &json!({"parent_session_id": "parent-sess", "child_role": null, "child_status": "completed", "duration_ms": 1234}),
            "subagent_stop",
        );
        assert_eq!(
            text,
            r#"{"hook_event_name": "subagent_stop", "tool_name": null, "tool_input": null, "session_id": "parent-sess", "cwd": "/work", "profile": "default", "extra": {"child_role": null, "child_status": "completed", "duration_ms": 1234}}"#
        );
    }

    #[test]
    fn non_object_args_give_null_tool_input_and_unicode_stays_raw() {
        let text = wire(
            &json!({"tool_name": "t", "args": "x", "note": "é\n\u{1}"}),
            "pre_tool_call",
        );
        assert!(text.contains(r#""tool_input": null"#), "{text}");
        assert!(text.contains("\"note\": \"é\\n\\u0001\""), "{text}");
    }

    #[test]
    fn agent_hooks_get_their_own_shape() {
        let input = json!({"tool_name": "Shell", "args": {"command": "rm -rf /tmp"}, "session_id": "s",
            "tool_call_id": "tool_123", "model": "m", "context": {"k": 1}, "work_dir": "ignored"});
        let inv = Invocation::from_input(
            input.as_object().unwrap().clone(),
            "/home/user/project",
            &HERMES,
        );
        let text = String::from_utf8(to_python_json(&inv.agent_wire(
            "pre-tool-call",
            true,
            inv.tool_input.as_ref(),
            "2024-01-15T10:30:00Z",
        )))
        .unwrap();
        assert_eq!(
            text,
            r#"{"event_type": "pre-tool-call", "timestamp": "2024-01-15T10:30:00Z", "session_id": "s", "work_dir": "/home/user/project", "context": {"k": 1}, "tool_name": "Shell", "tool_input": {"command": "rm -rf /tmp"}, "tool_use_id": "tool_123", "tool_class": "shell", "tool_call_id": "tool_123", "model": "m"}"#
        );
        let text = String::from_utf8(to_python_json(&inv.agent_wire(
            "pre-session",
            false,
            None,
            "t",
        )))
        .unwrap();
        assert!(!text.contains("tool_name"), "{text}");
    }

    #[test]
    fn hermes_telemetry_fields_pass_through_unchanged() {
        // The kwargs Hermes's `invoke_hook` passes for a tool call: the telemetry schema and the
        // turn, request and middleware fields travel in `extra`, as they came, big numbers too.
        let input = parse(
            br#"{"tool_name": "terminal", "args": {"command": "ls"}, "task_id": "", "tool_call_id": "call_1", "turn_id": "turn_7", "api_request_id": "req_42", "middleware_trace": [{"name": "redact", "elapsed_ms": 0.25, "changed": false}], "session_id": "s", "telemetry_schema_version": "hermes.observer.v1", "seq": 18446744073709551617}"#,
        )
        .unwrap();
        let inv = Invocation::from_input(input, "/work", &HERMES);
        let event = Event::parse("pre_tool_call").unwrap().event;
        let text = String::from_utf8(to_python_json(
            &inv.hermes_wire(event, inv.tool_input.as_ref()),
        ))
        .unwrap();
        assert_eq!(
            text,
            r#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls"}, "session_id": "s", "cwd": "/work", "profile": "default", "extra": {"task_id": "", "tool_call_id": "call_1", "turn_id": "turn_7", "api_request_id": "req_42", "middleware_trace": [{"name": "redact", "elapsed_ms": 0.25, "changed": false}], "telemetry_schema_version": "hermes.observer.v1", "seq": 18446744073709551617}}"#
        );
        let text = String::from_utf8(to_python_json(&inv.agent_wire(
            "pre-tool-call",
            true,
            inv.tool_input.as_ref(),
            "t",
        )))
        .unwrap();
        assert!(
            text.ends_with(r#""turn_id": "turn_7", "api_request_id": "req_42", "middleware_trace": [{"name": "redact", "elapsed_ms": 0.25, "changed": false}], "telemetry_schema_version": "hermes.observer.v1", "seq": 18446744073709551617}"#),
            "{text}"
        );
    }

    #[test]
    fn empty_input_is_an_empty_object() {
        assert!(parse(b"").unwrap().is_empty());
        assert!(parse(b" \n\t").unwrap().is_empty());
        assert!(parse(b"\xEF\xBB\xBF{}").unwrap().is_empty());
    }

    #[test]
    fn bad_input_names_line_and_column() {
        let err = parse(b"{\n  \"a\": ,\n}").unwrap_err();
        assert!(matches!(err, PayloadError::Json(_)));
        assert!(err.to_string().contains("line 2 column"), "{err}");
        assert_eq!(
            parse(b"[1]").unwrap_err().to_string(),
            "payload must be a JSON object, not an array"
        );
    }
}
