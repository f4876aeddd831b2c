//! `log`: the recent decisions from the audit log `run` appends to (`--audit-log`,
//! `HERMES_HOOKS_AUDIT_LOG`), one row per hook that applied: time, event, session, hook, status,
//! directive and message; filtered by event, session, status or `--blocked`. It answers "which
//! hook blocked my tool call, and why".

use std::collections::VecDeque;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use clap::Args;
use clap::builder::PossibleValuesParser;
use serde::Serialize;
use serde_json::Value;

use super::{GlobalArgs, shared};
use crate::config::Event;
use crate::env;
use crate::exit::ExitStatus;
use crate::output::audit::{Logged, LoggedHook};
use crate::output::table::{Grid, Tone};
use crate::output::{Printer, Screen};
use crate::response::Status;

#[derive(Args, Debug)]
#[command(
    after_help = "Rows are hooks that applied to a run, oldest first (hooks whose matcher \
    passed over the call are left out unless --status not_matched asks for them). `run` writes \
    the log only when given --audit-log FILE or HERMES_HOOKS_AUDIT_LOG=FILE."
)]
pub(crate) struct LogArgs {
    /// The audit log to read [env: HERMES_HOOKS_AUDIT_LOG]
    #[arg(long, value_name = "FILE")]
    audit_log: Option<PathBuf>,
    /// Only runs of this event (any of its names)
    #[arg(
        long,
        value_name = "EVENT",
        value_parser = super::completions::EventName,
        hide_possible_values = true
    )]
    event: Option<String>,
    /// Only runs of this session id
    #[arg(long, value_name = "ID")]
    session: Option<String>,
    /// Only hooks that blocked (or, on pre_verify, asked to keep working)
    #[arg(long)]
    blocked: bool,
    /// Only hooks with this status (ok, blocked, unapproved, changed, failed, timed_out, ...)
    #[arg(
        long,
        value_name = "STATUS",
        value_parser = PossibleValuesParser::new(Status::ALL.map(Status::as_str)),
        hide_possible_values = true
    )]
    status: Option<String>,
    /// Show the last N rows; 0 shows all
    #[arg(short = 'n', long, value_name = "N", default_value_t = 20)]
    limit: usize,
    /// Print one JSON document ({"schema_version", "log", "rows": [...]})
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pager: super::pager::PagerArgs,
}

/// One row: a hook's decision in one run.
#[derive(Serialize, Debug)]
struct Row {
    time: String,
    event: String,
    session_id: Value,
    #[serde(skip_serializing_if = "Value::is_null")]
    tool_name: Value,
    /// `run`'s exit code for the whole call.
    exit: Option<u8>,
    hook: String,
    source: String,
    command: String,
    sha256: Option<String>,
    status: String,
    /// The hook's own directive (`block`, `modify`, `context`, `continue`), if any.
    directive: Option<String>,
    /// The directive's message, else the hook's warning or error.
    message: Option<String>,
}

/// `log --json`.
#[derive(Serialize)]
struct Document<'a> {
    log: &'a Path,
    rows: &'a VecDeque<Row>,
    /// Lines that are not audit entries (torn writes, other content), skipped.
    skipped_lines: usize,
}

pub(crate) fn run(global: &GlobalArgs, args: &LogArgs, printer: &Printer) -> Result<ExitStatus> {
    let Some(path) = args
        .audit_log
        .clone()
        .or_else(|| env::var_os(env::HERMES_HOOKS_AUDIT_LOG).map(PathBuf::from))
    else {
        bail!(
            "no audit log is configured, so there are no decisions to show. Turn it on where \
             your agent calls `hermes-hooks run`: set {var}=FILE in its environment (or pass \
             --audit-log FILE); then `hermes-hooks log` reads the same {var} or --audit-log",
            var = env::HERMES_HOOKS_AUDIT_LOG
        );
    };
    let event = shared::optional_event(args.event.as_deref(), printer)?;
    let filter = Filter {
        event: event.map(Event::name),
        session: args.session.as_deref(),
        blocked: args.blocked,
        status: args.status.as_deref(),
    };
    let (rows, skipped) = if path.exists() {
        read(&path, &filter, args.limit)?
    } else {
        printer.note(format!(
            "{} does not exist yet: `run` creates it on its first call with the log turned on",
            path.display()
        ));
        (VecDeque::new(), Vec::new())
    };
    if !skipped.is_empty() {
        let first: Vec<String> = skipped.iter().take(5).map(ToString::to_string).collect();
        printer.warn(format!(
            "{}: {} line(s) are not audit entries and were skipped (line {}{})",
            path.display(),
            skipped.len(),
            first.join(", "),
            if skipped.len() > first.len() {
                ", ..."
            } else {
                ""
            }
        ));
    }
    if args.json {
        printer.document(&Document {
            log: &path,
            rows: &rows,
            skipped_lines: skipped.len(),
        })?;
        return Ok(ExitStatus::Success);
    }
    if rows.is_empty() {
        printer.note(format!("no decisions in {} match", path.display()));
        return Ok(ExitStatus::Success);
    }
    super::pager::show_stdout(args.pager, printer, &table(&rows, shared::color(global)))?;
    Ok(ExitStatus::Success)
}

