//! `install <agent>`: wires an agent's own settings file so each of its events with a
//! counterpart here runs `hermes-hooks run --agent <agent> <Event>`; with `--dry-run`, the
//! change as a diff. The file mechanics are `agents::settings`; what differs per agent is data
//! in each agent's file. `uninstall` shares the options and the report.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context as _, Result, bail};
use clap::Args;

pub(crate) use super::install_report::{Done, Mode};
use super::install_report::{EventReport, Report, human, left_out};
use super::{GlobalArgs, shared};
use crate::agents::settings::{self, Action, Plan, Scope, Settings, Wiring};
use crate::agents::version::{self, Release};
use crate::agents::{Agent, AgentEvent};
use crate::config::{self, Event};
use crate::ground::env;
use crate::ground::exit::ExitStatus;
use crate::ground::paths;
use crate::output::Printer;

/// The help after `install`'s options.
const AFTER_HELP: &str = "Settings files: Claude Code <dir>/.claude/settings.json \
(CLAUDE_CONFIG_DIR for --user); Codex <dir>/.codex/config.toml [[hooks.<Event>]] tables, or \
hooks.json beside it when that already holds the hooks (CODEX_HOME for --user); Gemini CLI \
<dir>/.gemini/settings.json; Cursor <dir>/.cursor/hooks.json; GitHub Copilot CLI \
<dir>/.github/hooks/hermes-hooks.json (~/.copilot/hooks/hermes-hooks.json with --user); Factory \
Droid <dir>/.factory/settings.json; Qwen Code <dir>/.qwen/settings.json. <dir> is the home \
folder (the default: the user's settings, which apply in every project, as the user's rules and \
hooks do), or the project root with --project (for a team that commits its settings).\n\nWith \
no agent (or --all), install wires every agent found on this machine (its program on PATH: \
claude, codex, gemini, cursor-agent, copilot, droid, qwen, hermes; or its user settings folder), \
one after another, then says which it wired, which it did not find and which failed (exit 1 when \
one failed or none was found); `uninstall --all` unwires every agent wired at the level.\n\nThe \
command written names the program bare \
(`hermes-hooks`) in a project's settings, which are shared through git, so every user needs \
hermes-hooks on PATH; in user settings it is this program's absolute path. Each event's timeout is \
set 5s above the longest timeout of the hooks that would run for it (at least the 60s default), in \
the agent's unit (Gemini: milliseconds). With --if-missing block (the default), the command is \
followed by shell text that turns \"cannot be found or started\" (exit 126 or 127) into exit 2 \
on the event before a tool call: a block, with one line saying how to install hermes-hooks or \
unwire (--if-missing allow writes the command alone); the Hermes plugin, the plugin modules \
(OpenCode, Kilo Code, Pi) and Cline's scripts block a tool call the same way when the program \
they name cannot be found. Run from \
npx's cache, install refuses: install the package first. Nothing else of the file changes; a file that does not \
parse, or a symlink from a project to a file outside it, is refused. The file as it was is kept as \
<file>.hermes-hooks.bak. Installing twice changes nothing.\n\nOnly the events the installed release of the agent \
takes are written (Claude Code warns about a settings key it does not know at every start): the \
release is read from the agent's --version (Claude Code 2.1.197 is assumed when `claude` cannot \
be run), each event left out is said with the release that brings it, and an entry install wrote \
for an event the release does not take is removed.\n\nOne wiring per agent and person: \
where the agent is already wired at the other level (its user settings when installing into a \
project's, or the reverse), every hook would run twice on each call, so install refuses (exit 1) \
and names that file and the `hermes-hooks uninstall <agent> --user` (or `--project`) that removes \
it; --also wires both anyway.\n\nhermes: the plugin (plugin.yaml and __init__.py, which run the \
Agent Hooks inside Hermes with every effect Hermes allows a plugin) is written into <hermes \
home>/plugins/hermes-hooks/, naming this program's absolute path; Hermes loads it once `hermes \
plugins enable hermes-hooks` lists it.";

