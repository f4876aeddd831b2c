//! Whether this process is a command an agent ran for its model (a tool call), so that what
//! grants or removes protection can refuse: a model runs as the person and can type anything
//! the person can, `hermes-hooks approve --yes` included. Told from what the agents set in
//! their tools' environment and, where there is `/proc`, from this process's ancestors.

use std::path::Path;

/// What each agent sets in the environment of the commands its model runs, and the agent's name
/// for people. Measured on each agent's pinned version, headless (docs/choices.md): Factory Droid
/// sets no marker of its own outside `droid exec`, and is found up the process tree instead.
const VARIABLES: [(&str, &str); 10] = [
    ("CLAUDECODE", "Claude Code"),
    ("CODEX_THREAD_ID", "Codex"),
    ("CODEX_CI", "Codex"),
    ("GEMINI_CLI", "Gemini CLI"),
    ("QWEN_CODE", "Qwen Code"),
    ("COPILOT_CLI", "GitHub Copilot CLI"),
    ("FACTORY_EXEC_TARGET_AUTONOMY", "Factory Droid"),
    ("HERMES_SESSION_ID", "Hermes"),
    // OpenCode's, which Kilo Code keeps (read in its code: it sets it for itself, and its tools
    // inherit it).
    ("OPENCODE", "OpenCode"),
    // The name a few agents give themselves (Claude Code: `claude-code_<version>_agent`).
    ("AI_AGENT", "an AI agent"),
];

/// The programs of the agents this tool wires, as a process names itself or as the script a
/// runtime (node, python) was given, and the agent's name for people.
const PROGRAMS: [(&str, &str); 11] = [
    ("claude", "Claude Code"),
    ("codex", "Codex"),
    ("gemini", "Gemini CLI"),
    ("qwen", "Qwen Code"),
    ("copilot", "GitHub Copilot CLI"),
    ("droid", "Factory Droid"),
    ("hermes", "Hermes"),
    ("opencode", "OpenCode"),
    ("kilo", "Kilo"),
    ("pi", "Pi"),
    ("cursor-agent", "Cursor"),
];

/// How far up the process tree an agent is looked for.
const ANCESTORS_MAX: usize = 64;

/// The agent a tool call came from, and how that was told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Inside {
    /// The agent, for people.
    pub agent: &'static str,
    /// What showed it: a variable (`CLAUDECODE is set`) or an ancestor (`process 812, claude`).
    pub evidence: String,
}

impl std::fmt::Display for Inside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}'s tool call ({})", self.agent, self.evidence)
    }
}

/// The agent whose tool call this process runs in, if any.
pub(crate) fn detect() -> Option<Inside> {
    by_variable(crate::ground::env::var_os).or_else(|| {
        let skipped = cfg!(debug_assertions)
            && crate::ground::env::flag(crate::ground::env::HERMES_HOOKS_TEST_NO_ANCESTORS);
        if skipped {
            None
        } else {
            by_ancestor(Path::new("/proc"))
        }
    })
}

