//! One event, from its name and payload to the answer line: the single path `run` and `serve`
//! share. Where the hooks come from is the caller's ([`HookSource`]: `run` reads the files,
//! `serve` keeps what it read until the files change); everything after is the same code.

use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use anyhow::{Result, anyhow};
use clap::Args;

use super::{GlobalArgs, shared};
use crate::agents::{Agent, Allowances, Reply, ToolClass};
use crate::config::event::Resolved;
use crate::config::event::UnknownEvent;
use crate::config::{self, Event, HookSet, HookSpec, SourceKind};
use crate::consent::{ConsentGate, KeptList};
use crate::env;
use crate::exit::ExitStatus;
use crate::loop_guard;
use crate::outcome::{self, LoopGuard};
use crate::output::Printer;
use crate::output::audit::{self, AuditLine};
use crate::output::json::{DirectiveKeys, ErrorEntry, ErrorLine, RunLine, to_line};
use crate::paths::Paths;
use crate::payload::{self, Invocation};
use crate::response::{Directive, Status};
use crate::runner::{HookReport, Plan, RunReport};
use crate::undecided::{self, RunnerError};

/// The options of `run` and `serve` that shape each answer.
#[derive(Args, Debug, Default)]
pub(crate) struct DispatchArgs {
    /// Append one JSON line per event (each hook's command, script sha256, status, directive)
    /// to FILE; `off` keeps no log [env: HERMES_HOOKS_AUDIT_LOG] [default: the events a hook
    /// applies to, in <hermes home>/hermes-hooks/audit.jsonl]
    #[arg(long, value_name = "FILE")]
    pub(super) audit_log: Option<PathBuf>,
    /// Also put the payload into the audit log [env: HERMES_HOOKS_AUDIT_PAYLOAD]
    #[arg(long)]
    pub(super) audit_payload: bool,
    /// On pre_verify, "keep working" answers honoured in a row per session before the agent is
    /// let stop; 0 turns the guard off [env: HERMES_HOOKS_GATE_LIMIT] [default: 8]
    #[arg(long, value_name = "N")]
    pub(super) gate_limit: Option<u32>,
    /// When the runner cannot check a call (a config or HOOK.md that does not parse, a payload
    /// it cannot read, an unreadable allowlist), block it instead of letting it go on, on events
    /// where a hook could block [env: HERMES_HOOKS_FAIL_CLOSED]
    #[arg(long)]
    pub(super) fail_closed: bool,
}

impl DispatchArgs {
    /// Whether a runner error blocks (the flag, or `HERMES_HOOKS_FAIL_CLOSED`).
    fn fail_closed(&self) -> bool {
        self.fail_closed || env::flag(env::HERMES_HOOKS_FAIL_CLOSED)
    }
}

/// Where the hooks of one event come from.
pub(crate) trait HookSource {
    /// The hooks `paths` declare for `event`. Load warnings are the source's to print (`run`
    /// prints them on every call, `serve` when it reads the files).
    fn hooks(&mut self, paths: &Paths, event: Event, printer: &Printer) -> Result<Rc<HookSet>>;

    /// Whether to say that `HERMES_SAFE_MODE` keeps every hook from running (once is enough).
    fn announce_safe_mode(&mut self) -> bool {
        true
    }

    /// Where the allowlist is kept between events, for a source that answers many.
    fn kept_allowlist(&self) -> Option<Arc<Mutex<KeptList>>> {
        None
    }
}

/// The hooks as the files say now: read on every call.
pub(crate) struct ReadEveryTime;

impl HookSource for ReadEveryTime {
    fn hooks(&mut self, paths: &Paths, event: Event, printer: &Printer) -> Result<Rc<HookSet>> {
        shared::location_warnings(paths, printer);
        let set = config::load(shared::options(paths, Some(event)))?;
        load_problems(&set, printer);
        Ok(Rc::new(set))
    }
}

/// One event to answer.
pub(crate) struct Request<'a> {
    /// The event as it was called (any of its names, or the agent's).
    pub name: &'a str,
    /// The agent that called: whose event names and payload come in, and whose answer goes out.
    pub agent: Agent,
    /// Check matchers and consent only.
    pub dry_run: bool,
    /// The directory the program runs in (a hook's default working directory).
    pub current_dir: &'a Path,
    /// The project directory the calling agent names, and what named it: the project search
    /// starts there whatever the payload's `cwd` says (SPEC 2).
    pub project_dir: Option<(&'a Path, &'static str)>,
}

