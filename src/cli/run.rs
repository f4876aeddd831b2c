//! `run <event>`: read the payload, run the event's hooks, print one JSON line on stdout; exit 2
//! when the directive is block or continue (its message is then the last line on stderr).

use std::io::{self, IsTerminal as _, Read as _};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, anyhow};
use clap::Args;

use super::{GlobalArgs, shared};
use crate::config::event::Resolved;
use crate::config::{self, Event, HookSpec};
use crate::consent::ConsentGate;
use crate::env;
use crate::exit::ExitStatus;
use crate::loop_guard;
use crate::outcome::{self, LoopGuard};
use crate::output::Printer;
use crate::output::audit::{self, AuditLine};
use crate::output::json::{ErrorLine, RunLine};
use crate::payload::{self, Invocation};
use crate::response::{Directive, Status};
use crate::runner::{HookReport, Plan, RunReport};

#[derive(Args, Debug)]
#[command(
    after_help = "Prints one JSON line: {\"event\", the directive (action/message, action/args, \
    context), \"hooks\": [per-hook status]}. Exit 0: go on (also when hooks failed open); 2: blocked, \
    or keep working (pre_verify); 1: bad event, payload or config ({\"event\",\"error\"} on stdout)."
)]
pub(crate) struct RunArgs {
    /// The event: canonical (pre_tool_call), Agent Hooks (pre-tool-call) or Claude Code name
    /// (PreToolUse)
    #[arg(value_parser = super::completions::EventName, hide_possible_values = true)]
    event: String,
    /// Read the payload from FILE ('-' for stdin) instead of stdin
    #[arg(long, value_name = "FILE")]
    payload_file: Option<PathBuf>,
    /// Check matchers and consent and report what would run; run nothing, write nothing
    #[arg(long)]
    dry_run: bool,
    /// Append one JSON line per run (each hook's command, script sha256, status, directive) to
    /// FILE [env: HERMES_HOOKS_AUDIT_LOG]
    #[arg(long, value_name = "FILE")]
    audit_log: Option<PathBuf>,
    /// Also put the payload into the audit log [env: HERMES_HOOKS_AUDIT_PAYLOAD]
    #[arg(long)]
    audit_payload: bool,
    /// On pre_verify, "keep working" answers honoured in a row per session before the agent is
    /// let stop; 0 turns the guard off [env: HERMES_HOOKS_GATE_LIMIT] [default: 8]
    #[arg(long, value_name = "N")]
    gate_limit: Option<u32>,
}

// The signature every command has; `run` reports its own errors on stdout too, so it never fails.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn run(global: &GlobalArgs, args: &RunArgs, printer: &Printer) -> Result<ExitStatus> {
    let resolved = match Event::parse(&args.event) {
        Ok(resolved) => resolved,
        Err(unknown) => return Ok(refuse(printer, &args.event, &anyhow!(unknown))),
    };
    let event = resolved.event;
    if let Some(current) = resolved.legacy_for {
        printer.warn(format!(
            "'{}' is a legacy event name; use '{current}'",
            args.event
        ));
    }
    if env::flag(env::HERMES_SAFE_MODE) {
        printer.note(format!("{} is set: no hook runs", env::HERMES_SAFE_MODE));
        let report = RunReport {
            hooks: Vec::new(),
            directive: None,
        };
        answer(printer, &RunLine::new(event, &[], &report));
        return Ok(ExitStatus::Success);
    }
    shared::end_hooks_on_interrupt();
    match prepare(global, args, event, printer) {
        Ok(prepared) => Ok(execute(global, args, resolved, &prepared, printer)),
        Err(err) => Ok(refuse(printer, event.name(), &err)),
    }
}

/// Everything `run` reads before it runs anything.
struct Prepared {
    set: config::HookSet,
    home: PathBuf,
    invocation: Invocation,
    allowlist: PathBuf,
    current_dir: PathBuf,
}