/// Which rows to keep.
struct Filter<'a> {
    event: Option<&'static str>,
    session: Option<&'a str>,
    blocked: bool,
    status: Option<&'a str>,
}

impl Filter<'_> {
    fn keeps_run(&self, line: &Logged) -> bool {
        self.event.is_none_or(|event| line.event == event)
            && self
                .session
                .is_none_or(|session| line.session_id.as_str() == Some(session))
    }

    fn keeps_hook(&self, hook: &LoggedHook) -> bool {
        if self.blocked && !matches!(action(&hook.directive), Some("block" | "continue")) {
            return false;
        }
        match self.status {
            Some(status) => hook.status == status,
            None => hook.status != Status::NotMatched.as_str(),
        }
    }
}

/// Reads the log line by line, keeping the last `limit` matching rows (all when 0); returns them
/// with the numbers of the lines that were not audit entries.
fn read(path: &Path, filter: &Filter<'_>, limit: usize) -> Result<(VecDeque<Row>, Vec<usize>)> {
    let file = crate::limits::open_regular(path)
        .with_context(|| format!("cannot read the audit log {}", path.display()))?;
    let mut rows = VecDeque::new();
    let mut skipped = Vec::new();
    let mut reader = BufReader::new(file);
    let mut bytes = Vec::new();
    let mut number = 0;
    loop {
        bytes.clear();
        let read = reader
            .read_until(b'\n', &mut bytes)
            .with_context(|| format!("cannot read the audit log {}", path.display()))?;
        if read == 0 {
            break;
        }
        number += 1;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let Ok(line) = serde_json::from_slice::<Logged>(&bytes) else {
            skipped.push(number);
            continue;
        };
        if line.event.is_empty() {
            skipped.push(number);
            continue;
        }
        if !filter.keeps_run(&line) {
            continue;
        }
        for hook in &line.hooks {
            if !filter.keeps_hook(hook) {
                continue;
            }
            rows.push_back(row(&line, hook));
            if limit > 0 && rows.len() > limit {
                rows.pop_front();
            }
        }
    }
    Ok((rows, skipped))
}

/// The `action` of a directive object (`context` has none: it is named by its key).
fn action(directive: &Value) -> Option<&str> {
    directive
        .get("action")
        .and_then(Value::as_str)
        .or_else(|| directive.get("context").is_some().then_some("context"))
}

fn row(line: &Logged, hook: &LoggedHook) -> Row {
    let said = hook
        .directive
        .get("message")
        .or_else(|| hook.directive.get("context"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Row {
        time: line.time.clone(),
        event: line.event.clone(),
        session_id: line.session_id.clone(),
        tool_name: line.tool_name.clone(),
        exit: line.exit,
        hook: hook.name.clone(),
        source: hook.source.clone(),
        command: hook.command.clone(),
        sha256: hook.sha256.clone(),
        status: hook.status.clone(),
        directive: action(&hook.directive).map(str::to_owned),
        message: said.or_else(|| hook.message.clone()),
    }
}

/// `2026-11-24T09:00:32.090227Z` as `2026-11-24 09:00:32`.
fn short_time(time: &str) -> String {
    let whole = time.split('.').next().unwrap_or(time).trim_end_matches('Z');
    whole.replacen('T', " ", 1)
}

fn table(rows: &VecDeque<Row>, color: bool) -> Screen {
    let mut grid = Grid::new(
        &[
            "TIME (UTC)",
            "EVENT",
            "SESSION",
            "HOOK",
            "STATUS",
            "DIRECTIVE",
            "MESSAGE",
        ],
        color,
    )
    .breakable(&[6]);
    for row in rows {
        let session = match &row.session_id {
            Value::String(text) if !text.is_empty() => text.clone(),
            Value::String(_) | Value::Null => "-".to_owned(),
            other => other.to_string(),
        };
        let tone = match row.status.as_str() {
            "blocked" | "gated" => Tone::Notice,
            "failed" | "timed_out" | "spawn_failed" | "invalid_output" | "changed"
            | "unapproved" => Tone::Bad,
            _ => Tone::Plain,
        };
        grid.row(&[
            (&short_time(&row.time), Tone::Plain),
            (&row.event, Tone::Plain),
            (&session, Tone::Plain),
            (&row.hook, Tone::Plain),
            (&row.status, tone),
            (row.directive.as_deref().unwrap_or("-"), Tone::Plain),
            (row.message.as_deref().unwrap_or(""), Tone::Plain),
        ]);
    }
    let mut screen = Screen::new(color);
    screen.table(grid);
    screen
}
