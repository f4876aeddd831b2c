//! The decision audit log: one JSON line per `run` or `serve` request (time, run id, event,
//! session, and for each hook its command, script sha256, status and directive), appended with a
//! single write so that lines of concurrent runs never interleave. The payload is left out unless
//! asked for.
//!
//! Unless a person chose otherwise, decisions go to `<hermes home>/hermes-hooks/audit.jsonl`
//! (the events where a hook applied; a log asked for by name gets every event), started anew
//! past [`ROTATE_AT`] with its older lines kept as `audit.jsonl.1`; `HERMES_HOOKS_AUDIT_LOG=off`
//! turns it off.

use std::fs::OpenOptions;
use std::io::{self, Write as _};
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;
use serde_json::Value;

use super::line::DirectiveKeys;
use crate::config::{Event, HookSpec};
use crate::engine::payload::{HermesWire, Invocation};
use crate::engine::runner::RunReport;

/// The log kept when none is named, in `<hermes home>/hermes-hooks/`.
pub(crate) const DEFAULT_NAME: &str = "audit.jsonl";
/// The size past which the default log starts anew (its older lines kept as `<log>.1`).
pub(crate) const ROTATE_AT: u64 = 8 * 1024 * 1024;
/// The value of `HERMES_HOOKS_AUDIT_LOG` (or `--audit-log`) that keeps no log.
pub(crate) const OFF: &str = "off";

/// Where decisions are recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Target {
    /// Nowhere: `HERMES_HOOKS_AUDIT_LOG=off`.
    Off,
    /// A log named with `--audit-log` or `HERMES_HOOKS_AUDIT_LOG`: every event, as asked.
    Named(PathBuf),
    /// The default log: the events where a hook applied, started anew past [`ROTATE_AT`].
    Default(PathBuf),
}

impl Target {
    /// The log `flag` (`--audit-log`) or `HERMES_HOOKS_AUDIT_LOG` names, else the default one
    /// of the Hermes home `home`.
    pub(crate) fn of(flag: Option<&Path>, home: &Path) -> Self {
        let named = flag
            .map(|path| path.as_os_str().to_os_string())
            .or_else(|| crate::ground::env::var_os(crate::ground::env::HERMES_HOOKS_AUDIT_LOG))
            .filter(|value| !value.is_empty());
        match named {
            Some(value) if value.eq_ignore_ascii_case(OFF) => Self::Off,
            Some(value) => Self::Named(PathBuf::from(value)),
            None => Self::Default(home.join("hermes-hooks").join(DEFAULT_NAME)),
        }
    }

    /// The log's path, unless it is off.
    pub(crate) fn path(&self) -> Option<&Path> {
        match self {
            Self::Off => None,
            Self::Named(path) | Self::Default(path) => Some(path),
        }
    }
}

/// Where the default log's older lines are kept once it starts anew.
pub(crate) fn older(log: &Path) -> PathBuf {
    let mut name = log.as_os_str().to_os_string();
    name.push(".1");
    PathBuf::from(name)
}

/// One line of the log.
#[derive(Serialize)]
pub(crate) struct AuditLine<'a> {
    /// When the run ended (UTC, RFC 3339).
    pub time: &'a str,
    /// Names this decision: unique per `run` call or `serve` request.
    pub run_id: &'a str,
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
    /// The command of a shell tool call (its head and tail when long) and its sha256, so the
    /// log says what was decided on; like the payload, never written into a log others can read.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub tool_command: Option<KeptCommand>,
    /// The project root whose hooks were loaded (`None`: none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
    /// What the project was found from (the agent's project directory, a directory, the flag).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub project_from: Option<String>,
    /// `run`'s exit code.
    pub exit: u8,
    /// The aggregated directive, as `run` printed it.
    pub directive: DirectiveKeys<'a>,
    /// What kept the runner from checking the call as the files say.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<super::line::ErrorEntry<'a>>,
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
    /// The line for `report`, whose hooks index `hooks`: each of them, or (`every_hook` false)
    /// those whose matcher did not pass over the call.
    pub(crate) fn new(
        stamp: &'a Stamp,
        event: Event,
        hooks: &'a [HookSpec],
        report: &'a RunReport,
        session: (&'a Value, &'a Value),
        exit: u8,
        every_hook: bool,
    ) -> Self {
        Self {
            time: &stamp.time,
            run_id: &stamp.run_id,
            event: event.name(),
            agent: None,
            session_id: session.0,
            tool_name: session.1,
            tool_command: None,
            project: None,
            project_from: None,
            exit,
            directive: DirectiveKeys::of(report.directive.as_ref()),
            errors: Vec::new(),
            hooks: report
                .hooks
                .iter()
                .filter(|r| every_hook || r.status != crate::engine::response::Status::NotMatched)
                .map(|r| {
                    let spec = &hooks[r.index];
                    AuditHook {
                        name: &spec.name,
                        source: spec.source.as_str(),
                        command: &spec.command,
                        sha256: r.sha256.as_deref(),
                        status: r.status.as_str(),
                        directive: DirectiveKeys::of(r.directive.as_deref()),
                        message: r.message.as_deref(),
                    }
                })
                .collect(),
            payload: None,
        }
    }
}

