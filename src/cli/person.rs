//! What grants, widens or removes protection is a person's decision: `approve`, `revoke`,
//! `install`, `uninstall`, `setup`, `new --rules` and the consent switches refuse inside an agent's tool
//! call, where the model could have typed them. `run` and `serve` are the guard itself, so there
//! a switch is set aside (and said) instead: a refusal would let the call through.

use super::{Cli, Command};

/// Refuses, with a message for the person, when `cli` grants or removes protection from inside
/// an agent's tool call.
pub(crate) fn only(cli: &Cli) -> anyhow::Result<()> {
    let Some(what) = decision(cli) else {
        return Ok(());
    };
    let Some(inside) = crate::ground::in_tool_call::detect() else {
        return Ok(());
    };
    anyhow::bail!(
        "refused: {what} is a person's decision, and this runs inside {inside}, where the model \
         could have typed it. Run it yourself, in a terminal outside the agent."
    )
}

/// What `cli` would grant or remove, in words, when it would.
fn decision(cli: &Cli) -> Option<&'static str> {
    match &cli.command {
        Command::Approve(_) => Some("approving hooks (`hermes-hooks approve`)"),
        Command::Revoke(_) => Some("revoking approvals (`hermes-hooks revoke`)"),
        Command::Install(_) => Some("wiring an agent (`hermes-hooks install`)"),
        Command::Uninstall(_) => Some("unwiring an agent (`hermes-hooks uninstall`)"),
        Command::Setup(_) => Some("approving rules and wiring agents (`hermes-hooks setup`)"),
        Command::New(args) if args.adds_rules() => {
            Some("adding a rules pack (`hermes-hooks new --rules`)")
        }
        Command::Run(_) | Command::Serve(_) => None,
        _ if accepts(cli.global.accept_hooks) => {
            Some("approving hooks on the spot (`--accept-hooks`, `HERMES_HOOKS_ACCEPT`)")
        }
        _ => None,
    }
}

/// Whether this tool's consent switch is on (the flag or its variable).
fn accepts(flag: bool) -> bool {
    flag || crate::ground::env::flag(crate::ground::env::HERMES_HOOKS_ACCEPT)
}
