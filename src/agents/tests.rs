//! The unit tests of `agents`.

use super::{Agent, ToolClass};

#[test]
fn every_agent_event_names_a_table_event() {
    for agent in Agent::ALL {
        for own in agent.events() {
            if let Some(table) = own.table {
                assert!(
                    crate::config::Event::parse(table).is_ok(),
                    "{agent}: {} -> {table}",
                    own.name
                );
            }
        }
        assert_eq!(agent.name().parse::<Agent>().unwrap(), agent);
    }
}

#[test]
fn every_agent_has_a_shell_tool() {
    for agent in Agent::ALL {
        assert!(
            agent
                .tools()
                .iter()
                .any(|(_, class)| *class == Some(ToolClass::Shell)),
            "{agent}"
        );
    }
}

#[test]
fn an_agents_own_names_resolve_and_near_misses_suggest_them() {
    let (resolved, _) = Agent::Gemini.resolve("BeforeTool").unwrap().unwrap();
    assert_eq!(resolved.event.name(), "pre_tool_call");
    assert_eq!(
        Agent::Gemini.resolve("BeforeTol").unwrap_err().suggestion,
        Some("BeforeTool")
    );
    assert!(Agent::Gemini.resolve("pre_tool_call").unwrap().is_some());
}

#[test]
fn each_agent_reads_its_own_contract_from_the_table() {
    for (at, agent) in Agent::ALL.into_iter().enumerate() {
        assert_eq!(
            agent as usize, at,
            "{agent:?} is out of the enum's order in ALL"
        );
        let name = match agent {
            Agent::Hermes => "hermes",
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Cursor => "cursor",
            Agent::Copilot => "copilot",
            Agent::Droid => "droid",
            Agent::Qwen => "qwen",
            Agent::OpenCode => "opencode",
            Agent::Kilo => "kilo",
            Agent::Pi => "pi",
            Agent::Cline => "cline",
        };
        assert_eq!(agent.name(), name, "{agent:?}");
    }
}
