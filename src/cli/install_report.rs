//! What `install` and `uninstall` say: the `--json` document of one agent's wiring, and the
//! same for a person, wrapped to the terminal.

use serde::Serialize;

use crate::agents::Agent;
use crate::agents::settings::{Action, Plan, Wiring};
use crate::agents::version::Release;
use crate::ground::text::wrap_words;
use crate::output::table::terminal_width;
use crate::output::{Printer, Screen};

/// What one agent's install or uninstall did: its `--json` document, and what a person reads.
pub(crate) struct Done {
    pub document: serde_json::Value,
    pub warnings: Vec<String>,
    pub screen: Screen,
}

impl Done {
    /// Prints it alone: the document, or the warnings on stderr and the screen.
    pub(crate) fn print(&self, json: bool, printer: &Printer) -> anyhow::Result<()> {
        if json {
            printer.document(&self.document)?;
        } else {
            for warning in &self.warnings {
                printer.warn(warning);
            }
            printer.show(&self.screen)?;
        }
        Ok(())
    }
}

/// Which of the two commands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Install,
    Uninstall,
}

/// The `--json` document.
#[derive(Serialize)]
pub(super) struct Report {
    pub agent: &'static str,
    pub scope: &'static str,
    /// The settings file (as named; a symlink is written through).
    pub file: String,
    pub format: &'static str,
    pub dry_run: bool,
    /// Whether the file's text changes.
    pub changed: bool,
    /// Where the file as it was is kept (`null`: nothing written, the file is new, or an
    /// uninstall, which keeps none).
    pub backup: Option<String>,
    /// What uninstall removed besides the entries: the file install made, once it holds
    /// nothing else, the folders it leaves empty, and a backup that keeps nothing more.
    pub removed: Vec<String>,
    /// The command each event runs (`<Event>` in place of the event).
    pub command: String,
    /// The agent's release, as read from it (or assumed), which decides the events written
    /// (install only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Why each event left out is: the release that first takes it (install only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
    /// What the wiring does when hermes-hooks cannot be found or started: `block` or `allow`
    /// (install only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub if_missing: Option<&'static str>,
    pub events: Vec<EventReport>,
    /// The change as a unified diff (with `--dry-run`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// What the agent needs beyond the file.
    pub needs: Vec<&'static str>,
    pub warnings: Vec<String>,
}

#[derive(Serialize)]
pub(super) struct LeftOut {
    pub event: &'static str,
    /// The first release that takes it.
    pub since: &'static str,
}

/// The events `plan` left out, each with the release that first takes it.
pub(super) fn left_out(agent: Agent, release: &Release, plan: &Plan) -> Vec<LeftOut> {
    agent
        .events()
        .iter()
        .filter(|own| !release.takes(own))
        .filter(|own| {
            plan.events
                .iter()
                .any(|(name, action)| name == own.name && *action == Action::LeftOut)
        })
        .filter_map(|own| {
            Some(LeftOut {
                event: own.name,
                since: own.since?,
            })
        })
        .collect()
}

#[derive(Serialize)]
pub(super) struct EventReport {
    pub event: String,
    pub action: &'static str,
    /// The agent's timeout for it, in the agent's unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
}

/// `text` after `lead`, wrapped between words to the terminal, later lines indented under the
/// first (a path, one word, is never split).
fn hang(screen: &mut Screen, lead: &str, text: &str) {
    let indent = " ".repeat(lead.chars().count());
    let width = terminal_width().map(|w| w.saturating_sub(indent.len()).max(20));
    for (index, line) in wrap_words(text, width).iter().enumerate() {
        let lead = if index == 0 { lead } else { &indent };
        screen.line(format_args!("{lead}{line}"));
    }
}

/// The events left out, with the release that brings each.
fn say_left_out(screen: &mut Screen, report: &Report, title: &str) {
    if report.left_out.is_empty() {
        return;
    }
    let each: Vec<String> = report
        .left_out
        .iter()
        .map(|left| format!("{} from {}", left.event, left.since))
        .collect();
    hang(
        screen,
        "",
        &format!(
            "Left out: {title} {} does not take {} in its settings (it would warn at every \
             start); run this install again after an upgrade to wire {}.",
            report.version.as_deref().unwrap_or("unknown"),
            each.join(", "),
            if each.len() == 1 { "it" } else { "them" }
        ),
    );
}

pub(super) fn human(report: &Report, agent: Agent, wiring: &Wiring, mode: Mode) -> Screen {
    let mut screen = Screen::new(false);
    if report.dry_run {
        if report.changed {
            screen.diff(report.diff.as_deref().unwrap_or_default(), "", usize::MAX);
        }
        let would = if report.changed {
            "would be"
        } else {
            "would not be"
        };
        hang(
            &mut screen,
            "",
            &format!("Dry run: {} {would} written.", report.file),
        );
    }
    let mut by_action: Vec<(&str, Vec<&str>)> = Vec::new();
    for event in &report.events {
        match by_action.iter_mut().find(|(a, _)| *a == event.action) {
            Some((_, names)) => names.push(&event.event),
            None => by_action.push((event.action, vec![&event.event])),
        }
    }
    let title = agent.title();
    if !report.changed {
        let what = match mode {
            Mode::Install => format!("{title} is already wired to hermes-hooks there"),
            Mode::Uninstall => format!("no wiring of {title} written by install is left there"),
        };
        hang(
            &mut screen,
            "",
            &format!("Nothing to change in {}: {what}.", report.file),
        );
    } else if !report.dry_run {
        hang(
            &mut screen,
            "",
            &format!("{title}, {} settings: {}", report.scope, report.file),
        );
    }
    for (action, names) in &by_action {
        hang(&mut screen, &format!("  {action:<10} "), &names.join(", "));
    }
    say_left_out(&mut screen, report, title);
    if mode == Mode::Install {
        let mut timeouts: Vec<u64> = report.events.iter().filter_map(|e| e.timeout).collect();
        timeouts.sort_unstable();
        timeouts.dedup();
        let shown: Vec<String> = timeouts
            .iter()
            .map(|t| format!("{t}{}", wiring.unit.symbol()))
            .collect();
        hang(
            &mut screen,
            "",
            &format!(
                "Each runs: {} (timeout {})",
                report.command,
                shown.join(", ")
            ),
        );
        let missing = if report.if_missing == Some("allow") {
            "If hermes-hooks cannot be found, the agent goes on without it (--if-missing allow)."
        } else {
            "If hermes-hooks cannot be found, each tool call is blocked until it is installed \
             again or unwired: run `hermes-hooks uninstall --all` before removing the package."
        };
        hang(&mut screen, "", missing);
    }
    if let Some(backup) = &report.backup {
        screen.line(format_args!("The file as it was is kept in {backup}"));
    }
    if !report.removed.is_empty() {
        screen.line(format_args!(
            "Removed, as install made it and nothing else is in it:"
        ));
        for path in &report.removed {
            hang(&mut screen, "  ", path);
        }
    }
    if !report.needs.is_empty() {
        screen.line(format_args!("{title} still needs:"));
        for need in &report.needs {
            hang(&mut screen, "  - ", need);
        }
    }
    screen
}
