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
