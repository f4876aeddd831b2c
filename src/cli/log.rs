//! `log`: the recent decisions from the audit log `run` appends to (`--audit-log`,
//! `HERMES_HOOKS_AUDIT_LOG`), one row per hook that applied, the hooks of one decision together
//! under its run id, time, event, session, outcome and tool; filtered by event, session, status,
//! `--blocked` or `--run ID`. It answers "which hook blocked my tool call, and why". The log is
//! read from its end for the last rows, and streamed for all of them: memory stays bounded
//! whatever its size.

mod lines;
mod show;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;
use clap::builder::PossibleValuesParser;
use serde::Serialize;
use serde_json::Value;

use super::{GlobalArgs, shared};
use crate::config::Event;
use crate::engine::response::Status;
use crate::ground::env;
use crate::ground::exit::ExitStatus;
use crate::output::Printer;
use crate::report::audit::{self, Logged, LoggedHook};

#[derive(Args, Debug)]
#[command(
    after_help = "Rows are hooks that applied to a run, oldest first, grouped under the \
    decision they belong to (its time, run id, event, session, outcome and tool). Hooks that \
    did not run, or whose matcher passed over the call, are left out unless --all or --status \
    asks for them. Unless told otherwise, `run` and `serve` record the events a hook applies to \
    in <hermes home>/hermes-hooks/audit.jsonl (no payloads, mode 0600; past 8 MiB it starts anew \
    and its older lines are kept as audit.jsonl.1), which is what `log` reads; --audit-log FILE \
    or HERMES_HOOKS_AUDIT_LOG=FILE names another log (every event), HERMES_HOOKS_AUDIT_LOG=off \
    keeps none."
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
    /// Only hooks that blocked, asked a person, or (on pre_verify) asked to keep working
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
    /// Show one decision whole: every hook of the run with this id (a prefix that names one)
    #[arg(long, value_name = "ID")]
    run: Option<String>,
    /// Also show hooks that did not run, or whose matcher passed over the call
    #[arg(long)]
    all: bool,
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
    /// The id of the decision; null on lines of older versions.
    run_id: Option<String>,
    event: String,
    /// The agent that called, when it was not Hermes.
    #[serde(skip_serializing_if = "Option::is_none")]
    agent: Option<String>,
    session_id: Value,
    #[serde(skip_serializing_if = "Value::is_null")]
    tool_name: Value,
    /// The command of a shell tool call, as the log keeps it (a long one: its head and tail).
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_command: Option<String>,
    /// The sha256 of the whole command.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_command_sha256: Option<String>,
    /// The whole command's length in characters, when the log kept only its head and tail.
    #[serde(skip_serializing_if = "Option::is_none")]
    tool_command_chars: Option<u64>,
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
    /// The action of the whole call's directive.
    #[serde(skip)]
    outcome: Option<String>,
    /// Which line of the log the row comes from (rows of one line are one decision).
    #[serde(skip)]
    group: u64,
}

/// Lines that are not audit entries (torn writes, other content, lines too long to read).
#[derive(Default)]
struct Skipped {
    count: usize,
    /// The first few, as line numbers once known.
    first: Vec<usize>,
    /// Their offsets, while reading from the end (ascending).
    offsets: Vec<u64>,
}

/// How many skipped lines the warning names.
const SKIPPED_NAMED: usize = 5;

impl Skipped {
    fn at_line(&mut self, number: usize) {
        self.count += 1;
        if self.first.len() < SKIPPED_NAMED {
            self.first.push(number);
        }
    }

    /// A line found reading backward: the earliest few are kept.
    fn at_offset(&mut self, offset: u64) {
        self.count += 1;
        self.offsets.insert(0, offset);
        self.offsets.truncate(SKIPPED_NAMED);
    }
}