/// Options of `install` and `uninstall`.
// `Option<Option<_>>` is clap's way to spell a flag whose value may be left out.
#[allow(clippy::option_option)]
#[allow(clippy::struct_excessive_bools)] // one per flag of the command line, as clap's structs have
#[derive(Args, Debug)]
pub(crate) struct WiringArgs {
    /// The agent: claude-code, codex, gemini, cursor, copilot, droid, qwen, opencode, kilo, pi
    /// (their plugin module), cline (its hook files) or hermes (its plugin); left out, every
    /// agent found on this machine (install only)
    #[arg(value_parser = [
        "claude-code",
        "codex",
        "gemini",
        "cursor",
        "copilot",
        "droid",
        "qwen",
        "opencode",
        "kilo",
        "pi",
        "cline",
        "hermes"
    ])]
    pub(super) agent: Option<String>,
    /// Every agent: for install, each one found on this machine (its program on PATH or its
    /// user settings folder); for uninstall, each one wired at the level
    #[arg(long, conflicts_with = "agent")]
    pub(super) all: bool,
    /// The agent's user settings, in the home folder, which apply in every project (the default)
    #[arg(long, conflicts_with = "project")]
    pub(super) user: bool,
    /// The project's settings instead, for a team that commits them (DIR: the project root)
    /// [default DIR: the project found from the current directory, else the repository root,
    /// else the current directory]
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    pub(super) project: Option<Option<PathBuf>>,
    /// Print the change as a unified diff on stdout and write nothing
    #[arg(long)]
    pub(super) dry_run: bool,
    /// Print one JSON document: the file, each event's change, the backup, what is left to do
    #[arg(long)]
    pub(super) json: bool,
}

/// `install`'s arguments.
#[derive(Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub(crate) struct InstallArgs {
    #[command(flatten)]
    pub(super) wiring: WiringArgs,
    /// Wire the agent here even though its other level (the user's settings, or the project's)
    /// is wired already: every hook then runs twice on each call
    #[arg(long)]
    pub(super) also: bool,
    /// When hermes-hooks cannot be found or started (the package removed, a teammate without
    /// it): `block` each call the guards would check, saying how to install it; `allow` lets
    /// the agent go on as with any hook that fails
    #[arg(long, value_name = "WHAT", value_enum, default_value_t = IfMissingArg::Block)]
    pub(super) if_missing: IfMissingArg,
}

/// `--if-missing`'s values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum IfMissingArg {
    Block,
    Allow,
}

impl From<IfMissingArg> for settings::IfMissing {
    fn from(arg: IfMissingArg) -> Self {
        match arg {
            IfMissingArg::Block => Self::Block,
            IfMissingArg::Allow => Self::Allow,
        }
    }
}

pub(crate) fn run(
    global: &GlobalArgs,
    args: &InstallArgs,
    printer: &Printer,
) -> Result<ExitStatus> {
    apply(
        global,
        &args.wiring,
        (Mode::Install, args.if_missing.into()),
        args.also,
        printer,
    )
}

/// Installs or uninstalls the agent `args` names, and reports.
/// `also`: install even where the agent's other level is wired already.
pub(super) fn apply(
    global: &GlobalArgs,
    args: &WiringArgs,
    (mode, if_missing): (Mode, settings::IfMissing),
    also: bool,
    printer: &Printer,
) -> Result<ExitStatus> {
    let Some(name) = &args.agent else {
        bail!(
            "name the agent to {} (claude-code, codex, gemini, cursor, copilot, droid, qwen, \
             opencode, kilo, pi, cline or hermes), or pass --all",
            verb(mode)
        );
    };
    let agent: Agent = name.parse()?;
    wire(global, agent, args, (mode, if_missing), also, printer)?.print(args.json, printer)?;
    if mode == Mode::Install && !args.dry_run {
        offer_setup(global, printer);
    }
    Ok(ExitStatus::Success)
}

/// On install where nothing is approved yet, a note that `setup` offers the recommended packs:
/// wiring alone guards nothing.
pub(super) fn offer_setup(global: &GlobalArgs, printer: &Printer) {
    let Ok(paths) = global.paths() else {
        return;
    };
    let approved = crate::consent::store::read(&paths.allowlist)
        .ok()
        .flatten()
        .is_some_and(|list| list.entries().next().is_some());
    if !approved {
        printer.note(format_args!(
            "nothing is approved yet, so the wiring guards nothing: `hermes-hooks setup` writes \
             the recommended rule packs ({}) for review and approves them",
            crate::engine::rules::packs::RECOMMENDED.join(", ")
        ));
    }
}

