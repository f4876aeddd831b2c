//! The payload a hook of each source receives on an event's synthetic call, written by the same
//! code `run` uses, byte for byte.

use crate::agents::Agent;
use crate::config::event::Resolved;
use crate::engine::payload::{Dialect, Invocation};
use crate::engine::sample_payloads;

/// The payload a hook of `dialect` receives for the synthetic call of the event as `called`, with
/// `current_dir` as `cwd`.
pub(crate) fn wire(called: Resolved, dialect: Dialect, current_dir: &str) -> String {
    let invocation = Invocation::from_input(
        sample_payloads::payload(called),
        current_dir,
        &Agent::Hermes,
    );
    let mut out = Vec::new();
    invocation
        .write_wire(
            &mut out,
            dialect,
            called.event,
            invocation.tool_input.as_ref(),
        )
        .expect("writing to memory cannot fail");
    String::from_utf8_lossy(&out).into_owned()
}

/// The Agent Hooks dialect for hooks declared for the event as `called`.
pub(crate) fn agent_dialect(called: Resolved) -> Dialect {
    Dialect::AgentHooks {
        on_failure: called.is_failure(),
    }
}

#[cfg(test)]
mod tests {
    use super::{agent_dialect, wire};
    use crate::config::Event;
    use crate::engine::payload::Dialect;

    #[test]
    fn each_dialect_has_its_own_shape() {
        let called = Event::parse("PreToolUse").unwrap();
        let hermes = wire(called, Dialect::Hermes, "/work");
        assert!(
            hermes.starts_with(
                r#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "echo hello"}, "session_id": "test-session", "cwd": "/work""#
            ),
            "{hermes}"
        );
        let failed = Event::parse("post-tool-call-failure").unwrap();
        let agent = wire(failed, agent_dialect(failed), "/work");
        assert!(agent.starts_with(r#"{"event_type": "post-tool-call-failure", "timestamp": ""#));
        assert!(agent.contains(r#""status": "error""#), "{agent}");
    }
}