fn prepare(
    global: &GlobalArgs,
    args: &RunArgs,
    event: Event,
    printer: &Printer,
) -> Result<Prepared> {
    let input = read_payload(args.payload_file.as_deref(), printer)?;
    let current_dir = std::env::current_dir().context("cannot read the current directory")?;
    // The project is the payload's: its `cwd` (or `work_dir`) when that is a directory.
    let start = payload::project_start(&input, &current_dir);
    let invocation = Invocation::from_input(input, &current_dir.to_string_lossy());
    let paths = global.paths_from(&start)?;
    if paths.home_named && !paths.home.is_dir() {
        printer.warn(shared::missing_home(&paths.home));
    }
    let set = config::load(shared::options(&paths, Some(event)))?;
    Ok(Prepared {
        set,
        home: paths.home,
        invocation,
        allowlist: paths.allowlist,
        current_dir,
    })
}

/// The warnings of loading: one line each, except HOOK.md files that could not be read at all,
/// which would otherwise repeat on every event: one line names them all and points to `doctor`.
fn load_warnings(warnings: &[crate::config::Warning], printer: &Printer) {
    let (broken, others): (Vec<_>, Vec<_>) = warnings.iter().partition(|warning| {
        warning.kind == crate::config::WarningKind::SkippedEntry
            && warning.origin.file.file_name() == Some(std::ffi::OsStr::new("HOOK.md"))
    });
    for warning in others {
        printer.warn(warning);
    }
    if !broken.is_empty() {
        let files: Vec<String> = broken.iter().map(|w| w.origin.to_string()).collect();
        let what = if broken.len() == 1 {
            "1 HOOK.md was skipped, so its hook never runs".to_owned()
        } else {
            format!(
                "{} HOOK.md files were skipped, so their hooks never run",
                broken.len()
            )
        };
        printer.warn(format!(
            "{what}: {}; `hermes-hooks doctor` says why",
            files.join(", ")
        ));
    }
}

fn execute(
    global: &GlobalArgs,
    args: &RunArgs,
    resolved: Resolved,
    prepared: &Prepared,
    printer: &Printer,
) -> ExitStatus {
    let event = resolved.event;
    load_warnings(&prepared.set.warnings, printer);
    let bypass = shared::bypass(global, &prepared.set);
    let gate = ConsentGate::new(prepared.allowlist.clone(), bypass, !args.dry_run);
    let watchdog = shared::watchdog_program(&prepared.set);
    let (limit, limit_problem) = loop_guard::limit(args.gate_limit);
    if let Some(problem) = limit_problem {
        printer.warn(problem);
    }
    let state = prepared.home.join(loop_guard::STATE_FILE);
    let outcome = outcome::decide(
        &Plan {
            called: resolved,
            hooks: &prepared.set.hooks,
            replacements: &prepared.set.replacements,
            invocation: &prepared.invocation,
            gate: &gate,
            current_dir: &prepared.current_dir,
            apply_matchers: true,
            dry_run: args.dry_run,
            watchdog: shared::watchdog(watchdog.as_deref()),
        },
        Some(LoopGuard {
            state: &state,
            limit,
        }),
    );
    let report = &outcome.report;
    let status = outcome.status;
    if !args.dry_run {
        audit(args, event, prepared, report, status, printer);
    }
    if let Some(signal) = outcome.interrupted {
        shared::say_interrupted(signal, printer);
        return status;
    }
    for warning in &outcome.warnings {
        printer.warn(warning);
    }
    shared::consent_warnings(&gate, report, printer);
    for hook in &report.hooks {
        if let Some(warning) = hook_warning(&prepared.set.hooks[hook.index], hook) {
            printer.warn(warning);
        }
    }
    let mut line = RunLine::new(event, &prepared.set.hooks, report);
    line.loop_guard = outcome.released;
    answer(printer, &line);
    if let Some(Directive::Block { message } | Directive::Continue { message }) = &report.directive
    {
        printer.agent_message(message);
    }
    status
}