/// The agent named by a variable `get` finds set (to anything but nothing).
fn by_variable(get: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<Inside> {
    VARIABLES.iter().find_map(|(name, agent)| {
        get(name).filter(|value| !value.is_empty()).map(|_| Inside {
            agent,
            evidence: format!("{name} is set"),
        })
    })
}

/// The first ancestor of this process (read from `proc`) that is an agent's program.
fn by_ancestor(proc: &Path) -> Option<Inside> {
    let mut pid = parent(&proc.join("self"))?;
    for _ in 0..ANCESTORS_MAX {
        if pid <= 1 {
            return None;
        }
        let folder = proc.join(pid.to_string());
        if let Some((name, agent)) = agent_of(&folder) {
            return Some(Inside {
                agent,
                evidence: format!("process {pid}, {name}, started it"),
            });
        }
        pid = parent(&folder)?;
    }
    None
}

/// The parent of the process whose `/proc` folder is `folder`.
fn parent(folder: &Path) -> Option<u32> {
    let stat = std::fs::read_to_string(folder.join("stat")).ok()?;
    // `pid (name) state ppid ...`: the name may hold spaces and parentheses, so the fields are
    // read after its last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// The agent the process whose `/proc` folder is `folder` runs, with the name that showed it:
/// its own name, its program's, or (for a runtime) its script's.
fn agent_of(folder: &Path) -> Option<(String, &'static str)> {
    let comm = std::fs::read_to_string(folder.join("comm")).unwrap_or_default();
    let cmdline = std::fs::read(folder.join("cmdline")).unwrap_or_default();
    let words: Vec<&[u8]> = cmdline
        .split(|b| *b == 0)
        .filter(|word| !word.is_empty())
        .take(2)
        .collect();
    std::iter::once(comm.trim_end().as_bytes())
        .chain(words)
        .find_map(|word| {
            let base = word.rsplit(|b| *b == b'/').next().unwrap_or(word);
            let name = String::from_utf8_lossy(base);
            program(&name).map(|agent| (name.into_owned(), agent))
        })
}

/// The agent whose program is named `name` (a runtime's script may end in `.js`, `.mjs` or
/// `.py`).
fn program(name: &str) -> Option<&'static str> {
    let stem = [".js", ".mjs", ".cjs", ".py"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(name);
    PROGRAMS
        .iter()
        .find(|(program, _)| *program == stem)
        .map(|(_, agent)| *agent)
}

#[cfg(test)]
mod tests {
    use super::{by_ancestor, by_variable, program};

    #[test]
    fn a_variable_an_agent_sets_names_it() {
        let found = by_variable(|name| (name == "GEMINI_CLI").then(|| "1".into())).unwrap();
        assert_eq!(found.agent, "Gemini CLI");
        assert_eq!(found.evidence, "GEMINI_CLI is set");
        assert_eq!(by_variable(|_| Some("".into())), None, "set to nothing");
        assert_eq!(by_variable(|_| None), None);
    }

    #[test]
    fn an_agent_program_is_known_by_its_name_or_its_script() {
        assert_eq!(program("claude"), Some("Claude Code"));
        assert_eq!(program("codex"), Some("Codex"));
        assert_eq!(program("hermes"), Some("Hermes"));
        assert_eq!(program("gemini.js"), Some("Gemini CLI"));
        assert_eq!(program("bash"), None);
        assert_eq!(program("claudex"), None);
    }

    /// A `/proc` of three processes: 40 (the agent, a node script) started 41 (a shell), which
    /// started `self`.
    #[test]
    fn an_agent_up_the_process_tree_is_found() {
        let proc = tempfile::tempdir().unwrap();
        let process = |name: &str, comm: &str, parent: u32, cmdline: &[u8]| {
            let folder = proc.path().join(name);
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join("stat"), format!("7 ({comm}) S {parent} 1 1 0")).unwrap();
            std::fs::write(folder.join("comm"), format!("{comm}\n")).unwrap();
            std::fs::write(folder.join("cmdline"), cmdline).unwrap();
        };
        process(
            "self",
            "hermes-hooks",
            41,
            b"hermes-hooks\0approve\0--yes\0",
        );
        process(
            "41",
            "bash (x)",
            40,
            b"/bin/bash\0-c\0hermes-hooks approve\0",
        );
        process(
            "40",
            "node",
            1,
            b"node\0/usr/lib/node_modules/@google/gemini-cli/bin/gemini.js\0",
        );
        let found = by_ancestor(proc.path()).unwrap();
        assert_eq!(found.agent, "Gemini CLI");
        assert_eq!(found.evidence, "process 40, gemini.js, started it");
        // The same tree with a person's terminal at the top.
        process("40", "sshd", 1, b"sshd: person\0");
        assert_eq!(by_ancestor(proc.path()), None);
    }
}
