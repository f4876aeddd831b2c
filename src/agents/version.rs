//! Which release of an agent is installed, and which of its events that release takes. An agent
//! that meets an event name it does not know in its settings may warn at every start (Claude Code
//! opens a "Settings Warning" dialog), so `install` writes only the events the installed release
//! takes, and `doctor` says what a newer one would add. The release is read from the agent's own
//! `--version`; where that cannot be read, the release this tool's checks drive is assumed.

use std::io::Read as _;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::found::programs;
use super::{Agent, AgentEvent};

/// How long an agent's `--version` may take.
const DEADLINE: Duration = Duration::from_secs(10);

/// A release number (`2.1.197`), compared part by part.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Version(Vec<u64>);

impl Version {
    /// The first release number in `text` (`2.1.197 (Claude Code)`, `codex-cli 0.169.0`).
    pub(crate) fn find(text: &str) -> Option<Self> {
        text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map(|word| word.trim_matches('.'))
            .filter(|word| word.contains('.'))
            .find_map(|word| {
                word.split('.')
                    .map(|part| part.parse::<u64>().ok())
                    .collect::<Option<Vec<u64>>>()
                    .map(Self)
            })
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u64::to_string).collect();
        f.write_str(&parts.join("."))
    }
}

/// The release `install` and `doctor` go by: read from the agent, or assumed.
#[derive(Clone, Debug)]
pub(crate) struct Release {
    /// The release number, when one is known.
    pub version: Option<Version>,
    /// Whether it was read from the agent (else assumed: the release this tool's checks drive).
    pub read: bool,
}

impl Release {
    /// Whether this release takes `event` in its settings.
    pub(crate) fn takes(&self, event: &AgentEvent) -> bool {
        match (event.since, &self.version) {
            (None, _) => true,
            (Some(since), Some(version)) => {
                Version::find(since).is_none_or(|since| *version >= since)
            }
            (Some(_), None) => false,
        }
    }

    /// The release in words: `2.1.197`, or `2.1.197 (assumed: its version could not be read)`.
    pub(crate) fn shown(&self) -> String {
        match (&self.version, self.read) {
            (Some(version), true) => version.to_string(),
            (Some(version), false) => {
                format!("{version} (assumed: its version could not be read)")
            }
            (None, _) => "unknown".to_owned(),
        }
    }
}

/// The release of `agent` this machine has: its program's `--version` (found on PATH), else
/// the one this tool's checks drive.
pub(crate) fn installed(agent: Agent) -> Release {
    let read = programs(agent)
        .iter()
        .find_map(|name| on_absolute_path(name))
        .and_then(|program| asked(&program));
    match read {
        Some(version) => Release {
            version: Some(version),
            read: true,
        },
        None => Release {
            version: assumed(agent).and_then(Version::find),
            read: false,
        },
    }
}

/// `name` as the first executable file of that name in a folder of PATH, counting only the
/// folders PATH names absolutely: a relative entry (`.`, `node_modules/.bin`) is whatever the
/// current folder holds, and what a project holds is not run to learn a version.
fn on_absolute_path(name: &str) -> Option<std::path::PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    let path = crate::ground::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|folder| folder.is_absolute())
        .map(|folder| folder.join(name))
        .find(|program| {
            std::fs::metadata(program)
                .is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
        })
}

/// The release of each agent the checks in tests/agents drive (its pinned version), where an
/// event of the agent depends on the release.
pub(crate) const fn assumed(agent: Agent) -> Option<&'static str> {
    match agent {
        Agent::ClaudeCode => Some("2.1.197"),
        _ => None,
    }
}

/// What `program --version` says, within [`DEADLINE`]; its output is bounded.
fn asked(program: &Path) -> Option<Version> {
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        // Its own group, so whatever it starts goes with it at the deadline.
        .process_group(0)
        .spawn()
        .ok()?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() < DEADLINE => {
                std::thread::sleep(Duration::from_millis(10));
            }
            _ => {
                if let Some(group) = i32::try_from(child.id())
                    .ok()
                    .and_then(rustix::process::Pid::from_raw)
                {
                    let _ =
                        rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
                }
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let mut text = String::new();
    child
        .stdout
        .take()?
        .take(4096)
        .read_to_string(&mut text)
        .ok()?;
    Version::find(&text)
}

#[cfg(test)]
mod tests {
    use super::{Release, Version};
    use crate::agents::Agent;

    #[test]
    fn a_release_is_read_from_what_each_agent_prints() {
        for (text, want) in [
            ("2.1.197 (Claude Code)\n", "2.1.197"),
            ("codex-cli 0.169.0", "0.169.0"),
            (
                "GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check.",
                "1.0.102",
            ),
            ("0.61.0", "0.61.0"),
        ] {
            assert_eq!(Version::find(text).unwrap().to_string(), want, "{text}");
        }
        assert_eq!(Version::find("no number here"), None);
        assert!(Version::find("2.1.332").unwrap() > Version::find("2.1.197").unwrap());
        assert!(Version::find("2.10.0").unwrap() > Version::find("2.9.9").unwrap());
    }

    #[test]
    fn an_event_of_a_later_release_is_taken_only_from_it() {
        let skill = Agent::ClaudeCode
            .events()
            .iter()
            .find(|e| e.name == "PreSkillShellCommand")
            .unwrap();
        let tool = Agent::ClaudeCode
            .events()
            .iter()
            .find(|e| e.name == "PreToolUse")
            .unwrap();
        let of = |v: &str| Release {
            version: Version::find(v),
            read: true,
        };
        assert!(!of("2.1.197").takes(skill) && of("2.1.197").takes(tool));
        assert!(of("2.1.332").takes(skill) && of("2.2.0").takes(skill));
    }
}
