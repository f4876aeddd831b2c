//! `install` with no agent (or `--all`): wires every agent found on this machine, one after
//! another, and says which it wired, which it did not find and which failed (a settings file
//! that does not parse stops that agent, not the others). `uninstall --all` unwires every agent
//! wired at the level.

use anyhow::Result;
use serde::Serialize;

use super::GlobalArgs;
use super::install::{Mode, WiringArgs, wire};
use crate::agents::Agent;
use crate::agents::found::{self, Found};
use crate::agents::settings::{IfMissing, Scope};
use crate::ground::exit::ExitStatus;
use crate::output::{Printer, Screen};

/// The `--json` document.
#[derive(Serialize)]
pub(super) struct Report {
    /// Each agent's own document, as `install <agent> --json` prints it.
    agents: Vec<serde_json::Value>,
    /// The agents found, and what showed each.
    found: Vec<FoundReport>,
    /// The agents not on this machine (install), or not wired at the level (uninstall).
    skipped: Vec<&'static str>,
    /// The agents whose wiring failed, and why.
    failed: Vec<Failed>,
}

impl Report {
    /// Whether an agent's wiring failed.
    pub(super) fn failed_any(&self) -> bool {
        !self.failed.is_empty()
    }

    /// Whether no agent applied at all.
    pub(super) fn none(&self) -> bool {
        self.agents.is_empty() && self.failed.is_empty()
    }
}

#[derive(Serialize)]
struct FoundReport {
    agent: &'static str,
    /// `program` (on PATH) or `folder` (its user settings folder; Hermes: its config.yaml).
    by: &'static str,
    path: String,
}

#[derive(Serialize)]
struct Failed {
    agent: &'static str,
    error: String,
}

/// Wires (or unwires) every agent that applies, and reports; exit 1 when one failed or none
/// applied.
pub(crate) fn run(
    global: &GlobalArgs,
    args: &WiringArgs,
    (mode, if_missing): (Mode, IfMissing),
    also: bool,
    printer: &Printer,
) -> Result<ExitStatus> {
    let (report, screens) = wire_all(global, args, (mode, if_missing), also, printer)?;
    let status = show(&report, &screens, args.json, mode, printer)?;
    if mode == Mode::Install && !args.dry_run {
        super::install::offer_setup(global, printer);
    }
    Ok(status)
}

/// Wires (or unwires) every agent that applies: the report, and each agent's screen.
pub(super) fn wire_all(
    global: &GlobalArgs,
    args: &WiringArgs,
    (mode, if_missing): (Mode, IfMissing),
    also: bool,
    printer: &Printer,
) -> Result<(Report, Vec<Screen>)> {
    let paths = global.paths()?;
    let home = crate::ground::paths::home_dir().unwrap_or_default();
    let on_path = |name: &str| which::which(name).ok();
    let mut report = Report {
        agents: Vec::new(),
        found: Vec::new(),
        skipped: Vec::new(),
        failed: Vec::new(),
    };
    let mut screens: Vec<Screen> = Vec::new();
    for agent in Agent::ALL {
        let applies = match mode {
            Mode::Install => found::found(agent, &on_path, &home, &paths.home)
                .inspect(|how| {
                    report.found.push(FoundReport {
                        agent: agent.name(),
                        by: match how {
                            Found::Program(_) => "program",
                            Found::Folder(_) => "folder",
                        },
                        path: how.path().display().to_string(),
                    });
                })
                .is_some(),
            Mode::Uninstall => wired(agent, args, &home, &paths.home),
        };
        if !applies {
            report.skipped.push(agent.name());
            continue;
        }
        match wire(global, agent, args, (mode, if_missing), also, printer) {
            Ok(done) => {
                if !args.json {
                    for warning in &done.warnings {
                        printer.warn(format_args!("{}: {warning}", agent.name()));
                    }
                }
                report.agents.push(done.document);
                screens.push(done.screen);
            }
            Err(err) => report.failed.push(Failed {
                agent: agent.name(),
                error: format!("{err:#}"),
            }),
        }
    }
    Ok((report, screens))
}

