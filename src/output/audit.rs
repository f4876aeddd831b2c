//! The decision audit log: one JSON line per `run` (time, event, session, and for each hook its
//! command, script sha256, status and directive), appended with a single write so that lines of
//! concurrent runs never interleave. The payload is left out unless asked for.

use std::fs::OpenOptions;
use std::io::{self, Write as _};
use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
use std::path::Path;

use serde::Serialize;
use serde_json::Value;

use super::json::DirectiveKeys;
use crate::config::{Event, HookSpec};
use crate::payload::HermesWire;
use crate::runner::RunReport;

/// One line of the log.
#[derive(Serialize)]
pub(crate) struct AuditLine<'a> {
    /// When the run ended (UTC, RFC 3339).
    pub time: &'a str,
    /// Canonical event name.
    pub event: &'a str,
    /// The agent that called, when it was not Hermes (`run --agent`); `exit` and `directive`
    /// are still the decision in the Hermes form.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent: Option<&'static str>,
    /// The payload's session id (`""` when it has none).
    pub session_id: &'a Value,
    /// The tool, on tool events.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub tool_name: &'a Value,
    /// `run`'s exit code.
    pub exit: u8,
    /// The aggregated directive, as `run` printed it.
    pub directive: DirectiveKeys<'a>,
    /// What kept the runner from checking the call as the files say.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<super::json::ErrorEntry<'a>>,
    /// Every hook declared for the event, in order.
    pub hooks: Vec<AuditHook<'a>>,
    /// The payload as the hooks received it (Hermes wire form), only when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<HermesWire<'a>>,
}

/// One hook's decision.
#[derive(Serialize)]
pub(crate) struct AuditHook<'a> {
    /// Its short name.
    pub name: &'a str,
    /// `config` or `agent-hooks`.
    pub source: &'static str,
    /// The command as declared.
    pub command: &'a str,
    /// The sha256 of its script when consent read it (null: not checked, or unreadable).
    pub sha256: Option<&'a str>,
    /// Its status, as in `run`'s output.
    pub status: &'static str,
    /// What it asked for.
    pub directive: DirectiveKeys<'a>,
    /// Its warning or error, or the block message (as in `run`'s output).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'a str>,
}

impl<'a> AuditLine<'a> {
    /// The line for `report`, whose hooks index `hooks`.
    pub(crate) fn new(
        time: &'a str,
        event: Event,
        hooks: &'a [HookSpec],
        report: &'a RunReport,
        session: (&'a Value, &'a Value),
        exit: u8,
    ) -> Self {
        Self {
            time,
            event: event.name(),
            agent: None,
            session_id: session.0,
            tool_name: session.1,
            exit,
            directive: DirectiveKeys::of(report.directive.as_ref()),
            errors: Vec::new(),
            hooks: report
                .hooks
                .iter()
                .map(|r| {
                    let spec = &hooks[r.index];
                    AuditHook {
                        name: &spec.name,
                        source: spec.source.as_str(),
                        command: &spec.command,
                        sha256: r.sha256.as_deref(),
                        status: r.status.as_str(),
                        directive: DirectiveKeys::of(r.directive.as_ref()),
                        message: r.message.as_deref(),
                    }
                })
                .collect(),
            payload: None,
        }
    }
}

/// How a line went into the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Appended {
    /// The whole line, payload included when one was asked for.
    Whole,
    /// Without its payload: the log can be read by others than its owner, and a payload may
    /// carry secrets (prompts, tool arguments, keys).
    WithoutPayload,
}

/// Appends `line` to the log at `path` with one `write`: on a local file system, appends of
/// concurrent runs land whole, one after the other. The log is created mode 0600; a symlink in
/// its place, or anything but a regular file, is refused; a payload is never written into a log
/// that group or others can read (the line goes in without it).
pub(crate) fn append(path: &Path, line: &mut AuditLine<'_>) -> io::Result<Appended> {
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .custom_flags(i32::try_from(flags.bits()).unwrap_or(0))
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut appended = Appended::Whole;
    if line.payload.is_some() && meta.permissions().mode() & 0o077 != 0 {
        line.payload = None;
        appended = Appended::WithoutPayload;
    }
    let mut bytes = serde_json::to_vec(&*line).map_err(io::Error::other)?;
    bytes.push(b'\n');
    let written = file.write(&bytes)?;
    if written == bytes.len() {
        Ok(appended)
    } else {
        Err(io::Error::new(
            io::ErrorKind::WriteZero,
            format!("only {written} of {} bytes were appended", bytes.len()),
        ))
    }
}

/// One line of the log as read back by `log`: the fields [`AuditLine`] writes; anything missing
/// (a line from an older version) is empty.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(default)]
pub(crate) struct Logged {
    pub time: String,
    pub event: String,
    pub session_id: Value,
    pub tool_name: Value,
    pub exit: Option<u8>,
    pub directive: Value,
    pub hooks: Vec<LoggedHook>,
}

/// One hook of a [`Logged`] line.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(default)]
pub(crate) struct LoggedHook {
    pub name: String,
    pub source: String,
    pub command: String,
    pub sha256: Option<String>,
    pub status: String,
    pub directive: Value,
    pub message: Option<String>,
}
