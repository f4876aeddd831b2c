//! What several subcommands share: resolving an event name, loading hooks with their warnings
//! printed, the consent bypass, and the colour decision.

use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde::Serialize;

use super::{ColorChoice, GlobalArgs};
use crate::config::event::Resolved;
use crate::config::{self, Event, HookSet, HookSpec, LoadOptions, SourceKind};
use crate::consent::store::{self, Allowlist};
use crate::consent::{Bypass, ConsentGate};
use crate::env;
use crate::exec::detach::Watchdog;
use crate::exec::interrupt::{self, Interrupt};
use crate::output::Printer;
use crate::paths::{Paths, Skipped};
use crate::runner::RunReport;

/// Resolves an event name given on the command line (warning on a legacy name).
pub(crate) fn event(name: &str, printer: &Printer) -> Result<Resolved> {
    let resolved = Event::parse(name)?;
    if let Some(current) = resolved.legacy_for {
        printer.warn(format!("'{name}' is a legacy event name; use '{current}'"));
    }
    Ok(resolved)
}

/// Resolves an optional `--event` name.
pub(crate) fn optional_event(name: Option<&str>, printer: &Printer) -> Result<Option<Event>> {
    name.map(|name| event(name, printer).map(|resolved| resolved.event))
        .transpose()
}

/// Paths and hooks, with load warnings printed on stderr.
pub(crate) struct Loaded {
    pub(crate) paths: Paths,
    pub(crate) set: HookSet,
}

/// Loads the hooks (of one event, or all), printing load warnings.
pub(crate) fn load(global: &GlobalArgs, only: Option<Event>, printer: &Printer) -> Result<Loaded> {
    load_from(global, &current_dir()?, only, printer)
}

/// [`load`], with the project root searched from `start` (a payload's `cwd`).
pub(crate) fn load_from(
    global: &GlobalArgs,
    start: &Path,
    only: Option<Event>,
    printer: &Printer,
) -> Result<Loaded> {
    let paths = global.paths_from(start)?;
    location_warnings(&paths, printer);
    let set = config::load(options(&paths, only))?;
    for warning in &set.warnings {
        printer.warn(warning);
    }
    for error in set.errors.iter().filter(|e| e.source == SourceKind::Config) {
        printer.error(&anyhow::anyhow!(
            "{error}; none of its hooks are shown or run (the other sources' are)"
        ));
    }
    for error in set.unread_rules_files() {
        printer.error(&anyhow::anyhow!("{error}"));
    }
    Ok(Loaded { paths, set })
}

/// [`load`] for a caller that reports what loading found itself (`doctor`, as findings): nothing
/// is printed.
pub(crate) fn load_unsaid(global: &GlobalArgs, only: Option<Event>) -> Result<Loaded> {
    let paths = global.paths_from(&current_dir()?)?;
    let set = config::load(options(&paths, only))?;
    Ok(Loaded { paths, set })
}

/// What to load from `paths`.
pub(crate) fn options(paths: &Paths, only: Option<Event>) -> LoadOptions<'_> {
    LoadOptions {
        config: &paths.config,
        managed: paths.managed.as_deref(),
        dotenv: Some(&paths.dotenv),
        user_hooks: paths.user_hooks.as_deref(),
        project_hooks: paths.project_hooks.as_deref(),
        nested_hooks: &paths.nested_hooks,
        only,
        user_rules: Some(&paths.user_rules),
        project: paths.work_root.as_deref(),
    }
}

/// The allowlist for read-only views: a corrupt or unreadable file is reported and read as empty.
pub(crate) fn read_allowlist(paths: &Paths, printer: &Printer) -> Allowlist {
    match store::read(&paths.allowlist) {
        Ok(list) => list.unwrap_or_default(),
        Err(err) => {
            printer.warn(format!("{err}; showing every hook as unapproved"));
            Allowlist::default()
        }
    }
}

