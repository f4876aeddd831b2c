//! The files this binary ships for agents that take no command hooks in settings: one plugin
//! module per plugin API (OpenCode's, which Kilo Code shares; Pi's), and Cline's hook scripts
//! (one per event it waits for or reports). `install opencode|kilo|pi|cline` writes them into
//! the agent's folder with this binary's path, version and the agent's name filled in,
//! `uninstall` removes them, and `doctor` reads them back.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

use super::plugin::{Change, FileChange, read_regular};
use super::settings::{IfMissing, Scope};
use super::{Agent, Module};

/// The plugin module's file name in the agent's plugin folder.
pub(crate) const FILE: &str = "hermes-hooks.js";

/// Cline's events a hook script is written for: the two it waits for, and the two that report
/// a task's start and end.
const CLINE_EVENTS: [&str; 4] = ["PreToolUse", "PostToolUse", "TaskStart", "TaskComplete"];

const BINARY_MARK: &str = "\"@HERMES_HOOKS_BIN@\"";
const SH_BINARY_MARK: &str = "@HERMES_HOOKS_SH_BIN@";
const VERSION_MARK: &str = "@HERMES_HOOKS_VERSION@";
const AGENT_MARK: &str = "\"@HERMES_HOOKS_AGENT@\"";
const EVENT_MARK: &str = "@HERMES_HOOKS_EVENT@";
const MISSING_MARK: &str = "@HERMES_HOOKS_MISSING@";
/// What a tool call meets when the program cannot be found: `block` or `allow` (the modules).
const IF_MISSING_MARK: &str = "@HERMES_HOOKS_IF_MISSING@";

impl Module {
    /// Each file of the module as shipped (with the marks): its name, its text, and the event
    /// it is for (Cline's scripts).
    fn shipped(self) -> Vec<(String, &'static str, Option<&'static str>)> {
        match self {
            Self::OpenCode => vec![(
                FILE.to_owned(),
                include_str!("opencode_plugin/hermes-hooks.js"),
                None,
            )],
            Self::Pi => vec![(
                FILE.to_owned(),
                include_str!("pi_extension/hermes-hooks.js"),
                None,
            )],
            Self::ClineHooks => CLINE_EVENTS
                .iter()
                .map(|event| {
                    (
                        format!("{event}.sh"),
                        include_str!("cline_hooks/hook.sh"),
                        Some(*event),
                    )
                })
                .collect(),
        }
    }

    /// The text that stands for the program in the shipped files.
    const fn binary_mark(self) -> &'static str {
        match self {
            Self::OpenCode | Self::Pi => BINARY_MARK,
            Self::ClineHooks => SH_BINARY_MARK,
        }
    }
}

/// The names of the files `agent`'s module is made of.
pub(crate) fn names(agent: Agent) -> Vec<String> {
    agent
        .module()
        .map(|module| {
            module
                .shipped()
                .into_iter()
                .map(|(name, _, _)| name)
                .collect()
        })
        .unwrap_or_default()
}

