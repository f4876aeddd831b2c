//! Synthetic payloads for `test` and `doctor`: Hermes's own test payloads where it has them
//! (a harmless `terminal` call, a user message, `test-session`), realistic ones for the rest.

use serde_json::{Map, Value, json};

use crate::config::Event;

/// The session id every synthetic payload carries.
pub const SESSION: &str = "test-session";

/// The synthetic payload for `event`, in the Hermes keyword-argument shape.
pub fn payload(event: Event) -> Map<String, Value> {
    let tool_call = || {
        json!({
            "tool_name": "terminal",
            "args": {"command": "echo hello"},
            "session_id": SESSION,
            "task_id": "test-task",
            "tool_call_id": "test-call",
        })
    };
    let api = || {
        json!({
            "session_id": SESSION, "task_id": "test-task", "platform": "cli",
            "model": "claude-sonnet-4-6", "provider": "anthropic",
            "base_url": "https://api.anthropic.com", "api_mode": "anthropic_messages",
            "api_request_id": "test-request", "api_call_count": 1, "message_count": 4,
        })
    };
    let mut value = match event.def().canonical.unwrap_or(event.name()) {
        "pre_tool_call" => tool_call(),
        "post_tool_call" => {
            let mut call = tool_call();
            call["result"] = json!("{\"output\": \"hello\"}");
            call["status"] = json!("ok");
            call["duration_ms"] = json!(42);
            call
        }
        "pre_llm_call" => json!({
            "session_id": SESSION, "user_message": "What is the weather?",
            "conversation_history": [], "is_first_turn": true, "model": "gpt-4", "platform": "cli",
        }),
        "post_llm_call" => json!({
            "session_id": SESSION, "user_message": "What is the weather?",
            "assistant_response": "It is sunny.", "model": "gpt-4", "platform": "cli",
        }),
        "pre_verify" => json!({
            "session_id": SESSION, "platform": "cli", "model": "gpt-4", "coding": true,
            "attempt": 0, "final_response": "All done — the change is applied.",
            "assistant_response": "All done — the change is applied.",
            "changed_paths": ["src/app.tsx"],
        }),
        "on_session_start" => json!({"session_id": SESSION, "model": "gpt-4", "platform": "cli"}),
        "on_session_end" => json!({
            "session_id": SESSION, "task_id": "test-task", "turn_id": "test-turn",
            "completed": true, "failed": false, "interrupted": false,
            "turn_exit_reason": "text_response(stop)", "model": "gpt-4", "platform": "cli",
        }),
        "on_session_finalize" | "on_session_reset" => {
            json!({"session_id": SESSION, "platform": "cli"})
        }
        "subagent_start" => json!({
            "parent_session_id": "parent-sess", "child_session_id": "child-sess",
            "child_role": null, "child_goal": "Summarise the notes",
        }),
        "subagent_stop" => json!({
            "parent_session_id": "parent-sess", "child_role": null,
            "child_summary": "Synthetic summary for hooks test", "child_status": "completed",
            "duration_ms": 1234,
        }),
        "pre_api_request" => api(),
        "post_api_request" => {
            let mut call = api();
            call["api_duration"] = json!(1.234);
            call["finish_reason"] = json!("stop");
            call["usage"] = json!({"input_tokens": 2048, "output_tokens": 512});
            call
        }
        "api_request_error" => {
            let mut call = api();
            call["status_code"] = json!(529);
            call["retryable"] = json!(true);
            call["error"] = json!({"type": "overloaded_error", "message": "Overloaded"});
            call
        }
        "pre_approval_request" => json!({
            "session_id": SESSION, "command": "rm -rf build", "description": "recursive delete",
        }),
        "post_approval_response" => json!({
            "session_id": SESSION, "command": "rm -rf build", "choice": "once",
        }),
        _ => json!({"session_id": SESSION}),
    };
    match value.take() {
        Value::Object(map) => map,
        _ => unreachable!("every synthetic payload is an object"),
    }
}

#[cfg(test)]
mod tests {
    use super::payload;
    use crate::config::Event;

    #[test]
    fn every_event_has_an_object_with_a_session() {
        for event in Event::all() {
            let p = payload(event);
            assert!(
                p.contains_key("session_id") || p.contains_key("parent_session_id"),
                "{event}"
            );
        }
    }

    #[test]
    fn tool_events_are_a_harmless_terminal_call() {
        let p = payload(Event::parse("pre-tool-call").unwrap().event);
        assert_eq!(p["tool_name"], "terminal");
        assert_eq!(p["args"]["command"], "echo hello");
        assert_eq!(
            payload(Event::parse("post_tool_call").unwrap().event)["duration_ms"],
            42
        );
    }
}
