//! `completions <shell>`: the script that sets up completion in a shell. The script calls this
//! binary back for each completion (`COMPLETE=<shell> hermes-hooks -- <words>`, clap_complete's
//! protocol), so what completes comes from the command-line definition, and for `approve` and
//! `revoke` from the hooks `list` shows, read only then. Event names complete wherever an event
//! is named; [`EventName`] accepts any text and leaves judging it to the event table, so a near
//! miss still gets its suggestion. Every other call pays one environment lookup for this.

mod shells;
mod values;

use std::ffi::{OsStr, OsString};
use std::sync::Arc;

use anyhow::Result;
use clap::Args;
use clap::builder::{StringValueParser, TypedValueParser};
use clap_complete::Shell;
use clap_complete::engine::ArgValueCompleter;

use crate::ground::env;
use crate::ground::exit::ExitStatus;
use crate::output::Printer;

#[derive(Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell to print the script for
    #[arg(value_enum)]
    shell: Shell,
}

pub(crate) fn run(args: &CompletionsArgs, printer: &Printer) -> Result<ExitStatus> {
    printer.raw(&shells::registration(args.shell))?;
    Ok(ExitStatus::Success)
}

/// The answer to a completion request, `COMPLETE=<shell> hermes-hooks -- <words>`; `None` for
/// every other call (a `COMPLETE` left in the environment of a plain call changes nothing).
pub(super) fn answer() -> Option<ExitStatus> {
    let shell = env::var_os(env::COMPLETE)?;
    answer_for(&shell)
}

#[cold]
fn answer_for(shell: &OsStr) -> Option<ExitStatus> {
    let mut args = std::env::args_os().skip(1);
    if args.next()? != "--" {
        return None;
    }
    let shell = <Shell as clap::ValueEnum>::from_str(shell.to_str()?, false).ok()?;
    let words: Vec<OsString> = args.collect();
    let current_dir = std::env::current_dir().ok();
    let printer = Printer::new(true);
    let answered = shells::answer(shell, words, current_dir.as_deref())
        .and_then(|answer| printer.raw(&answer));
    Some(if answered.is_ok() {
        ExitStatus::Success
    } else {
        ExitStatus::Error
    })
}

/// The command line with the completers of values it has no fixed set for, reading the global
/// flags among `typed` (the words before the one completed).
fn completing(typed: &[OsString]) -> clap::Command {
    let mut cmd = aliases_hidden(super::command());
    let with_event: Vec<String> = cmd
        .get_subcommands()
        .filter(|sub| sub.get_arguments().any(|arg| arg.get_id() == "event"))
        .map(|sub| sub.get_name().to_owned())
        .collect();
    // After `run --agent X`, only that agent's own names.
    let agent = values::typed_agent(typed);
    for name in with_event {
        let narrowed = agent.filter(|_| name == "run");
        cmd = cmd.mut_subcommand(name, |sub| {
            sub.mut_arg("event", |arg| match narrowed {
                Some(agent) => arg.add(ArgValueCompleter::new(move |current: &OsStr| {
                    values::agent_events(agent, current)
                })),
                None => arg.add(ArgValueCompleter::new(values::events)),
            })
        });
    }
    cmd = cmd.mut_subcommand("new", |sub| {
        sub.mut_arg("rules", |arg| {
            arg.add(ArgValueCompleter::new(values::packs))
        })
    });
    if let Some(global) = values::typed_globals(typed) {
        let global = Arc::new(global);
        for (name, id, approved) in [("approve", "hook", false), ("revoke", "command", true)] {
            let global = Arc::clone(&global);
            let hooks = move |current: &OsStr| values::hooks(&global, current, approved);
            cmd = cmd.mut_subcommand(name, |sub| {
                sub.mut_arg(id, |arg| arg.add(ArgValueCompleter::new(hooks)))
            });
        }
    }
    cmd
}

/// `cmd` with its subcommands' aliases completing only when no name does: the engine offers one
/// spelling per subcommand, the first in sort order, so `re` would give `remove`, not `revoke`.
fn aliases_hidden(mut cmd: clap::Command) -> clap::Command {
    let subcommands: Vec<(String, Vec<String>)> = cmd
        .get_subcommands()
        .map(|sub| {
            let names = sub.get_all_aliases().map(str::to_owned).collect();
            (sub.get_name().to_owned(), names)
        })
        .collect();
    for (name, aliases) in subcommands {
        if aliases.is_empty() {
            continue;
        }
        // clap takes names as `'static`; a completion answer is one short process.
        let hidden = aliases.into_iter().map(|alias| &*alias.leak());
        cmd = cmd.mut_subcommand(name, |sub| sub.visible_alias(None).aliases(hidden));
    }
    cmd
}

/// An event name on the command line: any text is accepted here (the event table judges it and
/// suggests a near miss); completion offers the names (see [`values::events`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EventName;

impl TypedValueParser for EventName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }
}
