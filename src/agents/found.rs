//! Which agents this machine has, for `install` with no agent and for `doctor`: an agent counts
//! as found when its program is on PATH or its user settings folder exists (a person may have
//! installed it where PATH does not reach, and an agent that has run once leaves its folder).

use std::path::{Path, PathBuf};

use super::Agent;
use super::settings::Scope;

/// How an agent was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// Its program, on PATH.
    Program(PathBuf),
    /// Its user folder (Hermes: its config.yaml).
    Folder(PathBuf),
}

impl Found {
    /// The path that showed it.
    pub(crate) fn path(&self) -> &Path {
        match self {
            Self::Program(path) | Self::Folder(path) => path,
        }
    }
}

/// The programs each agent is started as.
pub(crate) const fn programs(agent: Agent) -> &'static [&'static str] {
    match agent {
        Agent::Hermes => &["hermes"],
        Agent::ClaudeCode => &["claude"],
        Agent::Codex => &["codex"],
        Agent::Gemini => &["gemini"],
        Agent::Cursor => &["cursor-agent"],
        Agent::Copilot => &["copilot"],
        Agent::Droid => &["droid"],
        Agent::Qwen => &["qwen"],
        Agent::OpenCode => &["opencode"],
        Agent::Kilo => &["kilo", "kilocode"],
        Agent::Pi => &["pi"],
        Agent::Cline => &["cline"],
    }
}

/// Whether `agent` is on this machine, and how that shows; `on_path` finds a program (`which`),
/// `home` is the person's home folder and `hermes_home` the Hermes home.
pub(crate) fn found(
    agent: Agent,
    on_path: &dyn Fn(&str) -> Option<PathBuf>,
    home: &Path,
    hermes_home: &Path,
) -> Option<Found> {
    if let Some(program) = programs(agent).iter().find_map(|name| on_path(name)) {
        return Some(Found::Program(program));
    }
    let folder = match agent.wiring() {
        Some(wiring) => {
            let named = wiring
                .user_dir_env
                .and_then(crate::ground::env::var_os)
                .map(PathBuf::from);
            wiring.folder(&Scope::User, home, named)
        }
        // The folder the agent keeps its own settings in, which holds its plugin folder.
        None if agent.module().is_some() => super::module::folder(agent, &Scope::User, home)?
            .parent()?
            .to_path_buf(),
        // This tool keeps its own files in the Hermes home too: Hermes's config.yaml is what
        // shows Hermes there.
        None => hermes_home.join("config.yaml"),
    };
    folder.exists().then_some(Found::Folder(folder))
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::{Found, found};
    use crate::agents::Agent;

    #[test]
    fn an_agent_is_found_by_its_program_else_by_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let hermes = dir.path().join("hermes");
        std::fs::create_dir_all(home.join(".gemini")).unwrap();
        std::fs::create_dir_all(&hermes).unwrap();
        let path = |name: &str| (name == "claude").then(|| PathBuf::from("/bin/claude"));
        assert_eq!(
            found(Agent::ClaudeCode, &path, &home, &hermes),
            Some(Found::Program(PathBuf::from("/bin/claude")))
        );
        assert_eq!(
            found(Agent::Gemini, &path, &home, &hermes),
            Some(Found::Folder(home.join(".gemini")))
        );
        assert_eq!(found(Agent::Codex, &path, &home, &hermes), None);
        // The Hermes home holds this tool's files too: only config.yaml shows Hermes.
        assert_eq!(found(Agent::Hermes, &path, &home, &hermes), None);
        std::fs::write(hermes.join("config.yaml"), "").unwrap();
        assert_eq!(
            found(Agent::Hermes, &path, &home, Path::new(&hermes))
                .as_ref()
                .map(Found::path),
            Some(hermes.join("config.yaml").as_path())
        );
    }
}
