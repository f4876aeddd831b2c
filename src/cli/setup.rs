//! `setup`: from a fresh install to every agent on this machine guarded, in one flow. It writes
//! the recommended rule packs into the user's rules file (which applies in every project), shows
//! them for review and approves the file, then wires every agent it finds in the user's
//! settings. Each step is the command a person could run alone (`new --rules`, `approve`,
//! `install`); nothing is wired when the rules are not approved.

use std::io::IsTerminal as _;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use super::approve::{self, ApproveArgs};
use super::install::{Mode, WiringArgs};
use super::{GlobalArgs, install_all, new_rules};
use crate::agents::settings::IfMissing;
use crate::ground::exit::ExitStatus;
use crate::output::{Printer, Screen};

pub(crate) use crate::engine::rules::packs::RECOMMENDED;

// `Option<Option<Vec<_>>>`: the one value is a list, which clap would otherwise take as several.
#[allow(clippy::option_option)]
#[derive(Args, Debug)]
#[command(
    after_help = "Steps, each the command a person could run alone: 1. `new --rules \
    PACKS` writes the packs into the user's rules file (<hermes home>/hermes-hooks/rules.yaml, \
    which applies in every project; a pack the file holds already is not written again). 2. \
    `approve` shows every rule of the file (what it matches, what the model is told) and asks \
    once for the file. 3. `install` with no agent wires every agent found on this machine in its \
    user settings. When the file is not approved, nothing is wired and setup exits 1. Without a \
    terminal, setup refuses unless --yes is given, and --json needs --yes (there is nobody to \
    ask)."
)]
pub(crate) struct SetupArgs {
    /// The packs to write and approve: `all`, a pack's name, or several joined by commas
    /// (`new --rules` alone lists them) [default: destructive,git-discard,force-push,secrets]
    #[arg(long, value_name = "PACKS", num_args = 1, value_parser = new_rules::PackChoice)]
    packs: Option<Option<Vec<&'static str>>>,
    /// Approve the rules file without asking (for scripts)
    #[arg(short, long)]
    yes: bool,
    /// Print one JSON document: the packs written, the approval, each agent wired (needs --yes)
    #[arg(long)]
    json: bool,
}

/// The `--json` document.
#[derive(Serialize)]
struct Report {
    /// What `new --rules` wrote.
    rules: serde_json::Value,
    /// What `approve` decided.
    approval: serde_json::Value,
    /// Whether the rules file is approved now.
    approved: bool,
    /// What `install` wired (`null` when nothing was, for want of an approval).
    install: Option<serde_json::Value>,
}

pub(crate) fn run(global: &GlobalArgs, args: &SetupArgs, printer: &Printer) -> Result<ExitStatus> {
    if args.json && !args.yes {
        anyhow::bail!("setup --json asks nothing, so it needs --yes");
    }
    // Asked before anything is written: without a terminal there is nobody to review the rules.
    if !(args.yes || std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        anyhow::bail!(
            "setup shows the rules for review and asks before approving them, which needs a \
             terminal; pass --yes to approve them without asking"
        );
    }
    let packs: Vec<&'static str> = args
        .packs
        .clone()
        .flatten()
        .unwrap_or_else(|| RECOMMENDED.to_vec());
    let written = new_rules::write_packs(global, &packs, None, printer)?;
    if !args.json {
        let mut screen = Screen::new(false);
        screen.line("1. Rule packs, in the user's rules file (every project):");
        for name in written.packs.iter().chain(&written.already) {
            let about = crate::engine::rules::packs::find(name).map_or("", |pack| pack.about);
            screen.line(format_args!("   {name}: {about}"));
        }
        screen.line(format_args!("   {}", written.file));
        screen.line("2. Review: each rule, then one question for the file.");
        printer.show(&screen)?;
    }
    let reviewed = approve::review(
        global,
        &ApproveArgs::of(written.file.clone(), args.yes),
        printer,
        !args.json,
    )?;
    let rules = serde_json::to_value(&written)?;
    if !reviewed.all_approved {
        if args.json {
            printer.document(&Report {
                rules,
                approval: reviewed.document,
                approved: false,
                install: None,
            })?;
        } else {
            let mut screen = Screen::new(false);
            screen.line(format_args!(
                "The rules file is not approved, so no agent was wired: nothing is guarded. Run \
                 `hermes-hooks setup` again when you are ready, or edit {} first.",
                written.file
            ));
            printer.show(&screen)?;
        }
        return Ok(ExitStatus::Error);
    }
    if !args.json {
        printer.show(
            Screen::new(false).line("3. Every agent on this machine, wired for every project:"),
        )?;
    }
    let wiring = WiringArgs {
        agent: None,
        all: true,
        user: false,
        project: None,
        dry_run: false,
        json: args.json,
    };
    let (report, screens) = install_all::wire_all(
        global,
        &wiring,
        (Mode::Install, IfMissing::Block),
        false,
        printer,
    )?;
    if args.json {
        let failed = report.failed_any() || report.none();
        printer.document(&Report {
            rules,
            approval: reviewed.document,
            approved: true,
            install: Some(serde_json::to_value(&report)?),
        })?;
        return Ok(if failed {
            ExitStatus::Error
        } else {
            ExitStatus::Success
        });
    }
    let status = install_all::show(&report, &screens, false, Mode::Install, printer)?;
    printer.show(Screen::new(false).line(
        "`hermes-hooks doctor` checks it all; `hermes-hooks log` shows what the guards decided.",
    ))?;
    Ok(status)
}