/// Every folder `agent` loads plugin files or hook scripts from, for `project` (each folder of
/// that kind from it up, where the agent walks up) and for the person (under `home`), whether
/// it exists or not: anything put there runs inside the agent.
pub(crate) fn loaded_from(
    agent: Agent,
    project: Option<&Path>,
    home: Option<&Path>,
) -> Vec<PathBuf> {
    let config = |home: &Path| {
        crate::ground::env::var_os(crate::ground::env::XDG_CONFIG_HOME)
            .map(PathBuf::from)
            .filter(|dir| dir.is_absolute())
            .unwrap_or_else(|| home.join(".config"))
    };
    let named = |name: &str| {
        crate::ground::env::var_os(name)
            .map(PathBuf::from)
            .filter(|d| d.is_absolute())
    };
    // Folders under which `plugin/` and `plugins/` are read.
    let mut roots: Vec<PathBuf> = Vec::new();
    let mut folders: Vec<PathBuf> = Vec::new();
    let ancestors = || project.into_iter().flat_map(Path::ancestors);
    match agent {
        Agent::OpenCode => {
            roots.extend(ancestors().map(|dir| dir.join(".opencode")));
            if let Some(home) = home {
                roots.push(config(home).join("opencode"));
                roots.push(home.join(".opencode"));
            }
            roots.extend(named(crate::ground::env::OPENCODE_CONFIG_DIR));
        }
        Agent::Kilo => {
            for dir in ancestors() {
                roots.push(dir.join(".kilo"));
                roots.push(dir.join(".kilocode"));
            }
            if let Some(home) = home {
                roots.push(config(home).join("kilo"));
                roots.push(home.join(".kilo"));
                roots.push(home.join(".kilocode"));
            }
            roots.extend(named(crate::ground::env::KILO_CONFIG_DIR));
        }
        Agent::Pi => {
            folders.extend(project.map(|root| root.join(".pi").join("extensions")));
            if let Some(home) = home {
                folders.push(
                    named(crate::ground::env::PI_CODING_AGENT_DIR)
                        .unwrap_or_else(|| home.join(".pi").join("agent"))
                        .join("extensions"),
                );
            }
        }
        Agent::Cline => {
            if let Some(root) = project {
                folders.push(root.join(".clinerules").join("hooks"));
                folders.push(root.join(".cline").join("hooks"));
            }
            if let Some(home) = home {
                folders.push(
                    named(crate::ground::env::CLINE_DIR)
                        .unwrap_or_else(|| home.join(".cline"))
                        .join("hooks"),
                );
                folders.push(home.join("Documents").join("Cline").join("Hooks"));
            }
        }
        _ => {}
    }
    for root in roots {
        folders.push(root.join("plugin"));
        folders.push(root.join("plugins"));
    }
    folders
}

/// The folder the agent loads plugin files from, at `scope`: for the person, under `home` (or
/// the folder the agent's variable names); for a project, under its root. Pi reads a project's
/// extensions only from the folder it was started in, so that is the project's root.
pub(crate) fn folder(agent: Agent, scope: &Scope, home: &Path) -> Option<PathBuf> {
    let config = || {
        crate::ground::env::var_os(crate::ground::env::XDG_CONFIG_HOME)
            .map(PathBuf::from)
            .filter(|dir| dir.is_absolute())
            .unwrap_or_else(|| home.join(".config"))
    };
    Some(match (agent, scope) {
        (Agent::OpenCode, Scope::User) => config().join("opencode").join("plugins"),
        (Agent::OpenCode, Scope::Project(root)) => root.join(".opencode").join("plugins"),
        (Agent::Kilo, Scope::User) => config().join("kilo").join("plugins"),
        (Agent::Kilo, Scope::Project(root)) => root.join(".kilo").join("plugins"),
        (Agent::Pi, Scope::User) => {
            crate::ground::env::var_os(crate::ground::env::PI_CODING_AGENT_DIR)
                .map(PathBuf::from)
                .filter(|dir| dir.is_absolute())
                .unwrap_or_else(|| home.join(".pi").join("agent"))
                .join("extensions")
        }
        (Agent::Pi, Scope::Project(root)) => root.join(".pi").join("extensions"),
        (Agent::Cline, Scope::User) => crate::ground::env::var_os(crate::ground::env::CLINE_DIR)
            .map(PathBuf::from)
            .filter(|dir| dir.is_absolute())
            .unwrap_or_else(|| home.join(".cline"))
            .join("hooks"),
        (Agent::Cline, Scope::Project(root)) => root.join(".clinerules").join("hooks"),
        _ => return None,
    })
}

