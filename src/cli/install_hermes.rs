//! `install hermes` and `uninstall hermes`: Hermes is wired through its plugin, written into
//! `<home>/plugins/hermes-hooks/` (see [`crate::agents::plugin`]) rather than into a settings
//! file; the same options and the same kind of report as the other agents.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde::Serialize;

use super::GlobalArgs;
use super::install_report::{Done, Mode};
use crate::agents::plugin::{self, Change, FileChange};
use crate::agents::settings::IfMissing;
use crate::output::Screen;

/// The `--json` document.
#[derive(Serialize)]
struct Report {
    agent: &'static str,
    /// The plugin folder.
    folder: String,
    dry_run: bool,
    /// Whether any file changes.
    changed: bool,
    /// The plugin's version (this binary's).
    version: &'static str,
    /// The binary the plugin runs (install only).
    #[serde(skip_serializing_if = "Option::is_none")]
    binary: Option<String>,
    /// What a tool call meets when the binary cannot be found (install only): `block` or
    /// `allow`.
    #[serde(skip_serializing_if = "Option::is_none")]
    if_missing: Option<&'static str>,
    files: Vec<FileReport>,
    /// Whether config.yaml enables the plugin (`null`: it cannot be told).
    enabled: Option<bool>,
    /// The change as a unified diff (with `--dry-run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<String>,
    /// What Hermes needs beyond the files.
    needs: Vec<String>,
    warnings: Vec<String>,
}

#[derive(Serialize)]
struct FileReport {
    file: String,
    action: &'static str,
}

/// Installs or uninstalls the plugin, and reports.
pub(super) fn apply(
    global: &GlobalArgs,
    (mode, if_missing): (Mode, IfMissing),
    dry_run: bool,
) -> Result<Done> {
    let paths = global.paths()?;
    let home = &paths.home;
    let (changes, binary, left) = match mode {
        Mode::Install => {
            let exe = std::env::current_exe().context("cannot find this program's own path")?;
            let changes = plugin::install(home, (&exe, if_missing), dry_run)?;
            (changes, Some(exe), Vec::new())
        }
        Mode::Uninstall => {
            let (changes, left) = plugin::uninstall(home, dry_run)?;
            (changes, None, left)
        }
    };
    let enabled = plugin::enabled(&paths.config);
    let any_change = changes
        .iter()
        .any(|c| !matches!(c.change, Change::Unchanged | Change::Absent));
    let report = Report {
        agent: "hermes",
        folder: plugin::folder(home).display().to_string(),
        dry_run,
        changed: any_change,
        version: plugin::VERSION,
        binary: binary.map(|b| b.display().to_string()),
        if_missing: (mode == Mode::Install).then_some(if_missing.as_str()),
        files: changes
            .iter()
            .map(|c| FileReport {
                file: c.path.display().to_string(),
                action: c.change.as_str(),
            })
            .collect(),
        enabled,
        diff: dry_run.then(|| diff(&changes)),
        needs: needs(mode, enabled, dry_run, &paths.config),
        warnings: left_behind(&left),
    };
    Ok(Done {
        document: serde_json::to_value(&report)?,
        warnings: report.warnings.clone(),
        screen: human(&report, mode),
    })
}

/// What Hermes still needs: the plugin enabled (after install), or no longer listed (after
/// uninstall, where a stale entry is harmless but untidy). The advice works from where the
/// person is: `hermes plugins disable` finds a plugin by its folder, so after the uninstall the
/// entry is taken out by hand.
fn needs(mode: Mode, enabled: Option<bool>, dry_run: bool, config: &Path) -> Vec<String> {
    match (mode, enabled) {
        (Mode::Install, Some(true)) => Vec::new(),
        (Mode::Install, _) => vec![format!(
            "the plugin enabled: run `{}` (Hermes loads only the plugins listed in \
             plugins.enabled of config.yaml, and none in safe mode); if Hermes asks whether the \
             plugin may replace built-in tools, answer no: it replaces none",
            plugin::ENABLE
        )],
        (Mode::Uninstall, Some(true)) if dry_run => vec![format!(
            "{} lists {} in plugins.enabled: run `hermes plugins disable {}` before the \
             uninstall (it finds the plugin by its folder), or take the entry out by hand after",
            config.display(),
            plugin::NAME,
            plugin::NAME
        )],
        (Mode::Uninstall, Some(true)) => vec![format!(
            "{} still lists {} in plugins.enabled: take that entry out by hand (`hermes plugins \
             disable` no longer finds the plugin now that its folder is gone)",
            config.display(),
            plugin::NAME
        )],
        (Mode::Uninstall, _) => Vec::new(),
    }
}

fn left_behind(left: &[PathBuf]) -> Vec<String> {
    if left.is_empty() {
        return Vec::new();
    }
    let names: Vec<String> = left.iter().map(|p| p.display().to_string()).collect();
    vec![format!(
        "the plugin folder holds files install did not write, left as they are: {}",
        names.join(", ")
    )]
}

fn diff(changes: &[FileChange]) -> String {
    let mut text = String::new();
    for change in changes
        .iter()
        .filter(|c| !matches!(c.change, Change::Unchanged | Change::Absent))
    {
        let name = change.path.display().to_string();
        text.push_str(
            &similar::TextDiff::from_lines(&change.before, &change.after)
                .unified_diff()
                .context_radius(3)
                .header(&name, &name)
                .to_string(),
        );
    }
    text
}

fn human(report: &Report, mode: Mode) -> Screen {
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
            Mode::Install => "the plugin is installed there, at this version",
            Mode::Uninstall => "no plugin file written by install is there",
        };
        screen.line(format_args!(
            "Nothing to change in {}: {what}.",
            report.folder
        ));
    } else if !report.dry_run {
        screen.line(format_args!(
            "Hermes plugin {} {}: {}",
            plugin::NAME,
            report.version,
            report.folder
        ));
    }
    for file in &report.files {
        screen.line(format_args!("  {:<10} {}", file.action, file.file));
    }
    if let Some(binary) = &report.binary {
        screen.line(format_args!("It runs: {binary} serve"));
    }
    if !report.needs.is_empty() {
        screen.line(format_args!("Hermes still needs:"));
        for need in &report.needs {
            screen.line(format_args!("  - {need}"));
        }
    }
    screen
}