/// Prints what [`wire_all`] did; exit 1 when one agent failed or none applied.
pub(super) fn show(
    report: &Report,
    screens: &[Screen],
    json: bool,
    mode: Mode,
    printer: &Printer,
) -> Result<ExitStatus> {
    let none = report.agents.is_empty() && report.failed.is_empty();
    if json {
        printer.document(&report)?;
    } else {
        for failed in &report.failed {
            printer.error(&anyhow::anyhow!("{}: {}", failed.agent, failed.error));
        }
        for screen in screens {
            printer.show(screen)?;
            printer.line("")?;
        }
        let mut last = Screen::new(false);
        summary(&mut last, report, mode);
        printer.show(&last)?;
    }
    Ok(if none || !report.failed.is_empty() {
        ExitStatus::Error
    } else {
        ExitStatus::Success
    })
}

/// Whether `agent` is wired at the level `args` names (for `uninstall --all`): its settings
/// there route to this tool, or (Hermes) its plugin folder is there.
fn wired(
    agent: Agent,
    args: &WiringArgs,
    home: &std::path::Path,
    hermes: &std::path::Path,
) -> bool {
    if agent.is_hermes() {
        return crate::agents::plugin::folder(hermes).exists();
    }
    let scope = match &args.project {
        None => Scope::User,
        Some(Some(dir)) => Scope::Project(std::path::absolute(dir).unwrap_or_else(|_| dir.clone())),
        Some(None) => match super::shared::current_dir()
            .and_then(|cwd| super::shared::project_root(&cwd, &Printer::new(true)))
        {
            Ok(root) => Scope::Project(root),
            Err(_) => return false,
        },
    };
    let Some(wiring) = agent.wiring() else {
        return crate::agents::module::folder(agent, &scope, home).is_some_and(|folder| {
            crate::agents::module::installed(agent, &folder)
                != crate::agents::module::Installed::Absent
        });
    };
    let named = wiring
        .user_dir_env
        .and_then(crate::ground::env::var_os)
        .map(std::path::PathBuf::from);
    wiring
        .wired_in(agent, &wiring.folder(&scope, home, named))
        .is_some()
}

/// The last lines: what was wired, what was not found, what failed.
fn summary(screen: &mut Screen, report: &Report, mode: Mode) {
    let names = |list: &mut dyn Iterator<Item = &'static str>| {
        list.filter_map(|name| name.parse::<Agent>().ok())
            .map(Agent::title)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let done: Vec<&'static str> = report
        .agents
        .iter()
        .filter_map(|doc| doc.get("agent").and_then(serde_json::Value::as_str))
        .filter_map(|name| Agent::ALL.into_iter().find(|a| a.name() == name))
        .map(Agent::name)
        .collect();
    let (did, skipped) = match mode {
        Mode::Install => ("Wired", "Not found on this machine"),
        Mode::Uninstall => ("Unwired", "Not wired there"),
    };
    if !done.is_empty() {
        screen.line(format_args!("{did}: {}.", names(&mut done.iter().copied())));
    }
    if !report.skipped.is_empty() {
        screen.line(format_args!(
            "{skipped}: {}.",
            names(&mut report.skipped.iter().copied())
        ));
    }
    if !report.failed.is_empty() {
        screen.line(format_args!(
            "Failed (see above): {}.",
            names(&mut report.failed.iter().map(|f| f.agent))
        ));
    }
    if done.is_empty() && report.failed.is_empty() && mode == Mode::Install {
        screen.line(format_args!(
            "No agent was found: looked for each one's program on PATH (claude, codex, gemini, \
             cursor-agent, copilot, droid, qwen, hermes) and its user settings folder. Install \
             the agent first, or name it: `hermes-hooks install <agent>`."
        ));
    }
}
