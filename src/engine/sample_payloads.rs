//! Synthetic payloads for `test` and `doctor`: each event's `sample` from the event table, with
//! `status` `error` when the event is called by its failure alias.

use serde_json::{Map, Value};

use crate::config::event::Resolved;
use crate::engine::payload::FAILED_STATUS;

/// The synthetic payload for the event as `called`, in the Hermes keyword-argument shape.
pub(crate) fn payload(called: Resolved) -> Map<String, Value> {
    let sample = called.event.def().sample;
    let mut map: Map<String, Value> =
        serde_json::from_str(sample).expect("the event table's samples are JSON objects");
    if called.is_failure() {
        map.insert("status".to_owned(), Value::from(FAILED_STATUS));
    }
    map
}

#[cfg(test)]
mod tests {
    use super::payload;
    use crate::config::Event;
    use crate::config::event::Resolved;

    fn sample(name: &str) -> serde_json::Map<String, serde_json::Value> {
        payload(Event::parse(name).unwrap())
    }

    #[test]
    fn every_event_has_an_object_with_a_session() {
        // Hermes calls `pre_tts_synthesis` with the text and the provider alone.
        for event in Event::all().filter(|e| !e.def().plugin_fired) {
            let p = payload(Resolved::plain(event));
            assert!(
                p.contains_key("session_id") || p.contains_key("parent_session_id"),
                "{event}"
            );
        }
    }

    #[test]
    fn tool_events_are_a_harmless_terminal_call() {
        let p = sample("pre-tool-call");
        assert_eq!(p["tool_name"], "terminal");
        assert_eq!(p["args"]["command"], "echo hello");
        assert_eq!(sample("post_tool_call")["duration_ms"], 42);
        assert_eq!(sample("post-tool-call-failure")["status"], "error");
    }

    /// The synthetic payload of `event`, as text, equals `expected` key for key and in order.
    fn same(event: &str, expected: &str) {
        let got = serde_json::to_string(&sample(event)).unwrap();
        let want: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(expected).unwrap();
        assert_eq!(got, serde_json::to_string(&want).unwrap(), "{event}");
    }

    // Hermes's `_DEFAULT_PAYLOADS` (`hermes_cli/hooks.py`, the newest source), one event each,
    // transcribed from the reference: a drift names its event.
    macro_rules! hermes_test_payload {
        ($($name:ident: $event:literal => $expected:literal;)*) => {
            $(
                #[test]
                fn $name() {
                    same($event, $expected);
                }
            )*
        };
    }

    hermes_test_payload! {
        pre_tool_call: "pre_tool_call" => r#"{"tool_name": "terminal", "args": {"command": "echo hello"}, "session_id": "test-session", "task_id": "test-task", "tool_call_id": "test-call"}"#;
        post_tool_call: "post_tool_call" => r#"{"tool_name": "terminal", "args": {"command": "echo hello"}, "session_id": "test-session", "task_id": "test-task", "tool_call_id": "test-call", "result": "{\"output\": \"hello\"}", "duration_ms": 42}"#;
        pre_llm_call: "pre_llm_call" => r#"{"session_id": "test-session", "user_message": "What is the weather?", "conversation_history": [], "is_first_turn": true, "model": "gpt-4", "platform": "cli"}"#;
        post_llm_call: "post_llm_call" => r#"{"session_id": "test-session", "model": "gpt-4", "platform": "cli"}"#;
        pre_verify: "pre_verify" => r#"{"session_id": "test-session", "platform": "cli", "model": "gpt-4", "coding": true, "attempt": 0, "final_response": "All done — the change is applied.", "changed_paths": ["src/app.tsx"]}"#;
        on_session_start: "on_session_start" => r#"{"session_id": "test-session"}"#;
        on_session_finalize: "on_session_finalize" => r#"{"session_id": "test-session"}"#;
        on_session_reset: "on_session_reset" => r#"{"session_id": "test-session"}"#;
        on_session_end: "on_session_end" => r#"{"session_id": "test-session", "task_id": "test-task", "turn_id": "test-turn", "completed": true, "failed": false, "interrupted": false, "turn_exit_reason": "text_response(stop)", "model": "gpt-4", "platform": "cli"}"#;
        pre_api_request: "pre_api_request" => r#"{"session_id": "test-session", "task_id": "test-task", "platform": "cli", "model": "claude-sonnet-4-6", "provider": "anthropic", "base_url": "https://api.anthropic.com", "api_mode": "anthropic_messages", "api_call_count": 1, "message_count": 4, "tool_count": 12, "approx_input_tokens": 2048, "request_char_count": 8192, "max_tokens": 4096}"#;
        post_api_request: "post_api_request" => r#"{"session_id": "test-session", "task_id": "test-task", "platform": "cli", "model": "claude-sonnet-4-6", "provider": "anthropic", "base_url": "https://api.anthropic.com", "api_mode": "anthropic_messages", "api_call_count": 1, "api_duration": 1.234, "started_at": 1756000000.0, "ended_at": 1756000001.234, "first_chunk_at": 1756000000.512, "finish_reason": "stop", "message_count": 4, "response_model": "claude-sonnet-4-6", "usage": {"input_tokens": 2048, "output_tokens": 512}, "assistant_content_chars": 1200, "assistant_tool_call_count": 0, "moa_references": null}"#;
        subagent_stop: "subagent_stop" => r#"{"parent_session_id": "parent-sess", "child_role": null, "child_summary": "Synthetic summary for hooks test", "child_status": "completed", "tool_call_history": [{"tool_name": "write_file", "tool_input": {"argument_keys": ["content", "path"], "targets": {"path": "notes/report.txt"}}, "input_bytes": 128, "output_bytes": 32, "status": "ok"}], "duration_ms": 1234}"#;
        pre_auxiliary_call: "pre_auxiliary_call" => r#"{"aux_task": "title_generation", "session_id": "test-session", "task_id": "test-task", "turn_id": "test-turn", "api_request_id": "aux-0123abcd", "platform": "cli", "model": "claude-haiku-4-5", "provider": "anthropic", "base_url": "https://api.anthropic.com", "api_mode": "anthropic_messages", "api_call_count": 1, "retry_count": 0, "streaming": false, "message_count": 2, "tool_count": 0, "approx_input_tokens": 256, "request_char_count": 1024, "max_tokens": 64}"#;
        post_auxiliary_call: "post_auxiliary_call" => r#"{"aux_task": "title_generation", "session_id": "test-session", "task_id": "test-task", "turn_id": "test-turn", "api_request_id": "aux-0123abcd", "platform": "cli", "model": "claude-haiku-4-5", "provider": "anthropic", "base_url": "https://api.anthropic.com", "api_mode": "anthropic_messages", "api_call_count": 1, "retry_count": 0, "streaming": false, "api_duration": 0.42, "started_at": 1756000000.0, "ended_at": 1756000000.42, "finish_reason": "stop", "response_model": "claude-haiku-4-5", "usage": {"input_tokens": 256, "output_tokens": 12}, "assistant_content_chars": 40, "assistant_tool_call_count": 0, "error": null, "error_type": null}"#;
        any_other_event: "subagent_start" => r#"{"session_id": "test-session"}"#;
    }
}