/// Appends the run's line to the audit log, when one is asked for; a failure is a warning (the
/// decision stands).
fn audit(
    args: &RunArgs,
    event: Event,
    prepared: &Prepared,
    report: &RunReport,
    status: ExitStatus,
    printer: &Printer,
) {
    let Some(path) = args
        .audit_log
        .clone()
        .or_else(|| env::var_os(env::HERMES_HOOKS_AUDIT_LOG).map(PathBuf::from))
    else {
        return;
    };
    let invocation = &prepared.invocation;
    let time = crate::clock::now_iso();
    let mut line = AuditLine::new(
        &time,
        event,
        &prepared.set.hooks,
        report,
        (&invocation.session_id, &invocation.tool_name),
        status.code(),
    );
    if args.audit_payload || env::flag(env::HERMES_HOOKS_AUDIT_PAYLOAD) {
        let wire = invocation.hermes_wire(event, invocation.tool_input.as_ref());
        line.payload = serde_json::to_value(&wire).ok();
    }
    match audit::append(&path, &mut line) {
        Ok(audit::Appended::Whole) => {}
        Ok(audit::Appended::WithoutPayload) => printer.warn(format!(
            "the audit log {} can be read by others (chmod 600 it): the payload was left out",
            path.display()
        )),
        Err(err) => printer.warn(format!(
            "cannot append to the audit log {}: {err}",
            path.display()
        )),
    }
}

/// The stderr warning for a hook that failed (or whose answer was ignored), naming the hook and
/// where it is declared.
fn hook_warning(spec: &HookSpec, report: &HookReport) -> Option<String> {
    let message = report.message.as_deref()?;
    let outcome = match report.status {
        Status::Failed | Status::TimedOut | Status::SpawnFailed | Status::InvalidOutput => {
            match report.directive {
                Some(Directive::Block { .. } | Directive::Continue { .. }) => "",
                _ => " (failing open)",
            }
        }
        Status::Ok => "",
        _ => return None,
    };
    Some(format!(
        "hook {} ({}): {message}{outcome}",
        spec.name, spec.origin
    ))
}

/// Reads the payload from `--payload-file` or stdin. A terminal on stdin is not waited on.
fn read_payload(
    file: Option<&Path>,
    printer: &Printer,
) -> Result<serde_json::Map<String, serde_json::Value>> {
    let (bytes, source) = match file {
        Some(path) if path != Path::new("-") => (
            std::fs::read(path)
                .with_context(|| format!("cannot read payload file {}", path.display()))?,
            path.display().to_string(),
        ),
        _ => {
            let mut stdin = io::stdin().lock();
            if stdin.is_terminal() {
                printer.note("stdin is a terminal; using the empty payload {} (pipe a payload or use --payload-file)");
                return Ok(serde_json::Map::new());
            }
            let mut bytes = Vec::new();
            stdin
                .read_to_end(&mut bytes)
                .context("cannot read the payload from stdin")?;
            (bytes, "stdin".to_owned())
        }
    };
    payload::parse(&bytes).with_context(|| format!("bad payload on {source}"))
}

/// An error before anything ran: the message on stderr, `{"event","error"}` on stdout, exit 1.
fn refuse(printer: &Printer, event: &str, err: &anyhow::Error) -> ExitStatus {
    printer.error(err);
    let text = err
        .chain()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ");
    answer(
        printer,
        &ErrorLine {
            event,
            error: &text,
        },
    );
    ExitStatus::Error
}

/// Prints `run`'s one line. The exit status never depends on it: a block is still exit 2 when
/// nobody reads stdout (the message is on stderr), so a failed write is only a warning.
fn answer(printer: &Printer, line: &impl serde::Serialize) {
    if let Err(err) = printer.json(line)
        && err.kind() != io::ErrorKind::BrokenPipe
    {
        printer.warn(format!("cannot write the answer on stdout: {err}"));
    }
}