/// Installs or uninstalls an agent wired through a plugin: Hermes's own, or a plugin module.
fn wire_plugin(
    global: &GlobalArgs,
    agent: Agent,
    args: &WiringArgs,
    (mode, if_missing): (Mode, settings::IfMissing),
    printer: &Printer,
) -> Result<Done> {
    if agent.module().is_some() {
        let cwd = shared::current_dir()?;
        let scope = scope_of(args, &cwd, printer)?;
        return super::install_module::apply(agent, &scope, (mode, if_missing), args.dry_run);
    }
    // With every agent, the level is the other agents': the plugin has one place.
    if (args.user || args.project.is_some()) && args.agent.is_some() {
        bail!(
            "`{} hermes` takes no --user or --project: the plugin goes into the Hermes home \
             (--hermes-home or HERMES_HOME)",
            verb(mode)
        );
    }
    super::install_hermes::apply(global, (mode, if_missing), args.dry_run)
}

/// Installs or uninstalls `agent` at the level `args` names.
pub(super) fn wire(
    global: &GlobalArgs,
    agent: Agent,
    args: &WiringArgs,
    (mode, if_missing): (Mode, settings::IfMissing),
    also: bool,
    printer: &Printer,
) -> Result<Done> {
    let Some(wiring) = agent.wiring() else {
        return wire_plugin(global, agent, args, (mode, if_missing), printer);
    };
    if mode == Mode::Install {
        refuse_npx(agent)?;
    }
    let cwd = shared::current_dir()?;
    let scope = scope_of(args, &cwd, printer)?;
    if mode == Mode::Install && !also {
        let home = paths::home_dir();
        let folder_of = |s: &Scope| {
            home.as_ref()
                .map(|home| wiring.folder(s, home, user_dir(wiring)))
        };
        super::install_twice::refuse_second(agent, wiring, &scope, &folder_of, &cwd, printer)?;
    }
    let mut opened = open_all(wiring, &scope)?;
    let binary = binary_word(&scope)?;
    let release = version::installed(agent);
    let (index, plan, timeouts) = match mode {
        Mode::Install => install_into(
            &mut opened,
            global,
            (agent, wiring),
            (&scope, &cwd),
            (&binary, if_missing),
            &release,
        )?,
        Mode::Uninstall => uninstall_from(&mut opened, agent, wiring)?,
    };
    if mode == Mode::Install
        && matches!(scope, Scope::Project(_))
        && which::which("hermes-hooks").is_err()
    {
        printer.warn(format!(
            "hermes-hooks is not on PATH here, and the project's settings name it bare: {} will \
             not find it until it is (`hermes-hooks doctor` checks this)",
            agent.title()
        ));
    }
    let written = finish(&opened, index, (&scope, wiring), args.dry_run, mode)?;
    let settings = &opened[index];
    let report = Report {
        agent: agent.name(),
        scope: scope.as_str(),
        file: settings.path.display().to_string(),
        format: settings.format.as_str(),
        dry_run: args.dry_run,
        changed: written.changed,
        backup: written.backup.map(|b| b.display().to_string()),
        removed: written
            .removed
            .iter()
            .map(|path| path.display().to_string())
            .collect(),
        command: settings::command(&binary, agent, "<Event>"),
        version: (mode == Mode::Install && release.version.is_some()).then(|| release.shown()),
        left_out: if mode == Mode::Install {
            left_out(agent, &release, &plan)
        } else {
            Vec::new()
        },
        if_missing: (mode == Mode::Install).then_some(match if_missing {
            settings::IfMissing::Block => "block",
            settings::IfMissing::Allow => "allow",
        }),
        events: plan
            .events
            .iter()
            .map(|(event, action)| EventReport {
                event: event.clone(),
                action: action.as_str(),
                timeout: timeouts
                    .get(event)
                    .copied()
                    .filter(|_| !matches!(action, Action::Removed | Action::LeftOut)),
            })
            .collect(),
        diff: args.dry_run.then_some(written.diff),
        needs: if mode == Mode::Install {
            wiring.needs(&scope).to_vec()
        } else {
            Vec::new()
        },
        warnings: plan.warnings,
    };
    Ok(Done {
        document: serde_json::to_value(&report)?,
        warnings: report.warnings.clone(),
        screen: human(&report, agent, wiring, mode),
    })
}

