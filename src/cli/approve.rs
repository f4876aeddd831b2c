//! `approve`: the review step. Each hook that is not approved, changed or unpinned (or the ones
//! named) is shown with its script's sha256 and first lines and confirmed on a terminal; `--yes`
//! approves without asking. Writes go through the same locked, atomic path as `run`.

use std::io::{IsTerminal as _, Read as _};
use std::path::Path;

use anyhow::{Context as _, Result, bail};
use clap::Args;
use dialoguer::Confirm;
use dialoguer::console::Term;
use serde::Serialize;

use super::{GlobalArgs, shared};
use crate::config::HookSpec;
use crate::consent::store;
use crate::consent::{Assessment, ConsentState, approval_for, assess, record};
use crate::exit::ExitStatus;
use crate::output::{Printer, Screen};

/// Lines of the script shown for review.
const PREVIEW_LINES: usize = 12;

#[derive(Args, Debug)]
pub(crate) struct ApproveArgs {
    /// Approve the hooks that run this command, exactly as declared [default: every hook that is
    /// unapproved, changed or unpinned]
    command: Option<String>,
    /// Only hooks of this event (either name)
    #[arg(long, value_name = "EVENT")]
    event: Option<String>,
    /// Also re-approve hooks that are approved already, pinning their current content
    #[arg(long)]
    all: bool,
    /// Approve without asking (for scripts and CI); without a terminal, approve refuses unless
    /// this is given
    #[arg(short, long)]
    yes: bool,
    /// Print one JSON document instead of a line per hook
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Decision {
    event: &'static str,
    command: String,
    script: Option<String>,
    sha256: Option<String>,
    was: &'static str,
}

#[derive(Serialize, Default)]
struct Outcome {
    approved: Vec<Decision>,
    declined: Vec<Decision>,
    skipped: Vec<Decision>,
}

fn decision_for(hook: &HookSpec, assessment: &Assessment, sha256: Option<String>) -> Decision {
    Decision {
        event: hook.event.name(),
        command: hook.command.clone(),
        script: assessment.script.as_ref().map(|p| p.display().to_string()),
        sha256,
        was: assessment.state.as_str(),
    }
}

pub(crate) fn run(
    global: &GlobalArgs,
    args: &ApproveArgs,
    printer: &Printer,
) -> Result<ExitStatus> {
    let only = shared::optional_event(args.event.as_deref(), printer)?;
    let loaded = shared::load(global, only, printer)?;
    let list = store::read(&loaded.paths.allowlist)
        .context("cannot approve")?
        .unwrap_or_default();
    let base = shared::current_dir()?;
    let named: Vec<&HookSpec> = loaded
        .set
        .hooks
        .iter()
        .filter(|hook| args.command.as_ref().is_none_or(|c| *c == hook.command))
        .collect();
    if let (Some(command), true) = (&args.command, named.is_empty()) {
        let scope = only.map_or_else(String::new, |e| format!(" on {e}"));
        bail!(
            "no hook{scope} in {} runs '{command}'",
            loaded.paths.config.display()
        );
    }
    let pending: Vec<(&HookSpec, Assessment)> = named
        .into_iter()
        .map(|hook| (hook, assess(&list, hook, &base)))
        .filter(|(_, a)| args.all || a.state != ConsentState::Approved)
        .collect();
    let mut outcome = Outcome::default();
    if pending.is_empty() {
        if !args.json {
            let mut screen = Screen::new(false);
            screen.line("Nothing to approve: every hook is approved and pinned.");
            printer.show(&screen)?;
        }
    } else {
        let interactive = !args.yes;
        if interactive && !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
            bail!(
                "approve asks before each hook and needs a terminal for that; pass --yes to approve without asking"
            );
        }
        for (hook, assessment) in &pending {
            if assessment.sha256.is_none() {
                let script = assessment
                    .script
                    .as_ref()
                    .map_or_else(|| "(none found)".to_owned(), |p| p.display().to_string());
                printer.warn(format!(
                    "cannot approve {} '{}': its script {script} cannot be read, so there is nothing to pin",
                    hook.event, hook.command
                ));
                outcome.skipped.push(decision_for(hook, assessment, None));
                continue;
            }
            let yes = !interactive || confirm(hook, assessment, printer)?;
            let approval = approval_for(hook, assessment);
            let decision = decision_for(hook, assessment, approval.sha256.clone());
            if yes {
                record(&loaded.paths.allowlist, &[approval])?;
                if !args.json {
                    printer.show(&approved_line(&decision))?;
                }
                outcome.approved.push(decision);
            } else {
                outcome.declined.push(decision);
            }
        }
        if !args.json {
            let declined = outcome.declined.len();
            let tail = if declined > 0 {
                format!(", declined {declined}")
            } else {
                String::new()
            };
            printer.note(format!("approved {}{tail}", outcome.approved.len()));
        }
    }
    if args.json {
        printer.document(&outcome)?;
    }
    Ok(if outcome.skipped.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Error
    })
}

fn approved_line(decision: &Decision) -> Screen {
    let sha = match decision.sha256.as_deref() {
        None => "no script to pin".to_owned(),
        sha => crate::consent::fingerprint::short_sha256(sha),
    };
    let mut screen = Screen::new(false);
    screen.line(format_args!(
        "approved  {}  {}  ({sha})",
        decision.event, decision.command
    ));
    screen
}

/// Shows the hook for review on stderr and asks; the default answer is no.
fn confirm(hook: &HookSpec, assessment: &Assessment, printer: &Printer) -> Result<bool> {
    let mut review = Screen::new(false);
    review.blank().line(format_args!(
        "{}  {}  declared at {}",
        hook.event,
        hook.source.as_str(),
        hook.origin
    ));
    review.line(format_args!("  command:  {}", hook.command));
    review.line(format_args!("  state:    {}", assessment.state.as_str()));
    if let Some(script) = &assessment.script {
        review.line(format_args!("  script:   {}", script.display()));
    }
    match (&assessment.sha256, &assessment.pinned) {
        (Some(now), Some(was)) if assessment.state == ConsentState::Changed => {
            review.line(format_args!("  sha256:   {now}  (approved as {was})"));
        }
        (Some(now), _) => {
            review.line(format_args!("  sha256:   {now}"));
        }
        (None, _) => {
            review.line("  sha256:   (no readable script to pin)");
        }
    }
    if let Some(script) = &assessment.script {
        for line in preview(script) {
            review.line(line);
        }
    }
    printer.show_on_stderr(&review);
    Confirm::new()
        .with_prompt("Approve this hook?")
        .default(false)
        .interact_on(&Term::stderr())
        .context("reading the answer")
}

/// The first lines of the script, or a note when it is binary or unreadable.
fn preview(script: &Path) -> Vec<String> {
    let mut head = Vec::new();
    let read =
        crate::limits::open_regular(script).and_then(|f| f.take(8 * 1024).read_to_end(&mut head));
    if read.is_err() {
        return vec!["  (the script cannot be read)".to_owned()];
    }
    if head.contains(&0) {
        return vec!["  (a binary file)".to_owned()];
    }
    let text = String::from_utf8_lossy(&head);
    let mut lines = vec!["  first lines:".to_owned()];
    lines.extend(text.lines().take(PREVIEW_LINES).map(|l| format!("  | {l}")));
    lines
}
