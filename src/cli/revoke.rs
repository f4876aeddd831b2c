//! `revoke <command>` (`remove`, `rm`): drop the approvals of a command, for every event or one.

use anyhow::{Result, bail};
use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, shared};
use crate::consent::store;
use crate::exit::ExitStatus;
use crate::output::{Printer, Screen};

#[derive(Args, Debug)]
pub(crate) struct RevokeArgs {
    /// The command exactly as declared in the config
    command: String,
    /// Only the approval for this event (either name)
    #[arg(long, value_name = "EVENT")]
    event: Option<String>,
    /// Print one JSON document instead of a sentence
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Revoked<'a> {
    command: &'a str,
    event: Option<&'static str>,
    removed: usize,
}

pub(crate) fn run(global: &GlobalArgs, args: &RevokeArgs, printer: &Printer) -> Result<ExitStatus> {
    let event = shared::optional_event(args.event.as_deref(), printer)?;
    let paths = global.paths()?;
    let event_name = event.map(crate::config::Event::name);
    let removed = if store::read(&paths.allowlist)?.is_some() {
        store::update(&paths.allowlist, |list| {
            let removed = list.revoke(&args.command, event_name);
            (removed > 0, removed)
        })?
    } else {
        0
    };
    if args.json {
        // The document says what happened even when nothing matched (`removed`: 0, exit 1).
        printer.document(&Revoked {
            command: &args.command,
            event: event_name,
            removed,
        })?;
    }
    if removed == 0 {
        let scope = event_name.map_or_else(String::new, |e| format!(" for {e}"));
        bail!(
            "no approval of '{}'{scope} in {} (`hermes-hooks list` shows the commands as declared)",
            args.command,
            paths.allowlist.display()
        );
    }
    if !args.json {
        let noun = if removed == 1 {
            "approval"
        } else {
            "approvals"
        };
        let mut screen = Screen::new(false);
        screen.line(format_args!(
            "Removed {removed} {noun} of '{}'.",
            args.command
        ));
        printer.show(&screen)?;
    }
    Ok(ExitStatus::Success)
}
