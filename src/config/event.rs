//! The event table: canonical (Hermes) names, Agent Hooks aliases, what a hook can do per source,
//! whether tool matchers apply, which alias means "the call failed", typical payload fields and
//! the synthetic payload `test` and `doctor` send. An event and its behaviour are one row here;
//! everything else reads the columns, never an event's name.

use std::fmt;

use super::SourceKind;

/// What a hook's answer may do on an event (a small bit set).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects(u8);

impl Effects {
    /// Nothing: the hook is an observer.
    pub const NONE: Self = Self(0);
    /// Block the action (tool call, turn, session, ...).
    pub const BLOCK: Self = Self(1);
    /// Rewrite the tool input.
    pub const MODIFY: Self = Self(2);
    /// Add context for the model.
    pub const CONTEXT: Self = Self(4);
    /// Quality gate: ask the agent to keep working instead of stopping.
    pub const GATE: Self = Self(8);
    /// Ask a person: the call waits for a person's yes (`pre_tool_call` only).
    pub const ASK: Self = Self(16);
    /// Replace the text about to be spoken (`pre_tts_synthesis`).
    pub const TEXT: Self = Self(32);

    const NAMES: [(Self, &'static str); 6] = [
        (Self::BLOCK, "block"),
        (Self::ASK, "ask"),
        (Self::MODIFY, "modify"),
        (Self::CONTEXT, "context"),
        (Self::GATE, "gate"),
        (Self::TEXT, "text"),
    ];

    /// Both sets together.
    #[must_use]
    pub const fn with(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// Whether every effect of `other` is in `self`.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the hook can change nothing.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The effects' names, in a fixed order.
    pub fn names(self) -> Vec<&'static str> {
        Self::NAMES
            .iter()
            .filter(|(effect, _)| self.contains(*effect))
            .map(|(_, name)| *name)
            .collect()
    }
}

/// One row of the event table.
#[derive(Debug)]
pub struct EventDef {
    /// The Hermes name; `None` for the events only the Agent Hooks format has.
    pub canonical: Option<&'static str>,
    /// Agent Hooks names (kebab-case) of the same event.
    pub aliases: &'static [&'static str],
    /// What a `config` hook can do here (Hermes honours only these).
    pub config: Effects,
    /// What an Agent Hooks hook can do here.
    pub agent_hooks: Effects,
    /// Typical payload fields (the rest travel in `extra`).
    pub fields: &'static [&'static str],
    /// Hermes refuses shell hooks for this event (Python plugins only).
    pub plugin_only: bool,
    /// Hermes fires this event for Python plugins only and registers no `config` hook for it
    /// (it is in none of its lists of hook events): a `config` hook still loads, and `run` and
    /// `test` run it, with a warning that Hermes never will.
    pub plugin_fired: bool,
    /// A tool-call event: tool matchers apply, and the payload carries `tool_name` and its input.
    pub tool: bool,
    /// The alias whose Agent Hooks run only when the call failed (called by that name, or the
    /// payload's `status` is `error`); the event's other Agent Hooks then do not run.
    pub failure_alias: Option<&'static str>,
    /// The synthetic payload (a JSON object in the Hermes keyword shape) for `test` and `doctor`:
    /// Hermes's own test payload where it has one, a realistic one otherwise.
    pub sample: &'static str,
    /// Fields the Agent Hooks specification gives this event, each with the Hermes field of the
    /// same meaning it is taken from when the payload lacks it: `(spec name, Hermes name)`.
    pub spec_fields: &'static [(&'static str, &'static str)],
}

const B: Effects = Effects::BLOCK;
/// Block, ask a person, or rewrite: what a hook may answer before a tool call.
const BAM: Effects = Effects::BLOCK.with(Effects::ASK).with(Effects::MODIFY);
const BT: Effects = Effects::BLOCK.with(Effects::TEXT);
const BC: Effects = Effects::BLOCK.with(Effects::CONTEXT);
const C: Effects = Effects::CONTEXT;
const G: Effects = Effects::GATE;
const N: Effects = Effects::NONE;