/// The active consent bypass, if any: this tool's (the flag, then `HERMES_HOOKS_ACCEPT`), which
/// cover every hook, else Hermes's (`HERMES_ACCEPT_HOOKS`, then the config), which cover config
/// hooks only.
pub(crate) fn bypass(global: &GlobalArgs, set: &HookSet) -> Option<Bypass> {
    if global.accept_hooks {
        Some(Bypass::Flag)
    } else if env::flag(env::HERMES_HOOKS_ACCEPT) {
        Some(Bypass::Env)
    } else if env::flag(env::HERMES_ACCEPT_HOOKS) {
        Some(Bypass::HermesEnv)
    } else if set.auto_accept {
        Some(Bypass::Config)
    } else {
        None
    }
}

/// Whether human output on stdout gets colour.
pub(crate) fn color(global: &GlobalArgs) -> bool {
    match global.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            env::var_os(env::NO_COLOR).is_none() && std::io::stdout().is_terminal()
        }
    }
}

/// Whether human output on stderr (a review, a diff) gets colour.
pub(crate) fn color_stderr(global: &GlobalArgs) -> bool {
    match global.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            env::var_os(env::NO_COLOR).is_none() && std::io::stderr().is_terminal()
        }
    }
}

/// The first argument that turns this program into the watchdog of an `async` hook (kept out
/// of clap, so it is in no help, completion or man page).
pub(crate) const WATCH_COMMAND: &str = "__watch";
/// The first argument that turns this program into the guard of the hooks of a run (see
/// [`crate::exec::guard`]); also kept out of clap.
pub(crate) const GUARD_COMMAND: &str = "__guard";

/// The longest an `async` hook may be watched: its longest timeout, with room to spare.
const WATCH_MAX: std::time::Duration = std::time::Duration::from_secs(3600);

/// The hidden modes: `__watch <pgid> <timeout_ms>` watches an `async` hook's group and ends it at
/// its deadline; `__guard` ends the groups of a run that was killed. Their arguments are
/// checked: a group of 0 or 1 (which would reach every process of the user) is refused. `None`
/// when this is neither.
pub(crate) fn watch_mode() -> Option<crate::exit::ExitStatus> {
    let mut args = std::env::args_os().skip(1);
    let mode = args.next()?;
    if mode == GUARD_COMMAND {
        crate::exec::guard::serve();
        return Some(crate::exit::ExitStatus::Success);
    }
    if mode != WATCH_COMMAND {
        return None;
    }
    let pgid = args.next()?.into_string().ok()?;
    let timeout = args
        .next()
        .and_then(|ms| ms.to_str()?.parse::<u64>().ok())
        .map(std::time::Duration::from_millis)
        .filter(|timeout| *timeout <= WATCH_MAX);
    let watched = timeout.is_some_and(|timeout| crate::exec::detach::watch(&pgid, timeout));
    Some(if watched {
        crate::exit::ExitStatus::Success
    } else {
        crate::exit::ExitStatus::Error
    })
}

/// This program, when some hook is `async` and needs it as its watchdog.
pub(crate) fn watchdog_program(set: &HookSet) -> Option<PathBuf> {
    set.hooks
        .iter()
        .any(HookSpec::run_async)
        .then(std::env::current_exe)
        .and_then(Result::ok)
}

/// The watchdog of `async` hooks: `program __watch <pgid> <timeout_ms>`.
pub(crate) fn watchdog(program: Option<&std::path::Path>) -> Option<Watchdog<'_>> {
    program.map(|program| Watchdog {
        program,
        args: &[WATCH_COMMAND],
    })
}

/// The current directory (a hook's default working directory, and the base of relative paths).
pub(crate) fn current_dir() -> Result<PathBuf> {
    std::env::current_dir().context("cannot read the current directory")
}

