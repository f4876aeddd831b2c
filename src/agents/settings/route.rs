//! Which hook commands are this tool's: a command line read as shell words, naming a program
//! called `hermes-hooks` whose subcommand is `run`, with the agent and event it names.

use std::path::Path;

/// What a hook command asks of this tool, when it runs `hermes-hooks run`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Route {
    /// The word that names the program, as written.
    pub binary: String,
    /// `--agent`'s value.
    pub agent: Option<String>,
    /// The event named.
    pub event: Option<String>,
    /// Exactly `<binary> run --agent <agent> <event>`, nothing more (besides the tail install
    /// writes for a missing program).
    pub plain: bool,
    /// Followed by the tail that blocks or fails when the program is missing.
    pub if_missing: super::IfMissing,
}

/// The flags of `run` that take a value (the word after them is not the event).
const RUN_VALUE_FLAGS: &[&str] = &[
    "--agent",
    "--audit-log",
    "--gate-limit",
    "--hermes-home",
    "--config",
    "--user-hooks",
    "--project",
    "--color",
];

/// Reads `command` as a shell command line: `Some` when a word of it names a program called
/// `hermes-hooks` whose subcommand is `run`.
pub(crate) fn route(command: &str) -> Option<Route> {
    let (command, if_missing) = match command.strip_suffix(super::BLOCK_TAIL) {
        Some(command) => (command, super::IfMissing::Block),
        None => (command, super::IfMissing::Allow),
    };
    let words = shlex::split(command)?;
    let at = words.iter().position(|word| {
        Path::new(word)
            .file_name()
            .is_some_and(|n| n == "hermes-hooks")
    })?;
    let binary = words[at].clone();
    let rest = &words[at + 1..];
    let mut i = 0;
    // Global flags may come first.
    while i < rest.len() && rest[i].starts_with('-') {
        i += if RUN_VALUE_FLAGS.contains(&rest[i].as_str()) {
            2
        } else {
            1
        };
    }
    if rest.get(i).map(String::as_str) != Some("run") {
        return None;
    }
    let args = &rest[i + 1..];
    let mut agent = None;
    let mut event = None;
    let mut j = 0;
    while j < args.len() {
        let word = &args[j];
        if let Some(value) = word.strip_prefix("--agent=") {
            agent = Some(value.to_owned());
        } else if word == "--agent" {
            agent = args.get(j + 1).cloned();
            j += 1;
        } else if RUN_VALUE_FLAGS.contains(&word.as_str()) {
            j += 1;
        } else if !word.starts_with('-') && event.is_none() {
            event = Some(word.clone());
        }
        j += 1;
    }
    let plain = at == 0 && i == 0 && args.len() == 3 && args[0] == "--agent";
    Some(Route {
        binary,
        agent,
        event,
        plain,
        if_missing,
    })
}

#[cfg(test)]
mod tests {
    use super::route;

    #[test]
    fn a_route_reads_the_agent_and_event_wherever_they_are() {
        let plain = route("hermes-hooks run --agent gemini BeforeTool").unwrap();
        assert!(plain.plain);
        assert_eq!(plain.agent.as_deref(), Some("gemini"));
        let other = route("'/opt/x y/hermes-hooks' run --fail-closed --agent=codex Stop").unwrap();
        assert!(!other.plain);
        assert_eq!(
            (other.agent.as_deref(), other.event.as_deref()),
            (Some("codex"), Some("Stop"))
        );
        let bare = route("env FOO=1 hermes-hooks run pre_tool_call").unwrap();
        assert_eq!(
            (bare.agent, bare.event.as_deref()),
            (None, Some("pre_tool_call"))
        );
        assert!(route("hermes-hooks doctor").is_none());
        assert!(route("my-guard.sh run").is_none());
    }
}