const fn hermes(
    name: &'static str,
    aliases: &'static [&'static str],
    config: Effects,
    agent_hooks: Effects,
    fields: &'static [&'static str],
) -> EventDef {
    EventDef {
        canonical: Some(name),
        aliases,
        config,
        agent_hooks,
        fields,
        plugin_only: false,
        plugin_fired: false,
        tool: false,
        failure_alias: None,
        sample: SESSION_SAMPLE,
        spec_fields: &[],
    }
}

const fn observer(name: &'static str, fields: &'static [&'static str]) -> EventDef {
    hermes(name, &[], N, N, fields)
}

const fn agent_only(alias: &'static [&'static str]) -> EventDef {
    EventDef {
        canonical: None,
        aliases: alias,
        config: N,
        agent_hooks: B,
        fields: &[],
        plugin_only: false,
        plugin_fired: false,
        tool: false,
        failure_alias: None,
        sample: SESSION_SAMPLE,
        spec_fields: &[],
    }
}

const TOOL_FIELDS: &[&str] = &["tool_name", "args", "task_id", "tool_call_id"];
const API_FIELDS: &[&str] = &["api_request_id", "model", "usage"];
const AUX_FIELDS: &[&str] = &["aux_task", "api_request_id", "model", "retry_count"];
const APPROVAL_FIELDS: &[&str] = &["command", "choice"];
const SESSION_FIELDS: &[&str] = &["session_id", "platform"];

const SESSION_SAMPLE: &str = r#"{"session_id": "test-session"}"#;
const TOOL_CALL_SAMPLE: &str = r#"{"tool_name": "terminal", "args": {"command": "echo hello"},
    "session_id": "test-session", "task_id": "test-task", "tool_call_id": "test-call"}"#;

/// The fields every model API call's synthetic payload starts with (Hermes's
/// `_DEFAULT_PAYLOADS`, `hermes_cli/hooks.py`).
macro_rules! api_sample {
    ($extra:literal) => {
        concat!(
            r#"{"session_id": "test-session", "task_id": "test-task", "platform": "cli",
            "model": "claude-sonnet-4-6", "provider": "anthropic",
            "base_url": "https://api.anthropic.com", "api_mode": "anthropic_messages",
            "api_call_count": 1, "#,
            $extra,
            "}"
        )
    };
}

/// The fields every auxiliary model call's synthetic payload starts with (titling, compression,
/// vision and the like; Hermes's `_DEFAULT_PAYLOADS`, `hermes_cli/hooks.py`).
macro_rules! aux_sample {
    ($extra:literal) => {
        concat!(
            r#"{"aux_task": "title_generation", "session_id": "test-session",
            "task_id": "test-task", "turn_id": "test-turn", "api_request_id": "aux-0123abcd",
            "platform": "cli", "model": "claude-haiku-4-5", "provider": "anthropic",
            "base_url": "https://api.anthropic.com", "api_mode": "anthropic_messages",
            "api_call_count": 1, "retry_count": 0, "streaming": false, "#,
            $extra,
            "}"
        )
    };
}

