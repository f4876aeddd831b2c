//! The shapes of `--json` output (`run`'s line is [`crate::report::line`]'s), built from engine results (never engine types
//! serialised directly), so scripts get a stable format.

use serde::Serialize;

use crate::config::{Event, Warning};
pub(crate) use crate::report::line::to_line;

/// The version of every `--json` document's shape; it changes when a field changes meaning.
pub(crate) const SCHEMA_VERSION: u32 = 1;

/// A `--json` document: `schema_version` first, then the command's own fields.
#[derive(Serialize)]
pub(crate) struct Document<'a, T: Serialize> {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The command's fields.
    #[serde(flatten)]
    pub body: &'a T,
}

/// One row of `events --json`.
#[derive(Serialize)]
pub(crate) struct EventRow {
    /// The Hermes name (null for Agent-Hooks-only events).
    pub canonical: Option<&'static str>,
    /// Agent Hooks names.
    pub aliases: &'static [&'static str],
    /// Claude Code's names.
    pub claude_code: Vec<&'static str>,
    /// What `config` hooks can do.
    pub config: Vec<&'static str>,
    /// What Agent Hooks hooks can do.
    pub agent_hooks: Vec<&'static str>,
    /// Typical payload fields.
    pub fields: &'static [&'static str],
    /// Hermes refuses shell hooks here.
    pub plugin_only: bool,
    /// Hermes fires the event for Python plugins only: `config` hooks load, and only
    /// `hermes-hooks run` runs them.
    pub plugin_fired: bool,
    /// Every other agent's names for the event (`run --agent`), by agent.
    pub agents: AgentNames,
}

/// Each agent's names for one event, as `{"claude-code": ["PreToolUse"], ...}` (agents that
/// have none are left out).
pub(crate) struct AgentNames(pub Vec<(crate::agents::Agent, Vec<&'static str>)>);

impl Serialize for AgentNames {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(agent, names)| (agent.name(), names)))
    }
}

impl EventRow {
    /// The row for `event`.
    pub(crate) fn new(event: Event) -> Self {
        let def = event.def();
        Self {
            canonical: def.canonical,
            aliases: def.aliases,
            claude_code: event.claude_code_names(),
            config: def.config.names(),
            agent_hooks: def.agent_hooks.names(),
            fields: def.fields,
            plugin_only: def.plugin_only,
            plugin_fired: def.plugin_fired,
            agents: AgentNames(crate::agents::Agent::others_for(event)),
        }
    }
}

/// A load warning in `--json` output.
#[derive(Serialize)]
pub(crate) struct WarningLine<'a> {
    /// The file the warning is about.
    pub file: String,
    /// The line, when known.
    pub line: Option<u64>,
    /// What kind of problem.
    pub kind: &'static str,
    /// What is wrong and what was done about it.
    pub message: &'a str,
}

impl<'a> WarningLine<'a> {
    /// The line for `warning`.
    pub(crate) fn new(warning: &'a Warning) -> Self {
        Self {
            file: warning.origin.file.display().to_string(),
            line: warning.origin.line,
            kind: warning.kind.as_str(),
            message: &warning.message,
        }
    }
}