/// What `run` prints: one JSON line, and the status it exits with.
pub(crate) struct Answer {
    /// The JSON object, on one line without its newline; `None` after a signal ended the hooks
    /// (nothing is printed then).
    pub line: Option<String>,
    /// 0, 1 (refused), 2 (blocked or keep working), 128 + N.
    pub status: ExitStatus,
    /// The block or gate message, for a caller that reads stderr.
    pub agent_message: Option<String>,
    /// The decision, for an agent's own answer.
    pub directive: Option<Directive>,
    /// Why nothing could be decided (exit 1: failing open).
    pub error: Option<String>,
    /// For the person, in an agent's mode: guards that stopped guarding (said once per
    /// session), put where the agent shows it.
    pub notice: Option<String>,
}

impl Answer {
    /// The answer with nothing decided: exit 0, `line` printed.
    fn nothing(line: Option<String>) -> Self {
        Self {
            line,
            status: ExitStatus::Success,
            agent_message: None,
            directive: None,
            error: None,
            notice: None,
        }
    }
}

/// Answers one event for the agent that called: the agent's event name and payload in, the
/// agent's own answer out; for Hermes, the answer line. The decision is the engine's, the same
/// for every agent; the full report goes to the audit log.
pub(crate) fn answer(
    global: &GlobalArgs,
    args: &DispatchArgs,
    request: &Request<'_>,
    input: impl FnOnce() -> Result<serde_json::Map<String, serde_json::Value>>,
    source: &mut impl HookSource,
    printer: &Printer,
) -> Answer {
    let agent = request.agent;
    let (resolved, allow) = match agent.resolve(request.name) {
        Ok(Some((resolved, own))) => (Ok(resolved), own.allowances()),
        // The agent's own event with no counterpart: no hook is declared for it.
        Ok(None) => return Answer::nothing(None).rendered(agent, request.name, None),
        // An event the agent added after this version: nothing runs, and the person is told.
        Err(unknown) if !agent.is_hermes() => {
            printer.warn(format!(
                "{unknown}; {} may have added it after this version of hermes-hooks, so no hook \
                 runs for it",
                agent.title()
            ));
            return Answer::nothing(None).rendered(agent, request.name, None);
        }
        Err(unknown) => (Err(unknown), Allowances::default()),
    };
    // An agent that repeats an event within one turn (Qwen Code's `UserPromptSubmit` before
    // every model call) is read first: a repeat runs no hook.
    let mut read = Some(input);
    let mut early = None;
    if resolved.is_ok()
        && agent.may_repeat_turns()
        && let Some(read) = read.take()
    {
        let payload = read();
        if let Ok(map) = &payload
            && agent.repeats_turn(request.name, map)
        {
            return Answer::nothing(None).rendered(agent, request.name, None);
        }
        early = Some(payload);
    }
    // What normalising added for hooks (a shell command under another key), to put back.
    let mut exposed = None;
    let input = || {
        let payload = match (early, read) {
            (Some(payload), _) => payload,
            (None, Some(read)) => read(),
            (None, None) => Err(anyhow!("the payload was already read")),
        };
        payload.map(|mut map| {
            exposed = agent.normalise(request.name, &mut map);
            map
        })
    };
    let event = resolved.as_ref().ok().map(|r| r.event);
    let mut answer = decide(
        global, args, request, resolved, allow, input, source, printer,
    );
    if let Some(exposed) = &exposed
        && let Some(directive) = answer.directive.take()
    {
        let directive = crate::agents::restore(exposed, directive);
        if let Directive::Block { message } = &directive {
            answer.status = ExitStatus::Blocked;
            answer.agent_message = Some(message.clone());
        }
        answer.directive = Some(directive);
    }
    if agent.is_hermes() {
        answer
    } else {
        answer.rendered(agent, request.name, event)
    }
}