/// The characters of a long shell command kept from its start, and from its end: a harmful
/// tail cannot hide behind a harmless head (a command of at most both is kept whole).
pub(crate) const TOOL_COMMAND_HEAD: usize = 120;
pub(crate) const TOOL_COMMAND_TAIL: usize = 120;
/// What stands for the characters left out between the head and the tail.
pub(crate) const TOOL_COMMAND_GAP: &str = " … ";

/// A shell call's command as a line keeps it.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub(crate) struct KeptCommand {
    /// The command whole, or its head and tail around [`TOOL_COMMAND_GAP`].
    #[serde(rename = "tool_command")]
    pub text: String,
    /// The sha256 of the whole command (its UTF-8 bytes), cut or not.
    #[serde(rename = "tool_command_sha256")]
    pub sha256: String,
    /// The whole command's length in characters, only when it was cut.
    #[serde(rename = "tool_command_chars", skip_serializing_if = "Option::is_none")]
    pub chars: Option<usize>,
}

/// `command` as a line keeps it: whole up to [`TOOL_COMMAND_HEAD`] + [`TOOL_COMMAND_TAIL`]
/// characters, else the first and the last of those.
pub(crate) fn tool_command(command: &str) -> KeptCommand {
    use sha2::{Digest as _, Sha256};
    let sha256 = crate::ground::digest::hex(&Sha256::digest(command.as_bytes()));
    let chars = command.chars().count();
    let (kept, cut) = if chars <= TOOL_COMMAND_HEAD + TOOL_COMMAND_TAIL {
        (command.to_owned(), None)
    } else {
        let head = command
            .char_indices()
            .nth(TOOL_COMMAND_HEAD)
            .map_or(command.len(), |(at, _)| at);
        let tail = command
            .char_indices()
            .nth(chars - TOOL_COMMAND_TAIL)
            .map_or(command.len(), |(at, _)| at);
        (
            format!("{}{TOOL_COMMAND_GAP}{}", &command[..head], &command[tail..]),
            Some(chars),
        )
    };
    KeptCommand {
        text: kept,
        sha256,
        chars: cut,
    }
}

/// The command of a shell tool call, kept by [`tool_command`]; `None` for any other call.
pub(crate) fn shell_command(invocation: &Invocation) -> Option<KeptCommand> {
    if invocation.tool_class != Some("shell") {
        return None;
    }
    let command = invocation.tool_input.as_ref()?.get("command")?.as_str()?;
    Some(tool_command(command))
}

/// When a decision was taken and the id that names it.
pub(crate) struct Stamp {
    /// UTC, as [`crate::ground::clock::iso_utc`] writes it.
    pub time: String,
    /// [`run_id`] of the same instant.
    pub run_id: String,
}

impl Stamp {
    /// Now: one reading of the clock gives both.
    pub(crate) fn now() -> Self {
        let now = SystemTime::now();
        Self {
            time: crate::ground::clock::iso_utc(now),
            run_id: run_id(now),
        }
    }
}

/// The last millisecond an id of this process was made for.
static LAST_MILLIS: AtomicU64 = AtomicU64::new(0);

/// Bits of the process id in an id (Linux's `pid_max` is at most 2^22).
const PID_BITS: u32 = 22;
/// Bits of an id: 12 characters of 5 bits.
const ID_BITS: u32 = 60;
const ID_MASK: u64 = (1 << ID_BITS) - 1;

