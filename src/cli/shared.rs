//! What several subcommands share: resolving an event name, loading hooks with their warnings
//! printed, the options of `run` and `serve`, the consent bypass, and the colour decision.

use std::fmt::Write as _;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use clap::Args;
use serde::Serialize;

use super::{ColorChoice, GlobalArgs};
use crate::config::event::Resolved;
use crate::config::{self, Event, HookSet, SourceKind};
use crate::consent::Bypass;
use crate::consent::store::{self, Allowlist};
use crate::dispatch::{Options, WATCH_COMMAND, load_options, location_warnings, say_interrupted};
use crate::ground::env;
use crate::ground::interrupt::{self, Interrupt};
use crate::ground::paths;
use crate::ground::paths::{Paths, Skipped};
use crate::output::Printer;

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
    let set = config::load(load_options(&paths, only))?;
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
    let set = config::load(load_options(&paths, only))?;
    Ok(Loaded { paths, set })
}

/// `loaded` with each approved guard in reach that vanished or changed stood in for by what was
/// approved (see [`crate::consent::vanished`]): what `list` and `doctor` report.
pub(crate) fn with_stand_ins(
    mut loaded: Loaded,
    list: &Allowlist,
    start: &Path,
    only: Option<Event>,
) -> Loaded {
    let home = crate::ground::paths::home_dir();
    let vars = crate::config::rules::Vars {
        project: loaded.paths.work_root.as_deref(),
        home: home.as_deref(),
    };
    let reach = crate::consent::vanished::Reach::of(&loaded.paths, start);
    if let std::borrow::Cow::Owned(set) = crate::consent::vanished::stand_ins(
        &loaded.set,
        list,
        &loaded.paths.allowlist,
        (&reach, vars, only),
        None,
    ) {
        loaded.set = set;
    }
    loaded
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

/// The options of `run` and `serve` that shape each answer.
#[derive(Args, Debug, Default)]
pub(crate) struct DispatchArgs {
    /// Append one JSON line per event (each hook's command, script sha256, status, directive)
    /// to FILE; `off` keeps no log [env: HERMES_HOOKS_AUDIT_LOG] [default: the events a hook
    /// applies to, in <hermes home>/hermes-hooks/audit.jsonl]
    #[arg(long, value_name = "FILE")]
    pub(crate) audit_log: Option<PathBuf>,
    /// Also put the payload into the audit log [env: HERMES_HOOKS_AUDIT_PAYLOAD]
    #[arg(long)]
    pub(crate) audit_payload: bool,
    /// On pre_verify, "keep working" answers honoured in a row per session before the agent is
    /// let stop; 0 turns the guard off [env: HERMES_HOOKS_GATE_LIMIT] [default: 8]
    #[arg(long, value_name = "N")]
    pub(crate) gate_limit: Option<u32>,
    /// When the runner cannot check a call (a config or HOOK.md that does not parse, a payload
    /// it cannot read, an unreadable allowlist), block it instead of letting it go on, on events
    /// where a hook could block [env: HERMES_HOOKS_FAIL_CLOSED]
    #[arg(long)]
    pub(crate) fail_closed: bool,
}

impl DispatchArgs {
    /// The engine's options for one answer: these flags and the global ones.
    pub(crate) fn options<'a>(&'a self, global: &'a GlobalArgs) -> Options<'a> {
        Options {
            locations: global.locations(),
            accept_hooks: global.accept_hooks,
            audit_log: self.audit_log.as_deref(),
            audit_payload: self.audit_payload,
            gate_limit: self.gate_limit,
            fail_closed: self.fail_closed,
        }
    }
}

/// The active consent bypass, if any (see [`crate::dispatch::bypass`]).
pub(crate) fn bypass(global: &GlobalArgs, set: &HookSet) -> Option<Bypass> {
    crate::dispatch::bypass(global.accept_hooks, set)
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

/// The first argument that turns this program into the guard of the hooks of a run (see
/// [`crate::exec::guard`]); also kept out of clap.
pub(crate) const GUARD_COMMAND: &str = "__guard";

/// The longest an `async` hook may be watched: its longest timeout, with room to spare.
const WATCH_MAX: std::time::Duration = std::time::Duration::from_secs(3600);

/// The hidden modes: `__watch <pgid> <timeout_ms>` watches an `async` hook's group and ends it at
/// its deadline; `__guard` ends the groups of a run that was killed. Their arguments are
/// checked: a group of 0 or 1 (which would reach every process of the user) is refused. `None`
/// when this is neither.
pub(crate) fn watch_mode() -> Option<crate::ground::exit::ExitStatus> {
    let mut args = std::env::args_os().skip(1);
    let mode = args.next()?;
    if mode == GUARD_COMMAND {
        crate::exec::guard::serve();
        return Some(crate::ground::exit::ExitStatus::Success);
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
        crate::ground::exit::ExitStatus::Success
    } else {
        crate::ground::exit::ExitStatus::Error
    })
}

/// The current directory (a hook's default working directory, and the base of relative paths).
pub(crate) fn current_dir() -> Result<PathBuf> {
    std::env::current_dir().context("cannot read the current directory")
}

/// The terminating signals end the hooks that run before this program ends (see
/// [`crate::ground::interrupt`]); a guard process ends them should this program be killed outright
/// (see [`crate::exec::guard`]).
pub(crate) fn end_hooks_on_interrupt() {
    interrupt::enable();
    crate::exec::guard::enable(&[GUARD_COMMAND]);
}

/// After hooks ran: when a signal asked the program to stop, a note on stderr and the exit status
/// (128 + N); the caller then prints nothing on stdout, so no half answer is ever read.
pub(crate) fn interrupted(printer: &Printer) -> Option<crate::ground::exit::ExitStatus> {
    let signal: Interrupt = interrupt::received()?;
    say_interrupted(signal, printer);
    Some(crate::ground::exit::ExitStatus::Signaled(
        signal.exit_code(),
    ))
}

/// The project root as `list` and `doctor` show it, and the project skipped on the way.
pub(crate) fn project_line(paths: &Paths) -> String {
    let mut line = match &paths.project {
        Some(root) if paths.project_from == crate::ground::paths::ProjectFrom::Flag => {
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

/// The project root for a new project hook: the project found from `cwd`, else the repository
/// root above it, else `cwd` itself; `$HOME` and `/` are never a project. A project skipped
/// because another user owns it is said, and never written into.
pub(super) fn project_root(cwd: &Path, printer: &Printer) -> Result<PathBuf> {
    let found = paths::find_project(cwd);
    let root = match found.root {
        Some(root) => root,
        None => fallback_root(cwd)?,
    };
    if let Some(skipped) = found.skipped {
        if skipped.root == root {
            bail!("{skipped}");
        }
        printer.warn(skipped);
    }
    Ok(root)
}

/// The root of a project that has no `.agents/hooks` yet: the repository root above `cwd`, else
/// `cwd` itself.
fn fallback_root(cwd: &Path) -> Result<PathBuf> {
    let home = paths::home_dir().map(|home| paths::normalized(&home));
    let cwd = paths::normalized(cwd);
    for dir in cwd.ancestors() {
        if dir.parent().is_none() || home.as_deref() == Some(dir) {
            break;
        }
        if dir.join(".git").exists() {
            return Ok(dir.to_path_buf());
        }
    }
    if cwd.parent().is_none() || home.as_deref() == Some(cwd.as_path()) {
        bail!(
            "{} is not a project (the home folder and / never are): run this in a project, or \
             pass --project DIR, --user or --config",
            cwd.display()
        );
    }
    Ok(cwd)
}
