//! The plugin modules `install opencode|kilo|pi` writes: at each level where one is, whether it
//! is this binary's version as install wrote it, and whether the program it starts is there. A
//! module that cannot start its program lets every call through unchecked (or blocks them where
//! a `fail_closed` guard applies), so that is an error. Whether the agent loaded it cannot be
//! seen from outside the agent: each agent's live check in tests/agents shows that it does.

use std::path::Path;

use super::{Finding, Level};
use crate::agents::Agent;
use crate::agents::module::{self, Installed};
use crate::agents::plugin::VERSION;
use crate::agents::settings::Scope;

/// Every finding about the modules at the user's level (under `home`) and the project's.
pub(crate) fn check(
    project: Option<&Path>,
    home: &Path,
    on_path: &dyn Fn(&str) -> bool,
) -> Vec<Finding> {
    let mut findings = Vec::new();
    for agent in Agent::ALL.into_iter().filter(|a| a.module().is_some()) {
        let scopes = std::iter::once(Scope::User)
            .chain(project.map(|root| Scope::Project(root.to_path_buf())));
        for scope in scopes {
            let Some(folder) = module::folder(agent, &scope, home) else {
                continue;
            };
            if let Some(finding) = one(agent, &scope, &folder, on_path) {
                findings.push(finding);
            }
        }
    }
    findings
}

/// The finding for the module of `agent` in `folder`, if one is there.
fn one(
    agent: Agent,
    scope: &Scope,
    folder: &Path,
    on_path: &dyn Fn(&str) -> bool,
) -> Option<Finding> {
    let file = folder.join(module::names(agent).first()?);
    let (title, name, level) = (agent.title(), agent.name(), scope.as_str());
    let again = match scope {
        Scope::User => format!("hermes-hooks install {name}"),
        Scope::Project(_) => format!("hermes-hooks install {name} --project"),
    };
    let finding = |level, message| Finding::file(level, "module", &file, message);
    let (what, unanswered) = match agent.module() {
        Some(crate::agents::Module::ClineHooks) => (
            format!("Cline's hook files ({level})"),
            "Cline then ends every task at its first tool call",
        ),
        _ => (
            format!("the {title} module ({level})"),
            "the calls go unchecked (those a fail_closed guard covers are blocked)",
        ),
    };
    match module::installed(agent, folder) {
        Installed::Absent => None,
        Installed::At(None) => Some(finding(
            Level::Warning,
            format!(
                "{what}: not as install wrote it (edited, or not this tool's): `{again}` writes \
                 it anew"
            ),
        )),
        Installed::At(Some(version)) if version != VERSION => Some(finding(
            Level::Warning,
            format!(
                "{what}: version {version}, this binary {VERSION}: `{again}` brings it up to \
                 date"
            ),
        )),
        Installed::At(Some(_)) => Some(match module::program(agent, folder) {
            Some(program) if !runs(&program, on_path) => finding(
                Level::Error,
                format!(
                    "{what}: they start {}, which cannot be run: {unanswered}. `{again}` points \
                     them at this binary",
                    program.display()
                ),
            ),
            _ => finding(Level::Ok, format!("{what}: installed, at this version")),
        }),
    }
}

/// Whether `program` (an absolute path, or a name PATH resolves) can be started.
fn runs(program: &Path, on_path: &dyn Fn(&str) -> bool) -> bool {
    if program.is_absolute() {
        use std::os::unix::fs::PermissionsExt as _;
        return std::fs::metadata(program)
            .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0);
    }
    program.to_str().is_some_and(on_path)
}