/// The terminating signals end the hooks that run before this program ends (see
/// [`crate::exec::interrupt`]); a guard process ends them should this program be killed outright
/// (see [`crate::exec::guard`]).
pub(crate) fn end_hooks_on_interrupt() {
    interrupt::enable();
    crate::exec::guard::enable(&[GUARD_COMMAND]);
}

/// After hooks ran: when a signal asked the program to stop, a note on stderr and the exit status
/// (128 + N); the caller then prints nothing on stdout, so no half answer is ever read.
pub(crate) fn interrupted(printer: &Printer) -> Option<crate::exit::ExitStatus> {
    let signal: Interrupt = interrupt::received()?;
    say_interrupted(signal, printer);
    Some(crate::exit::ExitStatus::Signaled(signal.exit_code()))
}

/// The project root as `list` and `doctor` show it, and the project skipped on the way.
pub(crate) fn project_line(paths: &Paths) -> String {
    let mut line = match &paths.project {
        Some(root) if paths.project_from == crate::paths::ProjectFrom::Flag => {
            format!("Project: {} (named with --project)", root.display())
        }
        Some(root) => format!("Project: {}", root.display()),
        None if paths.project_skipped.is_some() => "Project: none".to_owned(),
        None => "Project: none (no .agents/hooks from here up to the repository root)".to_owned(),
    };
    if let Some(skipped) = &paths.project_skipped {
        let _ = write!(
            line,
            " (skipped {}: {})",
            skipped.hooks().display(),
            skipped.reason()
        );
    }
    line
}

/// What is wrong with the locations, said before hooks are loaded from them: a named Hermes
/// home that does not exist, a project skipped because another user owns it.
pub(crate) fn location_warnings(paths: &Paths, printer: &Printer) {
    if paths.home_named && !paths.home.is_dir() {
        printer.warn(missing_home(&paths.home));
    }
    if let Some(skipped) = &paths.project_skipped {
        printer.warn(skipped);
    }
}

/// A skipped project in `--json` output.
#[derive(Serialize)]
pub(crate) struct SkippedProject {
    /// The folder with `.agents/hooks`.
    root: String,
    /// The folder another user owns.
    owned_folder: String,
    uid: u32,
    /// The owner's user name, when the user database has one.
    owner: Option<String>,
}

impl SkippedProject {
    pub(crate) fn new(skipped: &Skipped) -> Self {
        Self {
            root: skipped.root.display().to_string(),
            owned_folder: skipped.folder.display().to_string(),
            uid: skipped.uid,
            owner: skipped.owner_name.clone(),
        }
    }
}

/// The warning for a Hermes home that was named and does not exist.
pub(crate) fn missing_home(home: &Path) -> String {
    format!(
        "the Hermes home {} does not exist (named by --hermes-home or HERMES_HOME): no config, \
         no allowlist",
        home.display()
    )
}

/// The note for a run a signal ended.
pub(crate) fn say_interrupted(signal: Interrupt, printer: &Printer) {
    printer.note(format!(
        "interrupted by {}; the running hooks' process groups were ended, no answer given",
        signal.name()
    ));
}

/// After hooks ran: why the allowlist could not be used, if so, and each hook's consent notice.
/// With `denied_shown` (the command's own output gives each hook's message), a hook that consent
/// kept from starting is not told twice.
pub(crate) fn consent_warnings(
    gate: &ConsentGate,
    report: &RunReport,
    printer: &Printer,
    denied_shown: bool,
) {
    if let Some(problem) = gate.problem() {
        printer.warn(format!(
            "{problem}; treating it as empty, so no hook counts as approved"
        ));
    }
    // The rules of one file share its consent, and so its notice: said once.
    let mut said: Vec<&str> = Vec::new();
    for hook in &report.hooks {
        if let Some(notice) = &hook.notice
            && !(denied_shown && hook.denied)
            && !said.contains(&notice.as_str())
        {
            said.push(notice);
            printer.warn(notice);
        }
    }
}
