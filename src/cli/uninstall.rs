//! `uninstall <agent>`: removes from an agent's settings exactly the entries `install` wrote
//! (an entry changed by hand is left, with a warning); the same options and report as
//! `install`.

use anyhow::Result;
use clap::Args;

use super::GlobalArgs;
use super::install::{Mode, WiringArgs, apply};
use crate::ground::exit::ExitStatus;
use crate::output::Printer;

/// `uninstall`'s arguments.
#[derive(Args, Debug)]
#[command(
    after_help = "It removes each entry written exactly as install writes it (`hermes-hooks run \
    --agent <agent> <Event>`, alone in its group, no other key), then an event list and a `hooks` \
    key left empty; anything else stays byte for byte. An entry calling hermes-hooks for this \
    agent that was changed by hand is left, with a warning. No backup is kept: only what install \
    wrote goes. Nothing of install is left behind: a settings file install made is removed once \
    nothing else is in it (with the project folders it leaves empty), and install's backup \
    (<file>.hermes-hooks.bak) once the file holds exactly what it kept.\n\nUnwire before you \
    remove the hermes-hooks package: wiring written with install's default `--if-missing block` \
    blocks each tool call while the program cannot be found, until it is installed again or its \
    entries are taken out."
)]
pub(crate) struct UninstallArgs {
    #[command(flatten)]
    pub(super) wiring: WiringArgs,
}

pub(crate) fn run(
    global: &GlobalArgs,
    args: &UninstallArgs,
    printer: &Printer,
) -> Result<ExitStatus> {
    apply(
        global,
        &args.wiring,
        (Mode::Uninstall, crate::agents::settings::IfMissing::Allow),
        false,
        printer,
    )
}