/// Every event: the ones hooks can act on first, then Hermes's other plugin events, then the events
/// only the Agent Hooks format has.
pub(crate) static EVENTS: &[EventDef] = &[
    EventDef {
        tool: true,
        sample: TOOL_CALL_SAMPLE,
        ..hermes("pre_tool_call", &["pre-tool-call"], BAM, BAM, TOOL_FIELDS)
    },
    EventDef {
        tool: true,
        failure_alias: Some("post-tool-call-failure"),
        sample: r#"{"tool_name": "terminal", "args": {"command": "echo hello"},
            "session_id": "test-session", "task_id": "test-task", "tool_call_id": "test-call",
            "result": "{\"output\": \"hello\"}", "duration_ms": 42}"#,
        ..hermes(
            "post_tool_call",
            &["post-tool-call", "post-tool-call-failure"],
            N,
            B,
            &["tool_name", "args", "result", "status", "duration_ms"],
        )
    },
    EventDef {
        sample: r#"{"session_id": "test-session", "user_message": "What is the weather?",
            "conversation_history": [], "is_first_turn": true, "model": "gpt-4",
            "platform": "cli"}"#,
        ..hermes(
            "pre_llm_call",
            &["pre-agent-turn"],
            C,
            BC,
            &[
                "session_id",
                "user_message",
                "is_first_turn",
                "model",
                "platform",
            ],
        )
    },
    EventDef {
        sample: r#"{"session_id": "test-session", "model": "gpt-4", "platform": "cli"}"#,
        ..hermes(
            "post_llm_call",
            &["post-agent-turn"],
            N,
            B,
            &["user_message", "assistant_response"],
        )
    },
    EventDef {
        sample: r#"{"session_id": "test-session", "platform": "cli", "model": "gpt-4",
            "coding": true, "attempt": 0,
            "final_response": "All done — the change is applied.",
            "changed_paths": ["src/app.tsx"]}"#,
        ..hermes(
            "pre_verify",
            &["pre-agent-turn-stop"],
            G,
            G,
            &["session_id", "assistant_response"],
        )
    },
    EventDef {
        sample: SESSION_SAMPLE,
        ..hermes(
            "on_session_start",
            &["pre-session"],
            N,
            B,
            &["session_id", "model", "platform"],
        )
    },
    EventDef {
        sample: r#"{"session_id": "test-session", "task_id": "test-task",
            "turn_id": "test-turn", "completed": true, "failed": false, "interrupted": false,
            "turn_exit_reason": "text_response(stop)", "model": "gpt-4", "platform": "cli"}"#,
        ..hermes(
            "on_session_end",
            &["post-session"],
            N,
            B,
            &["completed", "interrupted"],
        )
    },
    EventDef {
        sample: SESSION_SAMPLE,
        spec_fields: &[("task_description", "child_goal")],
        ..hermes(
            "subagent_start",
            &["pre-subagent"],
            N,
            B,
            &["parent_session_id", "child_role", "child_goal"],
        )
    },
    EventDef {
        sample: r#"{"parent_session_id": "parent-sess", "child_role": null,
            "child_summary": "Synthetic summary for hooks test", "child_status": "completed",
            "tool_call_history": [{"tool_name": "write_file", "tool_input": {
                "argument_keys": ["content", "path"], "targets": {"path": "notes/report.txt"}},
                "input_bytes": 128, "output_bytes": 32, "status": "ok"}],
            "duration_ms": 1234}"#,
        ..hermes(
            "subagent_stop",
            &["post-subagent"],
            N,
            B,
            &["child_status", "child_summary", "duration_ms"],
        )
    },
    observer("on_session_finalize", SESSION_FIELDS),
    observer("on_session_reset", SESSION_FIELDS),
    EventDef {
        sample: api_sample!(
            r#""message_count": 4, "tool_count": 12, "approx_input_tokens": 2048,
            "request_char_count": 8192, "max_tokens": 4096"#
        ),
        ..observer("pre_api_request", API_FIELDS)
    },
    EventDef {
        sample: api_sample!(
            r#""api_duration": 1.234, "started_at": 1756000000.0, "ended_at": 1756000001.234,
            "first_chunk_at": 1756000000.512, "finish_reason": "stop", "message_count": 4,
            "response_model": "claude-sonnet-4-6",
            "usage": {"input_tokens": 2048, "output_tokens": 512},
            "assistant_content_chars": 1200, "assistant_tool_call_count": 0,
            "moa_references": null"#
        ),
        ..observer("post_api_request", API_FIELDS)
    },
    observer("api_request_error", API_FIELDS),
    EventDef {
        sample: aux_sample!(
            r#""message_count": 2, "tool_count": 0, "approx_input_tokens": 256,
            "request_char_count": 1024, "max_tokens": 64"#
        ),
        ..observer("pre_auxiliary_call", AUX_FIELDS)
    },
    EventDef {
        sample: aux_sample!(
            r#""api_duration": 0.42, "started_at": 1756000000.0, "ended_at": 1756000000.42,
            "finish_reason": "stop", "response_model": "claude-haiku-4-5",
            "usage": {"input_tokens": 256, "output_tokens": 12},
            "assistant_content_chars": 40, "assistant_tool_call_count": 0,
            "error": null, "error_type": null"#
        ),
        ..observer("post_auxiliary_call", AUX_FIELDS)
    },
    observer("pre_approval_request", APPROVAL_FIELDS),
    observer("post_approval_response", APPROVAL_FIELDS),
    observer("agent_loop_stopped", &[]),
    observer("gateway_platform_event", &[]),
    observer("kanban_task_blocked", &[]),
    observer("kanban_task_claimed", &[]),
    observer("kanban_task_completed", &[]),
    observer("on_interim_message", &[]),
    observer("on_kanban_dispatch_tick", &[]),
    observer("on_kanban_task_updated", &[]),
    observer("on_kanban_worker_exited", &[]),
    observer("on_kanban_worker_spawned", &[]),
    observer("on_kanban_worker_stale_claim", &[]),
    observer("on_room_member_activity", &[]),
    observer("on_skill_lifecycle", &[]),
    observer("on_stream_delta", &[]),
    observer("on_stream_end", &[]),
    observer("on_stream_start", &[]),
    observer("pre_command", &[]),
    observer("pre_gateway_dispatch", &[]),
    observer("pre_transcription", &[]),
    EventDef {
        plugin_only: true,
        ..observer("transform_api_error_classification", &[])
    },
    EventDef {
        plugin_fired: true,
        sample: r#"{"text": "Your build passed.", "provider": "edge"}"#,
        ..hermes("pre_tts_synthesis", &[], BT, BT, &["text", "provider"])
    },
    observer("transform_llm_output", &[]),
    observer("transform_terminal_output", &[]),
    observer("transform_tool_result", &[]),
    agent_only(&["post-agent-turn-stop"]),
    agent_only(&["pre-context-compact"]),
    agent_only(&["post-context-compact"]),
];

