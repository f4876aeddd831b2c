//! `revoke <hook>` (`remove`, `rm`): drop the approvals of a hook, for every event or one. The
//! hook is named by its command exactly as approved, or as `approve` takes it: an Agent Hooks
//! name as `list` shows it, or its script's path.

use anyhow::{Result, bail};
use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, shared};
use crate::config::Event;
use crate::consent::{names, store};
use crate::ground::exit::ExitStatus;
use crate::ground::paths::Paths;
use crate::output::{Printer, Screen};
use std::path::Path;

#[derive(Args, Debug)]
pub(crate) struct RevokeArgs {
    /// The hook: its command exactly as approved, its script's path, or an Agent Hooks name as
    /// `list` shows it (after `--` when it begins with `-`)
    #[arg(value_name = "HOOK")]
    command: String,
    /// Only the approval for this event (any of its names)
    #[arg(long, value_name = "EVENT", value_parser = super::completions::EventName, hide_possible_values = true)]
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
    let commands = commands_named(&args.command, &paths, event)?;
    let removed = if store::read(&paths.allowlist)?.is_some() {
        store::update(&paths.allowlist, |list| {
            let removed: usize = commands
                .iter()
                .map(|command| list.revoke(command, event_name))
                .sum();
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
            "no approval of '{}'{scope} in {} (name a hook by its command as approved, its \
             script's path, or the name `hermes-hooks list` shows; `hermes-hooks list --long` \
             shows each hook's command)",
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

/// The commands whose approvals `given` names: itself, the command of every declared hook it
/// names (an Agent Hooks name or a script path), and of every approval whose script is gone and
/// was named so (a deleted Agent Hooks folder `given`, a deleted script of that file name).
/// Hooks that cannot be loaded (a broken config) only leave the exact command and the gone.
fn commands_named(given: &str, paths: &Paths, event: Option<Event>) -> Result<Vec<String>> {
    let base = shared::current_dir()?;
    let mut commands = vec![given.to_owned()];
    if let Ok(set) = crate::config::load(crate::dispatch::load_options(paths, event)) {
        for hook in &set.hooks {
            if names(hook, given, &base) && !commands.iter().any(|c| *c == hook.command) {
                commands.push(hook.command.to_string());
            }
        }
    }
    if let Ok(Some(list)) = store::read(&paths.allowlist) {
        for entry in list.entries() {
            let text = |key: &str| entry.get(key).and_then(serde_json::Value::as_str);
            let (Some(command), Some(script)) = (text("command"), text("script")) else {
                continue;
            };
            let script = Path::new(script);
            if gone_name(script) == Some(given)
                && script.symlink_metadata().is_err()
                && !commands.iter().any(|c| c == command)
            {
                commands.push(command.to_owned());
            }
        }
    }
    Ok(commands)
}

/// The name `list` gave the hook whose script is `script`: an Agent Hooks folder's name for
/// `<folder>/scripts/<file>`, else the script's file name.
fn gone_name(script: &Path) -> Option<&str> {
    let parent = script.parent()?;
    if parent.file_name().is_some_and(|name| name == "scripts") {
        return parent.parent()?.file_name()?.to_str();
    }
    script.file_name()?.to_str()
}
