//! What every agent's contract is made of: its events with what each stands for in the event
//! table, the reply the engine gives and the answer rendered in the agent's own terms, and the
//! payload keys every agent shares.

use serde_json::{Map, Value};

use super::settings;
use crate::config::Effects;
use crate::config::Event;
use crate::engine::response::Directive;
use crate::engine::tool_classes::{Allowances, ToolClass};
use crate::ground::exit::ExitStatus;

/// What one agent is: its names, events, tools, payload quirks and answer shape.
pub(crate) struct Contract {
    /// The name on the command line.
    pub name: &'static str,
    /// The name people know it by.
    pub title: &'static str,
    /// Every event the agent fires.
    pub events: &'static [AgentEvent],
    /// Every built-in tool, with its class.
    pub tools: &'static [(&'static str, Option<ToolClass>)],
    /// Adds the fields hooks know to the agent's payload.
    pub normalise: fn(&str, &mut Map<String, Value>),
    /// The agent's answer for one decision.
    pub render: fn(&Reply<'_>) -> Rendered,
    /// Where its hook settings are and how an entry looks (`None`: `install` cannot wire it
    /// through a settings file).
    pub wiring: Option<&'static settings::Wiring>,
    /// The agent's events where it reads "ask a person" itself; elsewhere `ask` is a block that
    /// says a person must approve the call.
    pub asks: &'static [&'static str],
}

/// One event as an agent names it.
#[derive(Debug)]
pub struct AgentEvent {
    /// The agent's name for it.
    pub name: &'static str,
    /// The event table's name it stands for; `None` when there is no counterpart.
    pub table: Option<&'static str>,
    /// What an Agent Hooks hook may do here beyond the event table's column, because this agent
    /// reads it here (context at session start, say).
    pub also: Effects,
    /// Plain text on an Agent Hooks hook's stdout is context here (the agent reads it so).
    pub plain_text: bool,
    /// `install` routes it (false where another event of the agent already reports the same
    /// call, so each hook runs once per call).
    pub wired: bool,
    /// The first release of the agent whose settings take it, when that is later than the
    /// oldest one this tool knows (see [`version`]).
    pub since: Option<&'static str>,
}

/// A name of the table, used as it is (no agent-specific reading).
pub(super) static PLAIN: AgentEvent = event("", "");

/// An agent's event that stands for the table event `table`.
pub(crate) const fn event(name: &'static str, table: &'static str) -> AgentEvent {
    AgentEvent {
        name,
        table: Some(table),
        also: Effects::NONE,
        plain_text: false,
        wired: true,
        since: None,
    }
}

/// An agent's event with no counterpart in the table.
pub(crate) const fn unmatched(name: &'static str) -> AgentEvent {
    AgentEvent {
        name,
        table: None,
        also: Effects::NONE,
        plain_text: false,
        wired: false,
        since: None,
    }
}

impl AgentEvent {
    /// The same event, taken by the agent's settings from release `version` on.
    pub(crate) const fn since(self, version: &'static str) -> Self {
        Self {
            since: Some(version),
            ..self
        }
    }

    /// The same event, where Agent Hooks hooks may also add context.
    pub(crate) const fn with_context(self) -> Self {
        Self {
            also: self.also.with(Effects::CONTEXT),
            ..self
        }
    }

    /// The same event, run when the agent calls it but not wired by `install`: another of the
    /// agent's events reports the same call.
    pub(crate) const fn not_wired(self) -> Self {
        Self {
            wired: false,
            ..self
        }
    }

    /// The same event, where plain text on stdout is context.
    pub(crate) const fn plain_text_context(self) -> Self {
        Self {
            plain_text: true,
            ..self
        }
    }
}

impl AgentEvent {
    /// What this event allows beyond the table.
    pub fn allowances(&self) -> Allowances {
        Allowances {
            agent_hooks_also: self.also,
            plain_text_context: self.plain_text,
        }
    }
}

/// One decision, for an agent to hear.
#[derive(Debug)]
pub struct Reply<'a> {
    /// The event as the agent named it.
    pub event: &'a str,
    /// The agent's event (for an agent's own name; a table name gives a plain one).
    pub table: Option<Event>,
    /// What the hooks decided (a runner error in fail-closed mode is a block here).
    pub directive: Option<&'a Directive>,
    /// The runner could not answer (unknown event, unreadable payload) and fails open.
    pub error: Option<&'a str>,
}