impl Answer {
    /// This answer in `agent`'s contract: its JSON (or nothing) on stdout, its exit code.
    fn rendered(self, agent: Agent, name: &str, event: Option<Event>) -> Self {
        if self.line.is_none() && self.status != ExitStatus::Success {
            // Ended by a signal: nothing is printed.
            return self;
        }
        let name = event
            .filter(|_| !agent.events().iter().any(|own| own.name == name))
            .and_then(|event| agent.names_for(event).first().copied())
            .unwrap_or(name);
        let rendered = agent.render(&Reply {
            event: name,
            table: event,
            directive: self.directive.as_ref(),
            error: self.error.as_deref().filter(|_| self.directive.is_none()),
        });
        let rendered = match self.notice.as_deref() {
            Some(notice) => agent.with_notice(rendered, notice),
            None => rendered,
        };
        let agent_message = match rendered.exit {
            ExitStatus::Blocked => rendered.stderr,
            // A runner error was said on stderr already.
            _ => None,
        };
        Self {
            line: rendered.stdout,
            status: rendered.exit,
            agent_message,
            ..self
        }
    }
}

/// Decides one event: reads the payload with `input` (only once the name is known), loads the
/// hooks from `source`, runs them and gives the Hermes answer line.
#[allow(clippy::too_many_arguments)] // the request, as `answer` took it apart
fn decide(
    global: &GlobalArgs,
    args: &DispatchArgs,
    request: &Request<'_>,
    resolved: Result<Resolved, UnknownEvent>,
    allow: Allowances,
    input: impl FnOnce() -> Result<serde_json::Map<String, serde_json::Value>>,
    source: &mut impl HookSource,
    printer: &Printer,
) -> Answer {
    let resolved = match resolved {
        Ok(resolved) => resolved,
        Err(unknown) => return refuse(printer, request.name, &anyhow!(unknown), None),
    };
    let event = resolved.event;
    if let Some(current) = resolved.legacy_for {
        printer.warn(format!(
            "'{}' is a legacy event name; use '{current}'",
            request.name
        ));
    }
    if env::flag(env::HERMES_SAFE_MODE) {
        if source.announce_safe_mode() {
            printer.note(format!("{} is set: no hook runs", env::HERMES_SAFE_MODE));
        }
        let report = RunReport {
            hooks: Vec::new(),
            directive: None,
        };
        return Answer::nothing(Some(to_line(&RunLine::new(event, &[], &report))));
    }
    let fail_closed = args.fail_closed();
    match prepare(global, request, (event, allow), input, source, printer) {
        Ok(mut prepared) => match prepared.payload_error.take() {
            Some(err) => unreadable(args, request, event, &prepared, &err, printer),
            None => execute(global, args, request, resolved, &prepared, printer),
        },
        Err(err) => {
            let error = undecided::of_payload(chain_text(&err), event);
            let block = (fail_closed && error.could_block).then(|| undecided::runner_block(&error));
            refuse(printer, event.name(), &err, block.as_ref())
        }
    }
}

/// Everything read before anything runs.
struct Prepared {
    set: Rc<HookSet>,
    home: PathBuf,
    invocation: Invocation,
    allowlist: PathBuf,
    /// The payload could not be read: the hooks are loaded (from where the program runs), and
    /// none of them can be given it.
    payload_error: Option<anyhow::Error>,
    /// What the calling agent reads beyond the event table.
    allow: Allowances,
    /// The agent that called.
    agent: Agent,
    /// The project root whose hooks were loaded, and what it was found from.
    project: (Option<PathBuf>, crate::paths::ProjectFrom),
    /// Where the source keeps the allowlist between events.
    kept_allowlist: Option<Arc<Mutex<KeptList>>>,
}