/// Older Agent Hooks trigger names, accepted with a warning that names the current one.
pub(crate) static LEGACY_NAMES: &[(&str, &str)] = &[
    ("before_tool", "pre-tool-call"),
    ("after_tool", "post-tool-call"),
    ("after_tool_failure", "post-tool-call-failure"),
    ("before_agent", "pre-agent-turn"),
    ("after_agent", "post-agent-turn"),
    ("before_stop", "pre-agent-turn-stop"),
    ("after_stop", "post-agent-turn-stop"),
    ("before_session", "pre-session"),
    ("after_session", "post-session"),
    ("before_subagent", "pre-subagent"),
    ("after_subagent", "post-subagent"),
    ("before_compact", "pre-context-compact"),
    ("after_compact", "post-context-compact"),
];

/// Claude Code's hook event names, accepted wherever an event is named, each with the table name
/// it stands for (`PostToolUseFailure` is the failure alias, `PreCompact` an Agent Hooks event).
pub(crate) static CLAUDE_CODE_NAMES: &[(&str, &str)] = &[
    ("PreToolUse", "pre_tool_call"),
    ("PostToolUse", "post_tool_call"),
    ("PostToolUseFailure", "post-tool-call-failure"),
    ("UserPromptSubmit", "pre_llm_call"),
    ("Stop", "pre_verify"),
    ("SubagentStart", "subagent_start"),
    ("SubagentStop", "subagent_stop"),
    ("SessionStart", "on_session_start"),
    ("SessionEnd", "on_session_end"),
    ("PreCompact", "pre-context-compact"),
];