pub(crate) fn run(global: &GlobalArgs, args: &LogArgs, printer: &Printer) -> Result<ExitStatus> {
    let home = global.paths()?.home;
    let target = audit::Target::of(args.audit_log.as_deref(), &home);
    let Some(path) = target.path().map(Path::to_path_buf) else {
        bail!(
            "the audit log is off ({var}={off}), so no decisions are recorded: unset {var} where \
             your agent calls `hermes-hooks run` to record them in {default}",
            var = env::HERMES_HOOKS_AUDIT_LOG,
            off = audit::OFF,
            default = home
                .join("hermes-hooks")
                .join(audit::DEFAULT_NAME)
                .display()
        );
    };
    let event = shared::optional_event(args.event.as_deref(), printer)?;
    let mut filter = Filter {
        event: event.map(Event::name),
        session: args.session.as_deref(),
        blocked: args.blocked,
        status: args.status.as_deref(),
        all: args.all || args.run.is_some(),
        run: None,
    };
    let log = Log(&path);
    let exists = path.exists();
    // What can fail before any output does: a document is never left half written by them.
    if exists {
        log.open()?;
        if let Some(prefix) = &args.run {
            filter.run = Some(resolve(&log, prefix, &filter)?);
        }
    }
    let mut sink = if args.json {
        Sink::Json(show::Json::new(printer.stream(), &path)?)
    } else {
        let out = super::pager::Out::new(args.pager);
        Sink::Human(show::Human::new(
            printer.stream_to(Box::new(out)),
            shared::color(global),
        ))
    };
    let skipped = if exists {
        if filter.run.is_some() || args.limit == 0 {
            forward(&log, &filter, &mut sink)?
        } else {
            let mut skipped = Skipped::default();
            let rows = backward(&log, &filter, args.limit, &mut skipped)?;
            if !skipped.offsets.is_empty() {
                skipped.first =
                    lines::numbers(log.open()?, &skipped.offsets).map_err(log.error())?;
            }
            for row in rows {
                sink.row(row)?;
            }
            skipped
        }
    } else {
        printer.note(format!(
            "no decisions recorded yet: `run` creates {} at the first event a hook applies to",
            path.display()
        ));
        Skipped::default()
    };
    let shown = sink.finish(skipped.count)?;
    warn_skipped(&path, &skipped, printer);
    let older = audit::older(&path);
    if matches!(target, audit::Target::Default(_))
        && older.exists()
        && !args.json
        && (!shown || args.limit == 0)
    {
        printer.note(format!(
            "older decisions are in {} (`hermes-hooks log --audit-log {}`)",
            older.display(),
            older.display()
        ));
    }
    if !shown && !args.json {
        printer.note(format!("no decisions in {} match", path.display()));
    }
    Ok(ExitStatus::Success)
}

fn warn_skipped(path: &Path, skipped: &Skipped, printer: &Printer) {
    if skipped.count == 0 {
        return;
    }
    let first: Vec<String> = skipped.first.iter().map(ToString::to_string).collect();
    printer.warn(format!(
        "{}: {} line(s) are not audit entries and were skipped (line {}{})",
        path.display(),
        skipped.count,
        first.join(", "),
        if skipped.count > first.len() {
            ", ..."
        } else {
            ""
        }
    ));
}

/// The audit log being read.
struct Log<'a>(&'a Path);

impl Log<'_> {
    fn open(&self) -> Result<std::fs::File> {
        crate::ground::limits::open_regular(self.0).map_err(self.error())
    }

    /// What a failure to read it says.
    fn error(&self) -> impl Fn(std::io::Error) -> anyhow::Error + '_ {
        |err| {
            anyhow::Error::new(err)
                .context(format!("cannot read the audit log {}", self.0.display()))
        }
    }
}

/// Where rows go: a JSON document or the table, written as they come.
enum Sink {
    Json(show::Json),
    Human(show::Human),
}

impl Sink {
    fn row(&mut self, row: Row) -> Result<()> {
        match self {
            Self::Json(json) => json.row(&row)?,
            Self::Human(human) => human.row(row)?,
        }
        Ok(())
    }

    /// Ends the output; says whether any row was shown.
    fn finish(self, skipped: usize) -> Result<bool> {
        Ok(match self {
            Self::Json(json) => json.finish(skipped)?,
            Self::Human(human) => human.finish()?,
        })
    }
}

/// Which rows to keep.
struct Filter<'a> {
    event: Option<&'static str>,
    session: Option<&'a str>,
    blocked: bool,
    status: Option<&'a str>,
    /// Hooks that did not run or did not match too.
    all: bool,
    /// Only the decision with this id.
    run: Option<String>,
}

impl Filter<'_> {
    fn keeps_run(&self, line: &Logged) -> bool {
        self.event.is_none_or(|event| line.event == event)
            && self
                .session
                .is_none_or(|session| line.session_id.as_str() == Some(session))
            && self
                .run
                .as_deref()
                .is_none_or(|id| line.run_id.as_str() == Some(id))
    }

    fn keeps_hook(&self, hook: &LoggedHook) -> bool {
        if self.blocked && !matches!(action(&hook.directive), Some("block" | "ask" | "continue")) {
            return false;
        }
        match self.status {
            Some(status) => hook.status == status,
            None => {
                self.all
                    || (hook.status != Status::NotMatched.as_str()
                        && hook.status != Status::NotRun.as_str())
            }
        }
    }
}

/// What one line of the log is.
enum Parsed {
    Blank,
    Entry(Box<Logged>),
    NotEntry,
}

fn parse(line: lines::Line<'_>) -> Parsed {
    let lines::Line::Text(bytes) = line else {
        return Parsed::NotEntry;
    };
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Parsed::Blank;
    }
    match serde_json::from_slice::<Logged>(bytes) {
        Ok(logged) if !logged.event.is_empty() => Parsed::Entry(Box::new(logged)),
        _ => Parsed::NotEntry,
    }
}

