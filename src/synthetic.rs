//! Synthetic payloads for `test` and `doctor`: each event's `sample` from the event table, with
//! `status` `error` when the event is called by its failure alias.

use serde_json::{Map, Value};

use crate::config::event::Resolved;
use crate::payload::FAILED_STATUS;

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
        for event in Event::all() {
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
        assert_eq!(sample("post_tool_call")["status"], "ok");
        assert_eq!(sample("post-tool-call-failure")["status"], "error");
        assert_eq!(sample("api_request_error")["status_code"], 529);
        assert_eq!(sample("api_request_error")["message_count"], 4);
    }
}