/// One event: an index into `EVENTS`; ordered as the table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Event(u8);

/// How a name given by the user resolved to an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The event the name stands for.
    pub event: Event,
    /// The name as it matched the table (canonical name or alias).
    pub name: &'static str,
    /// For a legacy name: the current name to use instead.
    pub legacy_for: Option<&'static str>,
    /// The name given was Claude Code's (`PreToolUse`, ...).
    pub claude_code: bool,
}

/// A name that is not an event, with the closest valid name when one is close enough.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEvent {
    /// The name as given.
    pub name: String,
    /// The closest valid name, if any is similar.
    pub suggestion: Option<&'static str>,
}

impl Resolved {
    /// Whether the event was called by its failure alias (the call failed).
    pub fn is_failure(&self) -> bool {
        self.event.failure_alias() == Some(self.name)
    }

    /// The event called by its failure alias, if it has one.
    pub fn failure(event: Event) -> Option<Self> {
        event.failure_alias().map(|name| Self {
            event,
            name,
            legacy_for: None,
            claude_code: false,
        })
    }

    /// The event called by its canonical name.
    pub fn plain(event: Event) -> Self {
        Self {
            event,
            name: event.name(),
            legacy_for: None,
            claude_code: false,
        }
    }

    /// The name a HOOK.md `trigger` would use: the Agent Hooks name as called (the failure alias
    /// included), else the event's own name.
    pub fn agent_name(&self) -> &'static str {
        if self.event.def().aliases.contains(&self.name) {
            self.name
        } else {
            self.event.agent_name().unwrap_or(self.name)
        }
    }
}

impl fmt::Display for UnknownEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown event '{}'", self.name)?;
        match self.suggestion {
            Some(name) => write!(f, " (did you mean '{name}'?)"),
            None => write!(f, " (`hermes-hooks events` lists the valid names)"),
        }
    }
}

impl std::error::Error for UnknownEvent {}

impl Event {
    /// `pre_tool_call`, the first row of the table.
    pub const PRE_TOOL_CALL: Self = Self(0);