/// Streams every kept row of the log to `sink`, from the start.
fn forward(log: &Log<'_>, filter: &Filter<'_>, sink: &mut Sink) -> Result<Skipped> {
    let mut reader = lines::Forward::new(log.open()?);
    let mut skipped = Skipped::default();
    while let Some(line) = reader.next_line().map_err(log.error())? {
        match parse(line) {
            Parsed::NotEntry => skipped.at_line(reader.number),
            Parsed::Entry(logged) if filter.keeps_run(&logged) => {
                for row in rows(&logged, filter, reader.number as u64) {
                    sink.row(row)?;
                }
            }
            Parsed::Blank | Parsed::Entry(_) => {}
        }
    }
    Ok(skipped)
}

/// The last `limit` kept rows, read from the end of the log (as far back as it takes).
fn backward(
    log: &Log<'_>,
    filter: &Filter<'_>,
    limit: usize,
    skipped: &mut Skipped,
) -> Result<VecDeque<Row>> {
    let mut reader = lines::Backward::new(log.open()?).map_err(log.error())?;
    let mut kept = VecDeque::new();
    while kept.len() < limit {
        let Some((offset, line)) = reader.next_line().map_err(log.error())? else {
            break;
        };
        match parse(line) {
            Parsed::NotEntry => skipped.at_offset(offset),
            Parsed::Entry(logged) if filter.keeps_run(&logged) => {
                for row in rows(&logged, filter, offset).rev() {
                    if kept.len() == limit {
                        break;
                    }
                    kept.push_front(row);
                }
            }
            Parsed::Blank | Parsed::Entry(_) => {}
        }
    }
    Ok(kept)
}

/// The one run id `prefix` starts (among decisions `filter` keeps), or an error naming why not.
fn resolve(log: &Log<'_>, prefix: &str, filter: &Filter<'_>) -> Result<String> {
    let mut reader = lines::Forward::new(log.open()?);
    let mut found: Vec<String> = Vec::new();
    while let Some(line) = reader.next_line().map_err(log.error())? {
        let Parsed::Entry(logged) = parse(line) else {
            continue;
        };
        let Some(id) = logged.run_id.as_str() else {
            continue;
        };
        if id.starts_with(prefix)
            && filter.keeps_run(&logged)
            && !found.iter().any(|known| known == id)
            && found.len() <= SKIPPED_NAMED
        {
            found.push(id.to_owned());
        }
    }
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(anyhow::anyhow!(
            "no decision in the log has a run id starting with {prefix:?}"
        )),
        many => Err(anyhow::anyhow!(
            "{} decisions have a run id starting with {prefix:?} ({}{}); give more of it",
            if many.len() > SKIPPED_NAMED {
                "more than 5".to_owned()
            } else {
                many.len().to_string()
            },
            many.iter()
                .take(SKIPPED_NAMED)
                .cloned()
                .collect::<Vec<_>>()
                .join(", "),
            if many.len() > SKIPPED_NAMED {
                ", ..."
            } else {
                ""
            }
        )),
    }
}

/// The action of a directive object (`context` has none: it is named by its key).
/// What a decision came to, in the words `test --expect` uses: Hermes's `approve` (a person
/// must decide) is `ask` here.
fn action(directive: &Value) -> Option<&str> {
    directive
        .get("action")
        .and_then(Value::as_str)
        .map(|action| if action == "approve" { "ask" } else { action })
        .or_else(|| directive.get("context").is_some().then_some("context"))
}

/// The kept rows of `line`, which is decision `group`.
fn rows<'a>(
    line: &'a Logged,
    filter: &'a Filter<'_>,
    group: u64,
) -> impl DoubleEndedIterator<Item = Row> + 'a {
    line.hooks
        .iter()
        .filter(|hook| filter.keeps_hook(hook))
        .map(move |hook| row(line, hook, group))
}

fn row(line: &Logged, hook: &LoggedHook, group: u64) -> Row {
    let said = hook
        .directive
        .get("message")
        .or_else(|| hook.directive.get("context"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    Row {
        time: line.time.clone(),
        run_id: line.run_id.as_str().map(str::to_owned),
        event: line.event.clone(),
        agent: line.agent.as_str().map(str::to_owned),
        session_id: line.session_id.clone(),
        tool_name: line.tool_name.clone(),
        tool_command: line.tool_command.as_str().map(str::to_owned),
        tool_command_sha256: line.tool_command_sha256.as_str().map(str::to_owned),
        tool_command_chars: line.tool_command_chars.as_u64(),
        exit: line.exit,
        hook: hook.name.clone(),
        source: hook.source.clone(),
        command: hook.command.clone(),
        sha256: hook.sha256.clone(),
        status: hook.status.clone(),
        directive: action(&hook.directive).map(str::to_owned),
        message: said.or_else(|| hook.message.clone()),
        outcome: action(&line.directive).map(str::to_owned),
        group,
    }
}