fn prepare(
    global: &GlobalArgs,
    request: &Request<'_>,
    (event, allow): (Event, Allowances),
    input: impl FnOnce() -> Result<serde_json::Map<String, serde_json::Value>>,
    source: &mut impl HookSource,
    printer: &Printer,
) -> Result<Prepared> {
    // A payload that cannot be read still lets the hooks load: a known `fail_closed` guard
    // then blocks, and the answer says which hooks could not run.
    let (input, payload_error) = match input() {
        Ok(input) => (input, None),
        Err(err) => (serde_json::Map::new(), Some(err)),
    };
    // The project is the agent's when it names one (the model moves the working directory);
    // else the payload's `cwd` (or `work_dir`) when that is a directory.
    let start = payload::project_start(&input, request.current_dir);
    let named = request
        .project_dir
        .map(|(dir, by)| (dir.to_path_buf(), by))
        .or_else(|| request.agent.project_in(&input))
        .filter(|(dir, by)| {
            let usable = dir.is_absolute() && dir.is_dir();
            if !usable {
                printer.warn(format!(
                    "the agent's project directory {} ({by}) is not a directory; the project is \
                     searched from {} instead",
                    dir.display(),
                    start.display()
                ));
            }
            usable
        });
    let names_profile = input.get("profile").is_some_and(|p| !p.is_null());
    let mut invocation = Invocation::from_input(input, &request.current_dir.to_string_lossy());
    invocation.tool_class = invocation
        .tool_name()
        .and_then(|tool| request.agent.tool_class(tool))
        .map(ToolClass::as_str);
    let paths = match &named {
        Some((root, named_by)) => global.paths_for(&crate::paths::Start::Agent {
            root,
            named_by,
            cwd: Some(&start),
        })?,
        None => global.paths_from(&start)?,
    };
    if !names_profile {
        // As Hermes names it: from the Hermes home (`~/.hermes/profiles/work` is `work`).
        let user_home = crate::paths::home_dir();
        invocation.profile = crate::profile::active(&paths.home, user_home.as_deref()).into();
    }
    let set = source.hooks(&paths, event, printer)?;
    Ok(Prepared {
        set,
        project: (paths.project, paths.project_from),
        home: paths.home,
        invocation,
        allowlist: paths.allowlist,
        payload_error,
        allow,
        agent: request.agent,
        kept_allowlist: source.kept_allowlist(),
    })
}

/// The load's warnings, and the files whose hooks could not be read: an error line each for a
/// config file (a HOOK.md that could not be read is among the warnings).
pub(crate) fn load_problems(set: &HookSet, printer: &Printer) {
    load_warnings(&set.warnings, printer);
    for error in set.errors.iter().filter(|e| e.source == SourceKind::Config) {
        printer.error(&anyhow!(
            "{error}; its hooks do not run (the other sources' hooks do)"
        ));
    }
    for error in set.unread_rules_files() {
        printer.error(&anyhow!("{error}"));
    }
}