/// Whose settings: the user's (the default, `--user`), `--project DIR`, or with a bare
/// `--project` the project found from `cwd`.
fn scope_of(args: &WiringArgs, cwd: &Path, printer: &Printer) -> Result<Scope> {
    Ok(match &args.project {
        None => Scope::User,
        Some(Some(dir)) => Scope::Project(std::path::absolute(dir)?),
        Some(None) => Scope::Project(super::shared::project_root(cwd, printer)?),
    })
}

/// Reads every settings file of the agent's folder for `scope`.
fn open_all(wiring: &Wiring, scope: &Scope) -> Result<Vec<Settings>> {
    let home = paths::home_dir().context("cannot find the home folder (HOME is not set)")?;
    let folder = wiring.folder(scope, &home, user_dir(wiring));
    let inside = match scope {
        Scope::Project(root) => Some(root.as_path()),
        Scope::User => None,
    };
    wiring
        .files
        .iter()
        .map(|file| Settings::open(&folder.join(file.name), file.format, inside))
        .collect()
}

/// Which file, what happened per event, and each event's timeout.
type Planned = (usize, Plan, HashMap<String, u64>);

/// Wires the file that already has hooks (else the first one).
fn install_into(
    opened: &mut [Settings],
    global: &GlobalArgs,
    (agent, wiring): (Agent, &Wiring),
    (scope, cwd): (&Scope, &Path),
    (binary, if_missing): (&str, settings::IfMissing),
    release: &Release,
) -> Result<Planned> {
    let index = opened.iter().position(Settings::has_hooks).unwrap_or(0);
    let longest = longest_timeouts(global, scope, cwd);
    let timeout = |own: &AgentEvent| timeout_of(own, &longest, wiring);
    let plan = settings::install(
        &mut opened[index],
        agent,
        wiring,
        (binary, if_missing),
        timeout,
        &|event| release.takes(event),
    )?;
    let timeouts = agent
        .events()
        .iter()
        .map(|own| (own.name.to_owned(), timeout_of(own, &longest, wiring)))
        .collect();
    Ok((index, plan, timeouts))
}

/// Unwires every file of the agent's folder; the one that changed is reported.
fn uninstall_from(opened: &mut [Settings], agent: Agent, wiring: &Wiring) -> Result<Planned> {
    let mut plan = Plan::default();
    for settings in opened.iter_mut() {
        let one = settings::uninstall(settings, agent, wiring)?;
        plan.events.extend(one.events);
        plan.warnings.extend(one.warnings);
    }
    let index = opened
        .iter()
        .position(|s| s.before.is_some() && s.before.as_deref() != Some(s.text().as_str()))
        .unwrap_or(0);
    Ok((index, plan, HashMap::new()))
}

fn verb(mode: Mode) -> &'static str {
    match mode {
        Mode::Install => "install",
        Mode::Uninstall => "uninstall",
    }
}

/// Refuses to wire `agent` to a program in npx's cache (see [`ephemeral_binary`]).
fn refuse_npx(agent: Agent) -> Result<()> {
    if let Some(cache) = ephemeral_binary() {
        bail!(
            "hermes-hooks runs here from npx's cache ({}), which the agent cannot count on once \
             npx is done: install it first (npm install -g hermes-hooks, pip install hermes-hooks \
             or cargo install hermes-hooks), then run `hermes-hooks install {}`",
            cache.display(),
            agent.name()
        );
    }
    Ok(())
}

/// Where this program runs from when that is npx's cache (`~/.npm/_npx/<hash>/`): a place npm
/// may empty at any time, so no settings should name it, and a project's bare `hermes-hooks` is
/// on no PATH once npx is done.
fn ephemeral_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let at = exe.components().position(|c| c.as_os_str() == "_npx")?;
    Some(exe.components().take(at + 2).collect())
}

/// The user settings folder an agent's variable names (`CODEX_HOME`), when set.
fn user_dir(wiring: &Wiring) -> Option<PathBuf> {
    wiring.user_dir_env.and_then(env::var_os).map(PathBuf::from)
}

