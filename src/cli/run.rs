//! `run <event>`: read the payload, run the event's hooks, print one JSON line on stdout; exit 2
//! when the directive is block or continue (its message is then the last line on stderr).

use std::io::{self, IsTerminal as _, Read as _};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use clap::Args;

use super::GlobalArgs;
use super::shared::{self, DispatchArgs};
use crate::agents::Agent;
use crate::dispatch::{self, Request};
use crate::engine::payload;
use crate::ground::exit::ExitStatus;
use crate::output::Printer;
use crate::report::line::ErrorLine;

#[derive(Args, Debug)]
#[command(
    after_help = "Prints one JSON line: {\"event\", the directive (action/message, action/args, \
    context; action \"approve\" when a hook asks a person), \"errors\" (files or input that could \
    not be read), \"hooks\": [per-hook status]}. Exit 0: go on (also when hooks failed open); 2: \
    blocked, held for a person (ask), or keep working (pre_verify); 1: bad \
    event or payload ({\"event\",\"error\"} on stdout). A config.yaml or HOOK.md that cannot be \
    read takes out only its own hooks: the others still run, and the line names it in \"errors\". \
    With --fail-closed, a call the runner could not check is blocked where a hook could block, \
    and a known fail_closed guard blocks a call whose payload cannot be read in either mode."
)]
pub(crate) struct RunArgs {
    /// The event: canonical (pre_tool_call), Agent Hooks (pre-tool-call) or Claude Code name
    /// (PreToolUse)
    #[arg(value_parser = super::completions::EventName, hide_possible_values = true)]
    pub(super) event: String,
    /// Read the payload from FILE ('-' for stdin) instead of stdin
    #[arg(long, value_name = "FILE")]
    pub(super) payload_file: Option<PathBuf>,
    /// Check matchers and consent and report what would run; run nothing, write nothing
    #[arg(long)]
    pub(super) dry_run: bool,
    /// Read the event name and payload as AGENT sends them and answer in its contract: its own
    /// JSON (or nothing) on stdout and the exit code it reads [default: hermes, the answer line]
    #[arg(long, value_name = "AGENT", value_parser = clap::builder::PossibleValuesParser::new(crate::agents::Agent::ALL.map(crate::agents::Agent::name)))]
    pub(super) agent: Option<String>,
    #[command(flatten)]
    pub(super) dispatch: DispatchArgs,
}

// The signature every command has; `run` reports its own errors on stdout too, so it never fails.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn run(global: &GlobalArgs, args: &RunArgs, printer: &Printer) -> Result<ExitStatus> {
    // An error before the event is read: said on stderr, and the answer line says it too.
    let refuse = |err: anyhow::Error| {
        printer.error(&err);
        answer(
            printer,
            &crate::report::line::to_line(&ErrorLine {
                event: &args.event,
                error: &format!("{err:#}"),
                directive: crate::report::line::DirectiveKeys::default(),
            }),
        );
        Ok(ExitStatus::Error)
    };
    let current_dir = match shared::current_dir() {
        Ok(dir) => dir,
        Err(err) => return refuse(err),
    };
    if let Some(why) = crate::ground::env::nested_too_deep() {
        return refuse(anyhow::anyhow!(why));
    }
    shared::end_hooks_on_interrupt();
    let agent = args
        .agent
        .as_deref()
        .map_or(Ok(Agent::Hermes), str::parse::<Agent>)?;
    // The project the agent names in the hook's environment (`CLAUDE_PROJECT_DIR`, ...).
    let project_dir = agent
        .project_env()
        .and_then(|name| {
            crate::ground::env::var_os(name).map(|dir| (std::path::PathBuf::from(dir), name))
        })
        .or_else(|| {
            agent
                .runs_hooks_in_project()
                .then(|| (current_dir.clone(), "the directory the agent runs hooks in"))
        });
    let request = Request {
        agent,
        name: &args.event,
        dry_run: args.dry_run,
        current_dir: &current_dir,
        project_dir: project_dir.as_ref().map(|(dir, by)| (dir.as_path(), *by)),
    };
    let answered = dispatch::answer_once(
        &args.dispatch.options(global),
        &request,
        || read_payload(args.payload_file.as_deref(), printer),
        printer,
    );
    if let Some(line) = &answered.line {
        answer(printer, line);
    }
    if let Some(message) = &answered.agent_message {
        printer.agent_message(message);
    }
    Ok(answered.status)
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
            // Room for a usual payload at once: two reads instead of a growing series.
            let mut bytes = Vec::with_capacity(16 * 1024);
            stdin
                .read_to_end(&mut bytes)
                .context("cannot read the payload from stdin")?;
            (bytes, "stdin".to_owned())
        }
    };
    payload::parse(&bytes).with_context(|| format!("bad payload on {source}"))
}

/// Prints `run`'s one line. The exit status never depends on it: a block is still exit 2 when
/// nobody reads stdout (the message is on stderr), so a failed write is only a warning.
fn answer(printer: &Printer, line: &str) {
    if let Err(err) = printer.line(line)
        && err.kind() != io::ErrorKind::BrokenPipe
    {
        printer.warn(format!("cannot write the answer on stdout: {err}"));
    }
}