/// A 12-character id, unique per call in this process and across live processes: the
/// millisecond of `now` (made to grow strictly within the process, so a `serve` answering two
/// requests in one millisecond gives them two ids) and the process id, which no other live
/// process has. The millisecond wraps after about 8.7 years. The 60 bits are mixed by a
/// bijection, so ids of consecutive calls differ from their first character.
pub(crate) fn run_id(now: SystemTime) -> String {
    let clock = now
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let previous = LAST_MILLIS
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |last| {
            Some(clock.max(last.saturating_add(1)))
        })
        .unwrap_or(clock);
    let millis = clock.max(previous.saturating_add(1));
    let pid = u64::from(own_pid());
    let raw = ((millis << PID_BITS) | (pid & ((1 << PID_BITS) - 1))) & ID_MASK;
    encode(mix(raw))
}

/// This process's id, asked of the kernel once (the process never forks without exec).
fn own_pid() -> u32 {
    static PID: AtomicU32 = AtomicU32::new(0);
    match PID.load(Ordering::Relaxed) {
        0 => {
            let pid = rustix::process::getpid()
                .as_raw_nonzero()
                .get()
                .unsigned_abs();
            PID.store(pid, Ordering::Relaxed);
            pid
        }
        pid => pid,
    }
}

/// A bijection of 60-bit numbers that spreads every input bit over the whole output.
const fn mix(mut x: u64) -> u64 {
    x ^= x >> 29;
    x = x.wrapping_mul(0x0bf5_8476_d1ce_4e5b) & ID_MASK;
    x ^= x >> 31;
    x = x.wrapping_mul(0x094d_049b_b133_111b) & ID_MASK;
    x ^= x >> 30;
    x
}

/// `x`'s 60 bits as 12 characters of `0-9a-v`.
fn encode(x: u64) -> String {
    const DIGITS: &[u8; 32] = b"0123456789abcdefghijklmnopqrstuv";
    (0..ID_BITS / 5)
        .rev()
        .map(|i| char::from(DIGITS[usize::try_from((x >> (i * 5)) & 31).unwrap_or(0)]))
        .collect()
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

/// One line of the log made ready to append: its bytes (newline included), and the same line
/// without the payload and the tool call's command, for a log that others can read.
pub(crate) struct Ready {
    whole: Vec<u8>,
    /// `None` when the line has neither.
    bare: Option<Vec<u8>>,
    with_payload: bool,
}

impl Ready {
    /// `line` made into bytes: once whole, and once without what others may not read.
    pub(crate) fn of(line: &mut AuditLine<'_>) -> serde_json::Result<Self> {
        let to_bytes = |line: &AuditLine<'_>| -> serde_json::Result<Vec<u8>> {
            let mut bytes = serde_json::to_vec(line)?;
            bytes.push(b'\n');
            Ok(bytes)
        };
        let whole = to_bytes(line)?;
        let with_payload = line.payload.is_some();
        let bare = if with_payload || line.tool_command.is_some() {
            line.payload = None;
            line.tool_command = None;
            Some(to_bytes(line)?)
        } else {
            None
        };
        Ok(Self {
            whole,
            bare,
            with_payload,
        })
    }
}

/// Appends `line` to the log at `path` with one `write`: on a local file system, appends of
/// concurrent runs land whole, one after the other. The log is created mode 0600; a symlink in
/// its place, or anything but a regular file, is refused; a payload or a command is never
/// written into a log that group or others can read (the line goes in without them). With
/// `rotate` (the default log), its folder is made (mode 0700) when missing, and a log past
/// [`ROTATE_AT`] is renamed to [`older`] first, under a lock, so that two runs never both start
/// it anew. A process that answers many calls keeps the log open between them, while its path
/// still names that regular file.
pub(crate) fn append(path: &Path, line: &Ready, rotate: bool) -> io::Result<Appended> {
    let open = || {
        let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .custom_flags(i32::try_from(flags.bits()).unwrap_or(0))
            .open(path)
    };
    let (mut file, mut meta) = if let Some(kept) = still_open(path) {
        kept
    } else {
        let file = match open() {
            Err(err) if rotate && err.kind() == io::ErrorKind::NotFound => {
                let folder = path.parent().unwrap_or(Path::new("."));
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o700)
                    .create(folder)?;
                open()?
            }
            opened => opened?,
        };
        let meta = file.metadata()?;
        (file, meta)
    };
    if rotate && meta.is_file() && meta.len() >= ROTATE_AT {
        start_anew(path, &meta)?;
        file = open()?;
        meta = file.metadata()?;
    }
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let (bytes, appended) = match &line.bare {
        Some(bare) if meta.permissions().mode() & 0o077 != 0 => (
            bare,
            if line.with_payload {
                Appended::WithoutPayload
            } else {
                Appended::Whole
            },
        ),
        _ => (&line.whole, Appended::Whole),
    };
    let written = file.write(bytes)?;
    keep_open(path, file, &meta);
    if written == bytes.len() {
        Ok(appended)
    } else {
        Err(io::Error::new(
            io::ErrorKind::WriteZero,
            format!("only {written} of {} bytes were appended", bytes.len()),
        ))
    }
}

