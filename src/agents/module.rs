//! The plugin modules this binary ships for agents that take no command hooks: one file per
//! plugin API (OpenCode's, which Kilo Code shares; Pi's), written by `install opencode|kilo|pi`
//! into the agent's plugin folder with this binary's path, version and the agent's name filled
//! in, removed by `uninstall`, and read back by `doctor`.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};

use super::plugin::{Change, FileChange, read_regular};
use super::settings::Scope;
use super::{Agent, Module};

/// The file name in the agent's plugin folder.
pub(crate) const FILE: &str = "hermes-hooks.js";

const BINARY_MARK: &str = "\"@HERMES_HOOKS_BIN@\"";
const VERSION_MARK: &str = "@HERMES_HOOKS_VERSION@";
const AGENT_MARK: &str = "\"@HERMES_HOOKS_AGENT@\"";

impl Module {
    /// The module as shipped (with the marks).
    const fn shipped(self) -> &'static str {
        match self {
            Self::OpenCode => include_str!("opencode_plugin/hermes-hooks.js"),
            Self::Pi => include_str!("pi_extension/hermes-hooks.js"),
        }
    }
}

/// The folder the agent loads plugin files from, at `scope`: for the person, under `home` (or
/// the folder the agent's variable names); for a project, under its root. Pi reads a project's
/// extensions only from the folder it was started in, so that is the project's root.
pub(crate) fn folder(agent: Agent, scope: &Scope, home: &Path) -> Option<PathBuf> {
    let config = || {
        crate::env::var_os(crate::env::XDG_CONFIG_HOME)
            .map(PathBuf::from)
            .filter(|dir| dir.is_absolute())
            .unwrap_or_else(|| home.join(".config"))
    };
    Some(match (agent, scope) {
        (Agent::OpenCode, Scope::User) => config().join("opencode").join("plugins"),
        (Agent::OpenCode, Scope::Project(root)) => root.join(".opencode").join("plugins"),
        (Agent::Kilo, Scope::User) => config().join("kilo").join("plugins"),
        (Agent::Kilo, Scope::Project(root)) => root.join(".kilo").join("plugins"),
        (Agent::Pi, Scope::User) => crate::env::var_os(crate::env::PI_CODING_AGENT_DIR)
            .map(PathBuf::from)
            .filter(|dir| dir.is_absolute())
            .unwrap_or_else(|| home.join(".pi").join("agent"))
            .join("extensions"),
        (Agent::Pi, Scope::Project(root)) => root.join(".pi").join("extensions"),
        _ => return None,
    })
}

/// The module's text for `agent`, running `binary` (an absolute path, or `hermes-hooks` as
/// found on PATH).
pub(crate) fn text(agent: Agent, binary: &str) -> Result<String> {
    let Some(module) = agent.module() else {
        bail!("{} takes no plugin module", agent.title());
    };
    // A JSON string is a JavaScript string literal: whatever the path holds stays inside it.
    Ok(module
        .shipped()
        .replace(BINARY_MARK, &serde_json::to_string(binary)?)
        .replace(AGENT_MARK, &serde_json::to_string(agent.name())?)
        .replace(VERSION_MARK, super::plugin::VERSION))
}

/// Plans (and unless `dry_run`, makes) the module file in `folder`.
pub(crate) fn install(
    agent: Agent,
    folder: &Path,
    binary: &str,
    dry_run: bool,
) -> Result<FileChange> {
    check_place(folder)?;
    let path = folder.join(FILE);
    let after = text(agent, binary)?;
    let before = read_regular(&path)?;
    let change = match &before {
        None => Change::Created,
        Some(text) if *text == after => Change::Unchanged,
        Some(_) => Change::Updated,
    };
    if !dry_run && change != Change::Unchanged {
        fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
        crate::statefile::write_atomic(folder, &path, ".hermes-hooks.", after.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(FileChange {
        path,
        change,
        before: before.unwrap_or_default(),
        after,
    })
}

/// Plans (and unless `dry_run`, makes) the removal of the module file from `folder`; the folder
/// and anything else in it stay (the agent keeps its own files there).
pub(crate) fn uninstall(folder: &Path, dry_run: bool) -> Result<FileChange> {
    check_place(folder)?;
    let path = folder.join(FILE);
    let before = read_regular(&path)?;
    let change = if before.is_some() {
        Change::Removed
    } else {
        Change::Absent
    };
    if !dry_run && change == Change::Removed {
        fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
    }
    Ok(FileChange {
        path,
        change,
        before: before.unwrap_or_default(),
        after: String::new(),
    })
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
    let Ok(Some(text)) = read_regular(&folder.join(FILE)) else {
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
    let line = module.shipped().lines().find(|l| l.contains(mark))?;
    let (before, after) = line.split_once(mark)?;
    text.lines().find_map(|l| {
        let rest = l.strip_prefix(before)?.strip_suffix(after)?;
        (!rest.is_empty()).then(|| rest.to_owned())
    })
}

/// The program the module in `folder` starts, as install wrote it there.
pub(crate) fn program(agent: Agent, folder: &Path) -> Option<PathBuf> {
    let text = read_regular(&folder.join(FILE)).ok()??;
    let literal = filled(agent.module()?, &text, BINARY_MARK)?;
    serde_json::from_str::<String>(&literal)
        .ok()
        .map(PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::{Installed, folder, installed, text};
    use crate::agents::Agent;
    use crate::agents::settings::Scope;

    #[test]
    fn the_marks_are_filled_and_the_version_reads_back() {
        for agent in [Agent::OpenCode, Agent::Kilo, Agent::Pi] {
            let written = text(agent, "/opt/it's \"here\"/hermes-hooks").unwrap();
            assert!(!written.contains("@HERMES_HOOKS_"), "{agent}");
            assert!(
                written.contains(r#""/opt/it's \"here\"/hermes-hooks""#),
                "{agent}"
            );
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join(super::FILE), &written).unwrap();
            assert_eq!(
                installed(agent, dir.path()),
                Installed::At(Some(crate::agents::plugin::VERSION.to_owned()))
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
        assert!(folder(Agent::ClaudeCode, &Scope::User, home).is_none());
    }
}