#[cfg(test)]
impl<'a> Reply<'a> {
    /// A decision on the agent's event `event`, for the agents' unit tests.
    pub(crate) fn of(event: &'a str, directive: Option<&'a Directive>) -> Self {
        Self {
            event,
            table: None,
            directive,
            error: None,
        }
    }
}

/// What the agent gets: stdout, stderr and the exit status.
#[derive(Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The whole of stdout (without a newline); `None` prints nothing.
    pub stdout: Option<String>,
    /// A message for stderr (the block message where the agent reads it there).
    pub stderr: Option<String>,
    /// The exit status the agent reads.
    pub exit: ExitStatus,
}

impl Rendered {
    /// Exit 0 with `value` on stdout.
    pub(crate) fn json(value: &Value) -> Self {
        Self {
            stdout: Some(value.to_string()),
            stderr: None,
            exit: ExitStatus::Success,
        }
    }

    /// Exit 0 and nothing on stdout.
    pub(crate) fn nothing() -> Self {
        Self {
            stdout: None,
            stderr: None,
            exit: ExitStatus::Success,
        }
    }

    /// Exit 2 with `message` on stderr and nothing on stdout: "blocked" to every agent that
    /// reads the exit code.
    pub(crate) fn exit_two(message: &str) -> Self {
        Self {
            stdout: None,
            stderr: Some(message.to_owned()),
            exit: ExitStatus::Blocked,
        }
    }

    /// A runner error that fails open: exit 1 (a non-blocking error to the agents that read
    /// exit codes), nothing on stdout, the reason on stderr.
    pub(crate) fn failed_open(reason: &str) -> Self {
        Self {
            stdout: None,
            stderr: Some(reason.to_owned()),
            exit: ExitStatus::Error,
        }
    }
}

/// The reason an agent is given when the hooks gave a blank one.
pub(super) const NO_REASON_BLOCK: &str = "A hook blocked this call without giving a reason.";
pub(super) const NO_REASON_CONTINUE: &str = "A hook asks to keep working, without giving a reason.";

/// The directive with a non-blank message, when its message is blank.
pub(super) fn with_reason(directive: &Directive) -> Option<Directive> {
    match directive {
        Directive::Block { message } if message.trim().is_empty() => Some(Directive::Block {
            message: NO_REASON_BLOCK.to_owned(),
        }),
        Directive::Continue { message } if message.trim().is_empty() => Some(Directive::Continue {
            message: NO_REASON_CONTINUE.to_owned(),
        }),
        _ => None,
    }
}

/// Payload fields every agent names alike but not as hooks know them.
pub(super) fn common_normalise(input: &mut Map<String, Value>) {
    // The project: the payload's `cwd`, else the first workspace root.
    if !input.get("cwd").is_some_and(Value::is_string)
        && let Some(root) = input
            .get("workspace_roots")
            .and_then(Value::as_array)
            .and_then(|roots| roots.first())
            .and_then(Value::as_str)
            .map(ToOwned::to_owned)
    {
        input.insert("cwd".to_owned(), Value::from(root));
    }
    copy_if_absent(input, "prompt", "user_message");
}

/// Copies `from` to `to` when the payload has `from` and not `to`.
pub(crate) fn copy_if_absent(input: &mut Map<String, Value>, from: &str, to: &str) {
    if !input.contains_key(to)
        && let Some(value) = input.get(from).cloned()
    {
        input.insert(to.to_owned(), value);
    }
}

/// The agent's own event name most like `name` (case aside).
pub(super) fn closest(name: &str, events: &[AgentEvent]) -> Option<&'static str> {
    let wanted = name.to_ascii_lowercase();
    events
        .iter()
        .map(|own| {
            (
                strsim::normalized_damerau_levenshtein(&wanted, &own.name.to_ascii_lowercase()),
                own.name,
            )
        })
        .filter(|(score, _)| *score >= 0.6)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, known)| known)
}

/// The `hookSpecificOutput` object Claude Code and Codex read, for `event`.
pub(crate) fn hook_specific(event: &str, fields: Map<String, Value>) -> Value {
    let mut inner = Map::new();
    inner.insert("hookEventName".to_owned(), Value::from(event));
    inner.extend(fields);
    let mut outer = Map::new();
    outer.insert("hookSpecificOutput".to_owned(), Value::Object(inner));
    Value::Object(outer)
}