/// Each file of `agent`'s module, named, with the marks filled in: `binary` (an absolute path,
/// or `hermes-hooks` as found on PATH) is the program it runs.
pub(crate) fn files(
    agent: Agent,
    binary: &str,
    if_missing: IfMissing,
) -> Result<Vec<(String, String)>> {
    let Some(module) = agent.module() else {
        bail!("{} takes no plugin module", agent.title());
    };
    // A JSON string is a JavaScript string literal: whatever the path holds stays inside it.
    let json_binary = serde_json::to_string(binary)?;
    let sh_binary = shlex::try_quote(binary)
        .context("this program's path cannot be quoted for a shell")?
        .into_owned();
    module
        .shipped()
        .into_iter()
        .map(|(name, template, event)| {
            let missing = match (event, if_missing) {
                // Where Cline waits for an answer before a call, a missing program stops it.
                (Some("PreToolUse"), IfMissing::Block) => {
                    r#"{"cancel":true,"errorMessage":"hermes-hooks cannot be found, so this call was stopped: install it again, or run `hermes-hooks install cline --if-missing allow`"}"#
                }
                _ => "{}",
            };
            let text = template
                .replace(BINARY_MARK, &json_binary)
                .replace(SH_BINARY_MARK, &sh_binary)
                .replace(AGENT_MARK, &serde_json::to_string(agent.name())?)
                .replace(EVENT_MARK, event.unwrap_or_default())
                .replace(MISSING_MARK, missing)
                .replace(IF_MISSING_MARK, if_missing.as_str())
                .replace(VERSION_MARK, super::plugin::VERSION);
            Ok((name, text))
        })
        .collect()
}

/// Plans (and unless `dry_run`, makes) the module's files in `folder`. A file of the same name
/// that this tool did not write (a person's own hook) is never replaced.
pub(crate) fn install(
    agent: Agent,
    folder: &Path,
    (binary, if_missing): (&str, IfMissing),
    dry_run: bool,
) -> Result<Vec<FileChange>> {
    check_place(folder)?;
    let mut changes = Vec::new();
    for (name, after) in files(agent, binary, if_missing)? {
        let path = folder.join(&name);
        let before = read_regular(&path)?;
        if let Some(text) = &before
            && !ours(agent, text)
        {
            bail!(
                "{} was not written by hermes-hooks: it is left as it is, and nothing was written",
                path.display()
            );
        }
        let change = match &before {
            None => Change::Created,
            Some(text) if *text == after => Change::Unchanged,
            Some(_) => Change::Updated,
        };
        changes.push(FileChange {
            path,
            change,
            before: before.unwrap_or_default(),
            after,
        });
    }
    if !dry_run && changes.iter().any(|c| c.change != Change::Unchanged) {
        fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        for change in changes.iter().filter(|c| c.change != Change::Unchanged) {
            crate::ground::statefile::write_atomic(
                folder,
                &change.path,
                ".hermes-hooks.",
                change.after.as_bytes(),
            )
            .with_context(|| format!("cannot write {}", change.path.display()))?;
        }
    }
    Ok(changes)
}

/// Plans (and unless `dry_run`, makes) the removal of the module's files from `folder`; the
/// folder and anything else in it stay (the agent keeps its own files there), a file of the
/// same name this tool did not write included.
pub(crate) fn uninstall(agent: Agent, folder: &Path, dry_run: bool) -> Result<Vec<FileChange>> {
    check_place(folder)?;
    let mut changes = Vec::new();
    for name in names(agent) {
        let path = folder.join(&name);
        let before = read_regular(&path)?.filter(|text| ours(agent, text));
        let change = if before.is_some() {
            Change::Removed
        } else {
            Change::Absent
        };
        if !dry_run && change == Change::Removed {
            fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
        }
        changes.push(FileChange {
            path,
            change,
            before: before.unwrap_or_default(),
            after: String::new(),
        });
    }
    Ok(changes)
}

/// Whether `text` is a file of `agent`'s module as some version of this tool wrote it.
fn ours(agent: Agent, text: &str) -> bool {
    agent
        .module()
        .is_some_and(|module| version_in(module, text).is_some())
}

