//! `install opencode|kilo|pi|cline` and `uninstall` of them: agents that take no hooks in a
//! settings file are wired by writing the files this binary ships for them (a plugin module,
//! Cline's hook scripts; see [`crate::agents::module`]) into the agent's folder, for the person
//! or for one project, with the same options and the same kind of report as the other agents.

use anyhow::{Context as _, Result};
use serde::Serialize;

use super::install_report::{Done, Mode};
use crate::agents::module;
use crate::agents::plugin::{Change, FileChange};
use crate::agents::settings::{IfMissing, Scope};
use crate::agents::{Agent, Module};
use crate::output::Screen;
use crate::output::table::terminal_width;

/// The `--json` document.
#[derive(Serialize)]
struct Report {
    agent: &'static str,
    /// `user` or `project`.
    scope: &'static str,
    /// The folder the files are in.
    folder: String,
    /// Each file and what happened to it (`created`, `updated`, `unchanged`, `removed`,
    /// `absent`).
    files: Vec<FileReport>,
    dry_run: bool,
    /// Whether the file changes.
    changed: bool,
    /// The module's version (this binary's).
    version: &'static str,
    /// The program the module runs (install only): an absolute path for the person's folder,
    /// `hermes-hooks` as found on PATH for a project's (whose files a team shares).
    #[serde(skip_serializing_if = "Option::is_none")]
    binary: Option<String>,
    /// What a tool call meets when the program cannot be found (install only): `block` (the
    /// default) or `allow`.
    #[serde(skip_serializing_if = "Option::is_none")]
    if_missing: Option<&'static str>,
    /// The change as a unified diff (with `--dry-run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
    /// What the person should know about how the agent loads it.
    notes: Vec<String>,
}

#[derive(Serialize)]
struct FileReport {
    file: String,
    action: &'static str,
}

/// Writes or removes the module of `agent` at `scope`, and reports.
pub(super) fn apply(
    agent: Agent,
    scope: &Scope,
    (mode, if_missing): (Mode, IfMissing),
    dry_run: bool,
) -> Result<Done> {
    let home = crate::ground::paths::home_dir()
        .context("cannot find the home folder (HOME is not set)")?;
    let folder = module::folder(agent, scope, &home)
        .with_context(|| format!("{} takes no plugin module", agent.title()))?;
    let (changes, binary) = match mode {
        Mode::Install => {
            let binary = binary_word(scope)?;
            (
                module::install(agent, &folder, (&binary, if_missing), dry_run)?,
                Some(binary),
            )
        }
        Mode::Uninstall => (module::uninstall(agent, &folder, dry_run)?, None),
    };
    let any_change = changes
        .iter()
        .any(|c| !matches!(c.change, Change::Unchanged | Change::Absent));
    let report = Report {
        agent: agent.name(),
        scope: scope.as_str(),
        folder: folder.display().to_string(),
        files: changes
            .iter()
            .map(|c| FileReport {
                file: c.path.display().to_string(),
                action: c.change.as_str(),
            })
            .collect(),
        dry_run,
        changed: any_change,
        version: crate::agents::plugin::VERSION,
        binary,
        if_missing: (mode == Mode::Install).then_some(if_missing.as_str()),
        diff: dry_run.then(|| changes.iter().map(diff).collect()),
        notes: if mode == Mode::Install {
            notes(agent, scope)
        } else {
            Vec::new()
        },
    };
    Ok(Done {
        document: serde_json::to_value(&report)?,
        warnings: Vec::new(),
        screen: human(&report, agent, mode),
    })
}

/// The program the module starts: this binary's absolute path in the person's own folder; the
/// bare name in a project's, which a team commits and each member's PATH resolves.
fn binary_word(scope: &Scope) -> Result<String> {
    match scope {
        Scope::Project(_) => Ok("hermes-hooks".to_owned()),
        Scope::User => {
            let exe = std::env::current_exe().context("cannot find this program's own path")?;
            Ok(exe
                .to_str()
                .context("this program's path is not UTF-8: it cannot be written into the module")?
                .to_owned())
        }
    }
}