    /// Every event, in table order.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..EVENTS.len()).map(|index| Self(u8::try_from(index).expect("the table is small")))
    }

    /// Its place in the table, as a memo keeps it (a memo is this binary's own, so the table
    /// it was written with is this one).
    pub(crate) const fn index(self) -> u8 {
        self.0
    }

    /// The event at `index` in the table, if there is one.
    pub(crate) fn at(index: u8) -> Option<Self> {
        (usize::from(index) < EVENTS.len()).then_some(Self(index))
    }

    /// This event's row.
    pub fn def(self) -> &'static EventDef {
        &EVENTS[usize::from(self.0)]
    }

    /// The canonical name (for Agent-Hooks-only events, their one name).
    pub fn name(self) -> &'static str {
        let def = self.def();
        match def.canonical {
            Some(name) => name,
            None => def.aliases[0],
        }
    }

    /// The Agent Hooks (kebab-case) name, if the format has this event.
    pub fn agent_name(self) -> Option<&'static str> {
        self.def().aliases.first().copied()
    }

    /// Claude Code's names for this event (`PostToolUseFailure` included for `post_tool_call`).
    pub fn claude_code_names(self) -> Vec<&'static str> {
        CLAUDE_CODE_NAMES
            .iter()
            .filter(|(_, table)| Self::find_exact(table).is_some_and(|r| r.event == self))
            .map(|(claude, _)| *claude)
            .collect()
    }

    /// Whether Hermes itself fires this event (it has a canonical name).
    pub fn is_hermes(self) -> bool {
        self.def().canonical.is_some()
    }

    /// Whether tool matchers apply (the tool-call events).
    pub fn is_tool_event(self) -> bool {
        self.def().tool
    }

    /// The name under which this event's Agent Hooks run only for a failed call, if it has one.
    pub fn failure_alias(self) -> Option<&'static str> {
        self.def().failure_alias
    }

    /// Whether this is the quality-gate event, where "keep working" answers are counted.
    pub fn is_gate(self) -> bool {
        self.def().config.contains(Effects::GATE) || self.def().agent_hooks.contains(Effects::GATE)
    }

    /// What a hook from `source` can do on this event.
    pub fn effects(self, source: SourceKind) -> Effects {
        match source {
            SourceKind::Config => self.def().config,
            SourceKind::AgentHooks | SourceKind::Rules => self.def().agent_hooks,
            SourceKind::Gateway | SourceKind::Plugin => Effects::NONE,
        }
    }

    /// Every name `parse` takes without a warning: canonical names and Agent Hooks aliases in table
    /// order, then Claude Code's names.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Self::all()
            .flat_map(|event| {
                let def = event.def();
                def.canonical.into_iter().chain(def.aliases.iter().copied())
            })
            .chain(CLAUDE_CODE_NAMES.iter().map(|(claude, _)| *claude))
    }

    /// Resolves a canonical name, an Agent Hooks alias, a Claude Code name or a legacy name.
    pub fn parse(name: &str) -> Result<Resolved, UnknownEvent> {
        if let Some(resolved) = Self::find_exact(name) {
            return Ok(resolved);
        }
        if let Some((_, table)) = CLAUDE_CODE_NAMES.iter().find(|(claude, _)| *claude == name) {
            let resolved = Self::find_exact(table).expect("Claude Code names map to table names");
            return Ok(Resolved {
                claude_code: true,
                ..resolved
            });
        }
        if let Some((_, current)) = LEGACY_NAMES.iter().find(|(legacy, _)| *legacy == name) {
            let resolved = Self::find_exact(current).expect("legacy names map to table names");
            return Ok(Resolved {
                legacy_for: Some(current),
                ..resolved
            });
        }
        Err(UnknownEvent {
            name: name.to_owned(),
            suggestion: Self::closest(name),
        })
    }

    fn find_exact(name: &str) -> Option<Resolved> {
        Self::all().find_map(|event| {
            let def = event.def();
            def.canonical
                .into_iter()
                .chain(def.aliases.iter().copied())
                .find(|known| *known == name)
                .map(|known| Resolved {
                    event,
                    name: known,
                    legacy_for: None,
                    claude_code: false,
                })
        })
    }

    /// Resolves an event key under `hooks:` in config.yaml as [`parse`](Self::parse) does,
    /// except that an unknown key's suggestion is always a canonical Hermes name: Hermes fires
    /// only those there.
    pub fn parse_config_key(name: &str) -> Result<Resolved, UnknownEvent> {
        Self::parse(name).map_err(|unknown| UnknownEvent {
            suggestion: Self::closest_hermes(name),
            ..unknown
        })
    }

    /// The canonical name of the Hermes event one of whose names (canonical, alias, Claude
    /// Code's, legacy) is most similar to `name` (case aside), when the similarity is at least
    /// 0.6.
    fn closest_hermes(name: &str) -> Option<&'static str> {
        let wanted = name.to_ascii_lowercase();
        Self::names()
            .chain(LEGACY_NAMES.iter().map(|(legacy, _)| *legacy))
            .filter_map(|known| {
                let canonical = Self::parse(known).ok()?.event.def().canonical?;
                let score =
                    strsim::normalized_damerau_levenshtein(&wanted, &known.to_ascii_lowercase());
                Some((score, canonical))
            })
            .filter(|(score, _)| *score >= 0.6)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, canonical)| canonical)
    }

    /// The valid name most similar to `name` (case aside), when the similarity is at least 0.6.
    fn closest(name: &str) -> Option<&'static str> {
        let wanted = name.to_ascii_lowercase();
        Self::names()
            .map(|known| {
                (
                    strsim::normalized_damerau_levenshtein(&wanted, &known.to_ascii_lowercase()),
                    known,
                )
            })
            .filter(|(score, _)| *score >= 0.6)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, known)| known)
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