/// How the settings name this program: bare in a project's settings (shared through git, so a
/// path of this machine would be wrong on the next), this binary's absolute path in the user's
/// own (which the agent then finds whatever its PATH).
fn binary_word(scope: &Scope) -> Result<String> {
    match scope {
        Scope::Project(_) => Ok("hermes-hooks".to_owned()),
        Scope::User => {
            let exe = std::env::current_exe().context("cannot find this program's own path")?;
            let text = exe
                .to_str()
                .context("this program's path is not UTF-8: it cannot be written into settings")?;
            Ok(shlex::try_quote(text)
                .context("this program's path cannot be quoted for a shell")?
                .into_owned())
        }
    }
}

/// For each event, the longest timeout of the hooks declared for it (config.yaml, user and
/// project Agent Hooks, as `run` would load them from the project).
fn longest_timeouts(global: &GlobalArgs, scope: &Scope, cwd: &Path) -> HashMap<Event, Duration> {
    let start = match scope {
        Scope::Project(root) => root.as_path(),
        Scope::User => cwd,
    };
    global
        .paths_from(start)
        .ok()
        .and_then(|paths| config::load(crate::dispatch::load_options(&paths, None)).ok())
        .map(|set| settings::longest(&set))
        .unwrap_or_default()
}

/// The agent's timeout for its event `own`: a little above the longest hook timeout for it,
/// and never below the default hook timeout (so a hook added later with the default fits).
fn timeout_of(own: &AgentEvent, longest: &HashMap<Event, Duration>, wiring: &Wiring) -> u64 {
    let event = own
        .table
        .and_then(|t| Event::parse(t).ok())
        .map(|r| r.event);
    let floor = Duration::from_secs(config::hermes::DEFAULT_TIMEOUT_SECS);
    let hooks = event
        .and_then(|e| longest.get(&e).copied())
        .unwrap_or_default();
    settings::timeout_for(hooks.max(floor), wiring.unit)
}

/// What was done to the file.
struct Written {
    changed: bool,
    backup: Option<PathBuf>,
    /// What uninstall removed besides the entries (a file or folder install made, a backup
    /// that kept nothing more).
    removed: Vec<PathBuf>,
    diff: String,
}

/// Writes the changed file (never with `--dry-run`; a missing file only on install): on install
/// with its backup, on uninstall without one, and removing what install made and uninstall left
/// with nothing in it.
fn finish(
    opened: &[Settings],
    index: usize,
    (scope, wiring): (&Scope, &Wiring),
    dry_run: bool,
    mode: Mode,
) -> Result<Written> {
    let create = mode == Mode::Install;
    let root = match scope {
        Scope::Project(root) => Some(root.as_path()),
        Scope::User => None,
    };
    let mut removed = Vec::new();
    let mut unwrite = |settings: &Settings, after: &str| -> Result<()> {
        removed.extend(settings::unwrite(settings, after, wiring.new_file, root)?.removed);
        Ok(())
    };
    let settings = &opened[index];
    let before = settings.before.as_deref().unwrap_or_default();
    let after = settings.text();
    let changed =
        settings.before.as_deref() != Some(after.as_str()) && (create || settings.before.is_some());
    let name = settings.path.display().to_string();
    let diff = similar::TextDiff::from_lines(before, after.as_str())
        .unified_diff()
        .context_radius(3)
        .header(&name, &name)
        .to_string();
    let mut backup = None;
    if changed && !dry_run {
        match mode {
            Mode::Install => backup = settings::write(settings, &after, *scope == Scope::User)?,
            Mode::Uninstall => unwrite(settings, &after)?,
        }
    }
    // Uninstall may change another file of the folder as well.
    for other in opened
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != index)
        .map(|(_, s)| s)
    {
        if other.before.is_some()
            && other.before.as_deref() != Some(other.text().as_str())
            && !dry_run
        {
            match mode {
                Mode::Install => {
                    settings::write(other, &other.text(), *scope == Scope::User)?;
                }
                Mode::Uninstall => unwrite(other, &other.text())?,
            }
        }
    }
    Ok(Written {
        changed,
        backup,
        removed,
        diff,
    })
}