/// How the agent loads the module, and how it can be started without it.
fn notes(agent: Agent, scope: &Scope) -> Vec<String> {
    let mut notes = Vec::new();
    match agent.module() {
        Some(Module::OpenCode) => {
            notes.push(format!(
                "{} loads it at start (a running session does not see it); `{} run --pure` \
                 starts with no plugin at all, this one included",
                agent.title(),
                found_program(agent)
            ));
            notes.push(format!(
                "at start {} installs its plugin package into each folder it loads plugins \
                 from; without a network that start waits about a minute",
                agent.title()
            ));
        }
        Some(Module::Pi) => {
            if matches!(scope, Scope::Project(_)) {
                notes.push(
                    "Pi reads a project's extensions only from the folder it is started in: \
                     start it from the project's root"
                        .to_owned(),
                );
            }
            notes.push(
                "Pi loads it at start; `pi --no-extensions` starts with no extension at all, \
                 this one included"
                    .to_owned(),
            );
        }
        Some(Module::ClineHooks) => notes.push(
            "Cline runs these hooks from a task's start; a block there ends the whole task (Cline \
             has no way to refuse one call and go on), and the reason is kept in `hermes-hooks \
             log`"
                .to_owned(),
        ),
        None => {}
    }
    notes
}

/// The program name the agent is started as.
fn found_program(agent: Agent) -> &'static str {
    crate::agents::found::programs(agent)
        .first()
        .copied()
        .unwrap_or_default()
}

fn diff(change: &FileChange) -> String {
    if matches!(change.change, Change::Unchanged | Change::Absent) {
        return String::new();
    }
    let name = change.path.display().to_string();
    similar::TextDiff::from_lines(&change.before, &change.after)
        .unified_diff()
        .context_radius(3)
        .header(&name, &name)
        .to_string()
}

fn human(report: &Report, agent: Agent, mode: Mode) -> Screen {
    let mut screen = Screen::new(false);
    if report.dry_run {
        if report.changed {
            screen.diff(report.diff.as_deref().unwrap_or_default(), "", usize::MAX);
        }
        screen.line(format_args!(
            "Dry run: nothing was written in {}.",
            report.folder
        ));
    }
    if !report.changed {
        let what = match mode {
            Mode::Install => "hermes-hooks's files are there, at this version",
            Mode::Uninstall => "no file of hermes-hooks is there",
        };
        // Whole words to a line: a long folder would otherwise break a word at the edge.
        let said = format!("Nothing to change in {}: {what}.", report.folder);
        for line in crate::ground::text::wrap_words(&said, terminal_width()) {
            screen.line(line);
        }
    } else if !report.dry_run {
        screen.line(format_args!(
            "{} ({}): hermes-hooks {} in {}",
            agent.title(),
            report.scope,
            report.version,
            report.folder
        ));
    }
    for file in &report.files {
        screen.line(format_args!("  {:<10} {}", file.action, file.file));
    }
    if let Some(binary) = &report.binary {
        match agent.module() {
            Some(Module::ClineHooks) => screen.line(format_args!(
                "Each runs: {binary} run --agent cline <Event>"
            )),
            _ => screen.line(format_args!("It runs: {binary} serve")),
        };
        let missing = if report.if_missing == Some("allow") {
            "If hermes-hooks cannot be found, the agent goes on without it (--if-missing allow)."
        } else {
            "If hermes-hooks cannot be found, each tool call is blocked until it is installed \
             again or this is uninstalled."
        };
        for line in crate::ground::text::wrap_words(missing, terminal_width()) {
            screen.line(line);
        }
    }
    for note in &report.notes {
        // Whole words to a line, as wide as the terminal.
        for line in crate::ground::text::wrap_words(&format!("Note: {note}."), terminal_width()) {
            screen.line(line);
        }
    }
    screen
}
