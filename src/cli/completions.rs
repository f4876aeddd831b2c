//! `completions <shell>`: the completion script for a shell, generated from the clap definition,
//! so an installed binary can set up its own completions. Event names complete wherever an event
//! is named (through [`EventName`], a parser that accepts any text and leaves judging it to the
//! event table, so a near miss still gets its suggestion).

use std::ffi::OsStr;

use anyhow::Result;
use clap::Args;
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap_complete::Shell;

use crate::config::Event;
use crate::exit::ExitStatus;
use crate::output::Printer;

#[derive(Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell to print the script for
    #[arg(value_enum)]
    shell: Shell,
}

pub(crate) fn run(args: &CompletionsArgs, printer: &Printer) -> Result<ExitStatus> {
    printer.raw(&script(args.shell))?;
    Ok(ExitStatus::Success)
}

/// The completion script for `shell`.
pub(crate) fn script(shell: Shell) -> Vec<u8> {
    let mut cmd = super::command();
    let name = cmd.get_name().to_owned();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, &name, &mut buf);
    if shell == Shell::Bash {
        buf = fix_bash(&buf, &name);
    }
    buf
}

/// clap_complete writes a hyphenated program's subcommands under two spellings in its bash
/// script (`hermes__hooks__subcmd__doctor` where they are found, `hermes__subcmd__hooks__subcmd__
/// doctor` where their flags are offered), so nothing completes after a subcommand (clap issues
/// 6421 and 6529). The second spelling is made the first.
fn fix_bash(script: &[u8], name: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(script);
    let found = name.replace('-', "__");
    let offered = name.replace('-', "__subcmd__");
    if found == offered {
        return script.to_vec();
    }
    text.replace(
        &format!("{offered}__subcmd__"),
        &format!("{found}__subcmd__"),
    )
    .replace(&format!("        {offered})"), &format!("        {found})"))
    .into_bytes()
}

/// An event name on the command line: any text is accepted here (the event table judges it and
/// suggests a near miss); every name it takes (canonical, alias, Claude Code) is offered for completion.
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

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Event::names().map(PossibleValue::new)))
    }
}
