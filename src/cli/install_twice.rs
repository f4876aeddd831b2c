//! One wiring per agent and person: `install` at the user level where the project is already
//! wired (or the reverse) would run every hook twice on each call, so it refuses unless `--also`.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::agents::Agent;
use crate::agents::settings::{Scope, Wiring};
use crate::output::Printer;

/// The other level's settings file that already wires `agent`, when `scope`'s does not: the
/// install would add a second wiring. (Both wired already: a warning, and on.)
pub(super) fn refuse_second(
    agent: Agent,
    wiring: &Wiring,
    scope: &Scope,
    folder_of: &dyn Fn(&Scope) -> Option<PathBuf>,
    cwd: &Path,
    printer: &Printer,
) -> Result<()> {
    let other = match scope {
        Scope::User => {
            // The project this directory belongs to, found without a word on stderr.
            match super::shared::project_root(cwd, &Printer::new(true)) {
                Ok(root) => Scope::Project(root),
                Err(_) => return Ok(()),
            }
        }
        Scope::Project(_) => Scope::User,
    };
    let (Some(here), Some(there)) = (folder_of(scope), folder_of(&other)) else {
        return Ok(());
    };
    // From the home folder, the project's settings are the user's.
    if same_folder(&here, &there) {
        return Ok(());
    }
    let Some(wired) = wiring.wired_in(agent, &there) else {
        return Ok(());
    };
    let title = agent.title();
    let (this, that, flag) = match other {
        Scope::User => ("the project's", "user", "--user"),
        Scope::Project(_) => ("the user's", "project", "--project"),
    };
    if let Some(already) = wiring.wired_in(agent, &here) {
        printer.warn(format!(
            "{title} is wired to hermes-hooks both in {} and in {}: every hook runs twice on \
             each call; `hermes-hooks uninstall {} {flag}` removes the {that} wiring",
            already.display(),
            wired.display(),
            agent.name()
        ));
        return Ok(());
    }
    bail!(
        "{title} is already wired to hermes-hooks in its {that} settings, {}: wiring it in \
         {this} settings too would run every hook twice on each call. Keep one: `hermes-hooks \
         uninstall {} {flag}` removes that wiring; or pass --also to wire both anyway",
        wired.display(),
        agent.name()
    )
}

/// Whether two folders are one (through symlinks, when they exist).
fn same_folder(a: &Path, b: &Path) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    a == b || real(a) == real(b)
}