/// The log a process that answers many calls keeps open between them, with its device and
/// inode: written again only while its path still names that very file.
static KEPT: std::sync::Mutex<Option<KeptLog>> = std::sync::Mutex::new(None);

/// A log kept open: its path, the file, and its device and inode.
type KeptLog = (PathBuf, std::fs::File, (u64, u64));

/// The log kept open at `path`, with what it is now, when the path still names that regular
/// file (one look, where opening it again costs more); else `None`, and it is closed.
fn still_open(path: &Path) -> Option<(std::fs::File, std::fs::Metadata)> {
    use std::os::unix::fs::MetadataExt as _;
    let (kept_path, file, id) = KEPT.lock().ok()?.take()?;
    if kept_path != path {
        return None;
    }
    let meta = std::fs::symlink_metadata(path).ok()?;
    (meta.is_file() && (meta.dev(), meta.ino()) == id).then_some((file, meta))
}

/// Keeps `file`, the log at `path` that `meta` describes, open for the next call.
fn keep_open(path: &Path, file: std::fs::File, meta: &std::fs::Metadata) {
    use std::os::unix::fs::MetadataExt as _;
    if let Ok(mut kept) = KEPT.lock() {
        *kept = Some((path.to_path_buf(), file, (meta.dev(), meta.ino())));
    }
}

/// Renames the log at `path` (the file `meta` describes) to [`older`], unless another run did
/// so first.
fn start_anew(path: &Path, meta: &std::fs::Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt as _;
    let renamed = crate::ground::statefile::locked(
        crate::ground::statefile::FileKind::AuditLog,
        path,
        || {
            let now = std::fs::symlink_metadata(path);
            if now.is_ok_and(|now| now.ino() == meta.ino() && now.dev() == meta.dev()) {
                std::fs::rename(path, older(path)).map_err(|error| {
                    crate::ground::statefile::StateError::Io {
                        kind: crate::ground::statefile::FileKind::AuditLog,
                        action: "cannot start anew",
                        path: path.to_path_buf(),
                        error,
                    }
                })?;
            }
            Ok(())
        },
    );
    renamed.map_err(io::Error::other)
}

/// One line of the log as read back by `log`: the fields [`AuditLine`] writes; anything missing
/// (a line from an older version) is empty.
#[derive(serde::Deserialize, Debug, Default)]
#[serde(default)]
pub(crate) struct Logged {
    pub time: String,
    /// A string on lines of this version; anything else is shown as no id.
    pub run_id: Value,
    pub event: String,
    pub agent: Value,
    pub session_id: Value,
    pub tool_name: Value,
    pub tool_command: Value,
    pub tool_command_sha256: Value,
    pub tool_command_chars: Value,
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

#[cfg(test)]
mod tests {
    use super::{TOOL_COMMAND_GAP, tool_command};

    #[test]
    fn a_long_command_keeps_its_head_and_its_tail_and_the_whole_ones_digest() {
        let short = "é".repeat(240);
        let kept = tool_command(&short);
        assert_eq!(kept.text, short);
        assert_eq!(kept.chars, None);
        let long = format!("{}{}{}", "a".repeat(120), "é".repeat(500), "z".repeat(119));
        let kept = tool_command(&long);
        let expected = format!("{}{TOOL_COMMAND_GAP}é{}", "a".repeat(120), "z".repeat(119));
        assert_eq!(kept.text, expected);
        assert_eq!(kept.chars, Some(739));
        assert_eq!(
            tool_command("").sha256,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
