//! The unit tests of `event`.

use super::{EVENTS, Effects, Event, LEGACY_NAMES};
use crate::config::SourceKind;

#[test]
fn hermes_has_42_plugin_events() {
    let hermes: Vec<_> = EVENTS.iter().filter_map(|def| def.canonical).collect();
    assert_eq!(hermes.len(), 42);
    let mut sorted = hermes.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 42, "no duplicates");
}

#[test]
fn every_event_has_a_name() {
    for event in Event::all() {
        assert_eq!(Event::parse(event.name()).unwrap().event, event);
    }
}

#[test]
fn every_name_is_unique() {
    let mut names: Vec<_> = EVENTS
        .iter()
        .flat_map(|def| def.canonical.into_iter().chain(def.aliases.iter().copied()))
        .collect();
    let total = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), total);
}

#[test]
fn aliases_resolve_to_canonical() {
    let resolved = Event::parse("pre-tool-call").unwrap();
    assert_eq!(resolved.event.name(), "pre_tool_call");
    assert_eq!(resolved.name, "pre-tool-call");
    let failure = Event::parse("post-tool-call-failure").unwrap();
    assert_eq!(failure.event.name(), "post_tool_call");
    assert_eq!(
        Event::parse("pre-context-compact").unwrap().event.name(),
        "pre-context-compact"
    );
}

#[test]
fn claude_code_names_resolve_quietly_and_near_misses_suggest_them() {
    for (claude, table) in super::CLAUDE_CODE_NAMES {
        let resolved = Event::parse(claude).unwrap();
        assert!(resolved.claude_code && resolved.legacy_for.is_none());
        assert_eq!(resolved.name, *table);
        assert!(resolved.event.claude_code_names().contains(claude));
    }
    assert!(Event::parse("PostToolUseFailure").unwrap().is_failure());
    assert_eq!(
        Event::parse("Stop").unwrap().agent_name(),
        "pre-agent-turn-stop"
    );
    assert_eq!(
        Event::parse("PostToolUseFailure").unwrap().agent_name(),
        "post-tool-call-failure"
    );
    assert_eq!(
        Event::parse("PreToolUs").unwrap_err().suggestion,
        Some("PreToolUse")
    );
    assert_eq!(
        Event::parse("pretooluse").unwrap_err().suggestion,
        Some("PreToolUse")
    );
}

#[test]
fn legacy_names_warn_with_current_name() {
    for (legacy, current) in LEGACY_NAMES {
        let resolved = Event::parse(legacy).unwrap();
        assert_eq!(resolved.legacy_for, Some(*current));
    }
}

#[test]
fn typos_get_a_suggestion() {
    let err = Event::parse("pre_tools_call").unwrap_err();
    assert_eq!(err.suggestion, Some("pre_tool_call"));
    assert!(err.to_string().contains("did you mean 'pre_tool_call'?"));
    assert_eq!(
        Event::parse("PRE_LLM_CALL").unwrap_err().suggestion,
        Some("pre_llm_call")
    );
    assert_eq!(Event::parse("zzzz").unwrap_err().suggestion, None);
}

#[test]
fn effects_by_source() {
    let pre_tool = Event::parse("pre_tool_call").unwrap().event;
    assert!(
        pre_tool
            .effects(SourceKind::Config)
            .contains(Effects::MODIFY)
    );
    let post_llm = Event::parse("post_llm_call").unwrap().event;
    assert!(post_llm.effects(SourceKind::Config).is_empty());
    assert!(
        post_llm
            .effects(SourceKind::AgentHooks)
            .contains(Effects::BLOCK)
    );
    assert_eq!(
        Event::parse("pre_verify")
            .unwrap()
            .event
            .effects(SourceKind::Config)
            .names(),
        ["gate"]
    );
}