/// Refuses a plugin folder that is a symlink or a file: writing through it would write wherever
/// it points.
fn check_place(folder: &Path) -> Result<()> {
    if let Ok(meta) = fs::symlink_metadata(folder)
        && !meta.is_dir()
    {
        bail!(
            "{} is not a folder (a symlink or a file): nothing was written",
            folder.display()
        );
    }
    Ok(())
}

/// The module as found in a plugin folder.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Installed {
    /// Not there.
    Absent,
    /// There, with the version written into it (`None`: none could be read: not a file this
    /// binary wrote, or edited since).
    At(Option<String>),
}

/// The module file in `folder`, and its version.
pub(crate) fn installed(agent: Agent, folder: &Path) -> Installed {
    let Some(first) = names(agent).into_iter().next() else {
        return Installed::Absent;
    };
    let Ok(Some(text)) = read_regular(&folder.join(first)) else {
        return Installed::Absent;
    };
    Installed::At(agent.module().and_then(|module| version_in(module, &text)))
}

/// The version written where the shipped module has its mark.
fn version_in(module: Module, text: &str) -> Option<String> {
    filled(module, text, VERSION_MARK).filter(|version| version.len() <= 64)
}

/// What stands in `text` where the shipped module has `mark`: the first line of the shipped
/// text that holds the mark, with what is before and after it on that line, found in `text`.
fn filled(module: Module, text: &str, mark: &str) -> Option<String> {
    let shipped = module.shipped();
    let line = shipped.first()?.1.lines().find(|l| l.contains(mark))?;
    let (before, after) = line.split_once(mark)?;
    text.lines().find_map(|l| {
        let rest = l.strip_prefix(before)?.strip_suffix(after)?;
        (!rest.is_empty()).then(|| rest.to_owned())
    })
}

/// The program the module in `folder` starts, as install wrote it there.
pub(crate) fn program(agent: Agent, folder: &Path) -> Option<PathBuf> {
    let module = agent.module()?;
    let first = names(agent).into_iter().next()?;
    let text = read_regular(&folder.join(first)).ok()??;
    let literal = filled(module, &text, module.binary_mark())?;
    match module {
        Module::OpenCode | Module::Pi => serde_json::from_str::<String>(&literal).ok(),
        Module::ClineHooks => shlex::split(&literal)?.into_iter().next(),
    }
    .map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::{Installed, files, folder, installed, program};
    use crate::agents::Agent;
    use crate::agents::settings::{IfMissing, Scope};

    #[test]
    fn the_marks_are_filled_and_the_version_and_program_read_back() {
        let binary = "/opt/it's \"here\"/hermes-hooks";
        for agent in [Agent::OpenCode, Agent::Kilo, Agent::Pi, Agent::Cline] {
            let dir = tempfile::tempdir().unwrap();
            for (name, text) in files(agent, binary, IfMissing::Block).unwrap() {
                assert!(!text.contains("@HERMES_HOOKS_"), "{agent}: {name}");
                std::fs::write(dir.path().join(name), &text).unwrap();
            }
            assert_eq!(
                installed(agent, dir.path()),
                Installed::At(Some(crate::agents::plugin::VERSION.to_owned())),
                "{agent}"
            );
            assert_eq!(
                program(agent, dir.path()).unwrap(),
                std::path::PathBuf::from(binary),
                "{agent}"
            );
        }
    }

    #[test]
    fn each_agent_has_its_folders() {
        let root = std::path::PathBuf::from("/p");
        let home = std::path::Path::new("/h");
        assert_eq!(
            folder(Agent::Kilo, &Scope::Project(root.clone()), home).unwrap(),
            root.join(".kilo/plugins")
        );
        assert_eq!(
            folder(Agent::Pi, &Scope::Project(root.clone()), home).unwrap(),
            root.join(".pi/extensions")
        );
        assert_eq!(
            folder(Agent::Cline, &Scope::Project(root.clone()), home).unwrap(),
            root.join(".clinerules/hooks")
        );
        assert!(folder(Agent::ClaudeCode, &Scope::User, home).is_none());
    }
}