/// The warnings of loading: one line each, except HOOK.md files that could not be read at all,
/// which would otherwise repeat on every event: one line names them all and points to `doctor`.
pub(crate) fn load_warnings(warnings: &[crate::config::Warning], printer: &Printer) {
    let (broken, others): (Vec<_>, Vec<_>) = warnings.iter().partition(|warning| {
        warning.kind == crate::config::WarningKind::SkippedEntry
            && warning.origin.file.file_name() == Some(std::ffi::OsStr::new("HOOK.md"))
    });
    // A rule's missing folder is said by `list` and `doctor`, not on every call.
    for warning in others
        .into_iter()
        .filter(|w| w.kind != crate::config::WarningKind::NoFolder)
    {
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
    args: &DispatchArgs,
    request: &Request<'_>,
    resolved: Resolved,
    prepared: &Prepared,
    printer: &Printer,
) -> Answer {
    let event = resolved.event;
    let bypass = shared::bypass(global, &prepared.set);
    let gate = ConsentGate::new(prepared.allowlist.clone(), bypass, !request.dry_run)
        .keeping(prepared.kept_allowlist.clone());
    let watchdog = shared::watchdog_program(&prepared.set);
    let (limit, limit_problem) = loop_guard::limit(args.gate_limit);
    if let Some(problem) = limit_problem {
        printer.warn(problem);
    }
    let state = prepared.home.join(loop_guard::STATE_FILE);
    let mut outcome = outcome::decide(
        &Plan {
            called: resolved,
            hooks: &prepared.set.hooks,
            replacements: &prepared.set.replacements,
            invocation: &prepared.invocation,
            gate: &gate,
            current_dir: request.current_dir,
            apply_matchers: true,
            dry_run: request.dry_run,
            watchdog: shared::watchdog(watchdog.as_deref()),
            allow: prepared.allow,
        },
        Some(LoopGuard {
            state: &state,
            limit,
        }),
    );
    let mut errors = undecided::of_set(&prepared.set, event);
    if let Some(problem) = gate.problem() {
        errors.push(undecided::of_allowlist(
            prepared.allowlist.clone(),
            problem,
            event,
        ));
    }
    undecided::close(&mut outcome, &errors, args.fail_closed());
    unseen_terminal(&mut outcome, prepared);
    let report = &outcome.report;
    let status = outcome.status;
    if !request.dry_run {
        audit(args, event, prepared, report, &errors, status, printer);
    }
    if let Some(signal) = outcome.interrupted {
        shared::say_interrupted(signal, printer);
        return Answer {
            line: None,
            status,
            agent_message: None,
            directive: None,
            error: None,
            notice: None,
        };
    }
    for warning in &outcome.warnings {
        printer.warn(warning);
    }
    shared::consent_warnings(&gate, report, printer, false);
    for hook in &report.hooks {
        if let Some(warning) = hook_warning(&prepared.set.hooks[hook.index], hook) {
            printer.warn(warning);
        }
    }
    let mut line = RunLine::new(event, &prepared.set.hooks, report);
    line.loop_guard = outcome.released;
    line.errors = ErrorEntry::all(&errors);
    Answer {
        line: Some(to_line(&line)),
        status,
        agent_message: agent_message(report),
        directive: report.directive.clone(),
        error: None,
        notice: notice(request, prepared, report, &errors, printer),
    }
}

/// A call that opens a terminal no hook will see the input of (Codex's `exec_command` with a
/// tty) is blocked when a hook watched it: the guard could not check what is typed there later.
/// A block or gate the hooks gave, or an answer cut short by a signal, stands.
fn unseen_terminal(outcome: &mut outcome::Outcome, prepared: &Prepared) {
    if outcome.interrupted.is_some()
        || !crate::agents::opens_unseen_terminal(
            prepared.agent,
            prepared.invocation.tool_input.as_ref(),
        )
        || matches!(
            outcome.report.directive,
            Some(Directive::Block { .. } | Directive::Continue { .. })
        )
    {
        return;
    }
    let watched = outcome.report.hooks.iter().any(|hook| {
        !matches!(
            hook.status,
            Status::NotMatched | Status::Unapproved | Status::Changed
        )
    });
    if watched {
        outcome.report.directive = Some(Directive::Block {
            message: crate::agents::UNSEEN_TERMINAL.to_owned(),
        });
        outcome.status = ExitStatus::Blocked;
    }
}

/// In an agent's mode, what the person must hear about guards that did not check this call
/// (once per session and guard; see [`crate::told`]).
fn notice(
    request: &Request<'_>,
    prepared: &Prepared,
    report: &RunReport,
    errors: &[RunnerError],
    printer: &Printer,
) -> Option<String> {
    if request.agent.is_hermes() || request.dry_run {
        return None;
    }
    let told = crate::told::of_decision(&prepared.set.hooks, report, errors);
    if told.is_empty() {
        return None;
    }
    let session = prepared.invocation.session_id.as_str().unwrap_or("");
    let state = prepared.home.join(crate::told::STATE_FILE);
    let (said, problem) = crate::told::once(&state, session, &told, std::time::SystemTime::now());
    if let Some(problem) = problem {
        printer.warn(problem);
    }
    said
}

/// The block or gate message, for a caller that reads stderr; for "ask a person", the block a
/// Hermes config hook gives (it cannot ask): the same words as the line's `reason`.
fn agent_message(report: &RunReport) -> Option<String> {
    match &report.directive {
        Some(Directive::Block { message } | Directive::Continue { message }) => {
            Some(message.clone())
        }
        Some(Directive::Ask { message, .. }) => {
            match crate::agents::ask_as_block(message, "Hermes") {
                Directive::Block { message } => Some(message),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The answer when the payload could not be read: no hook can run; a known `fail_closed` guard
/// blocks, and so does fail-closed mode where a hook could block; else exit 1. The line is
/// `{"event","error",...}` with every hook `not_run`.
fn unreadable(
    args: &DispatchArgs,
    request: &Request<'_>,
    event: Event,
    prepared: &Prepared,
    err: &anyhow::Error,
    printer: &Printer,
) -> Answer {
    printer.error(err);
    let why = chain_text(err);
    let payload = undecided::of_payload(why.clone(), event);
    let outcome = undecided::unreadable_payload(&prepared.set.hooks, &payload, args.fail_closed());
    let mut errors = vec![payload];
    errors.extend(undecided::of_set(&prepared.set, event));
    let report = &outcome.report;
    if !request.dry_run {
        audit(
            args,
            event,
            prepared,
            report,
            &errors,
            outcome.status,
            printer,
        );
    }
    let mut line = RunLine::new(event, &prepared.set.hooks, report);
    line.error = Some(&why);
    line.errors = ErrorEntry::all(&errors);
    Answer {
        line: Some(to_line(&line)),
        status: outcome.status,
        agent_message: agent_message(report),
        directive: report.directive.clone(),
        notice: notice(request, prepared, report, &errors, printer),
        error: Some(why),
    }
}

/// An error's text with its causes, on one line.
fn chain_text(err: &anyhow::Error) -> String {
    err.chain()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(": ")
}

/// Appends the event's line to the audit log: a log named by the person gets every event, the
/// default one (`<hermes home>/hermes-hooks/audit.jsonl`) the events where a hook applied or
/// the runner could not check the call; none with `HERMES_HOOKS_AUDIT_LOG=off`. A failure is a
/// warning (the decision stands).
fn audit(
    args: &DispatchArgs,
    event: Event,
    prepared: &Prepared,
    report: &RunReport,
    errors: &[RunnerError],
    status: ExitStatus,
    printer: &Printer,
) {
    let target = audit::Target::of(args.audit_log.as_deref(), &prepared.home);
    let rotate = matches!(target, audit::Target::Default(_));
    let applied = !errors.is_empty()
        || report
            .hooks
            .iter()
            .any(|hook| hook.status != Status::NotMatched);
    let Some(path) = target.path().filter(|_| applied || !rotate) else {
        return;
    };
    let invocation = &prepared.invocation;
    let stamp = audit::Stamp::now();
    let mut line = AuditLine::new(
        &stamp,
        event,
        &prepared.set.hooks,
        report,
        (&invocation.session_id, &invocation.tool_name),
        status.code(),
    );
    line.errors = ErrorEntry::all(errors);
    if rotate {
        // The default log keeps what decided: a hook whose matcher passed over the call (of
        // dozens of rules, say) is not written down on every line.
        line.hooks
            .retain(|hook| hook.status != Status::NotMatched.as_str());
    }
    line.agent = (!prepared.agent.is_hermes()).then(|| prepared.agent.name());
    line.tool_command = audit::shell_command(invocation);
    line.project = prepared
        .project
        .0
        .as_deref()
        .map(|p| p.display().to_string());
    line.project_from = Some(prepared.project.1.to_string());
    if args.audit_payload || env::flag(env::HERMES_HOOKS_AUDIT_PAYLOAD) {
        line.payload = Some(invocation.hermes_wire(event, invocation.tool_input.as_ref()));
    }
    match audit::append(path, &mut line, rotate) {
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
                Some(
                    Directive::Block { .. } | Directive::Continue { .. } | Directive::Ask { .. },
                ) => "",
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

/// An error before anything could be loaded: the message on stderr, `{"event","error"}` as the
/// line, exit 1; or, when fail-closed mode turns it into `block`, that block (exit 2).
fn refuse(
    printer: &Printer,
    event: &str,
    err: &anyhow::Error,
    block: Option<&Directive>,
) -> Answer {
    printer.error(err);
    let text = chain_text(err);
    let agent_message = match block {
        Some(Directive::Block { message }) => Some(message.clone()),
        _ => None,
    };
    let error = Some(text.clone());
    Answer {
        directive: block.cloned(),
        error,
        notice: None,
        line: Some(to_line(&ErrorLine {
            event,
            error: &text,
            directive: DirectiveKeys::of(block),
        })),
        status: if block.is_some() {
            ExitStatus::Blocked
        } else {
            ExitStatus::Error
        },
        agent_message,
    }
}
