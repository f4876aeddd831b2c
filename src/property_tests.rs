//! Properties: reading an answer, splitting a command and matching a tool name keep their promises
//! for any input, and the config, HOOK.md and payload parsers survive random bytes (a bounded
//! number of cases, no saved failures, so `cargo test` stays quick and leaves nothing behind).

use std::path::Path;
use std::time::Duration;

use crate::config::{Event, HookSpec, Origin, Scope, Source, hermes, hook_md};
use crate::engine::payload;
use crate::engine::response::{Directive, Rules, Status, interpret};
use crate::exec::{End, Outcome, spawn};
use proptest::collection::vec;
use proptest::prelude::*;

const EVENTS: [&str; 7] = [
    "pre_tool_call",
    "pre_tts_synthesis",
    "post_tool_call",
    "pre_llm_call",
    "pre_verify",
    "on_session_start",
    "subagent_stop",
];

fn hook(event: &str) -> HookSpec {
    HookSpec::new(
        Event::parse(event).unwrap().event,
        Source::Config,
        "h".to_owned(),
        "/bin/h".to_owned(),
        Origin {
            file: std::path::Path::new("config.yaml").into(),
            line: Some(1),
        },
    )
}

fn exited(code: i32, stdout: Vec<u8>, stderr: Vec<u8>) -> Outcome {
    Outcome {
        end: End::Exited(code),
        stdout,
        stdout_overflow: false,
        stderr,
        elapsed: Duration::ZERO,
    }
}

/// Bytes that are often JSON-ish, to get past the first character of the parser.
fn answer_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        vec(any::<u8>(), 0..256),
        "[{}\\[\\]\":,a-z0-9 ]{0,64}".prop_map(String::into_bytes),
        (
            prop::sample::select(vec!["block", "deny", "allow", "modify", "continue", "x"]),
            ".{0,40}"
        )
            .prop_map(|(decision, reason)| {
                serde_json::json!({"decision": decision, "reason": reason, "tool_input": {"a": 1}})
                    .to_string()
                    .into_bytes()
            }),
        ".{0,20}".prop_map(|text| serde_json::json!({ "text": text }).to_string().into_bytes()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_answer_is_read_and_only_allowed_effects_come_out(
        code in -1i32..256,
        stdout in answer_bytes(),
        stderr in vec(any::<u8>(), 0..128),
        event in prop::sample::select(EVENTS.to_vec()),
    ) {
        let hook = hook(event);
        let rules = Rules::for_hook(&hook);
        let answer = interpret(&exited(code, stdout, stderr), &rules);
        let effects = hook.effects();
        match &answer.directive {
            Some(Directive::Block { message }) => {
                prop_assert!(effects.contains(crate::config::Effects::BLOCK));
                prop_assert!(!message.is_empty());
            }
            Some(Directive::Continue { .. }) => {
                prop_assert!(effects.contains(crate::config::Effects::GATE));
            }
            Some(Directive::Modify { .. }) => {
                prop_assert!(effects.contains(crate::config::Effects::MODIFY));
                prop_assert_eq!(code, 0, "only a successful hook rewrites");
            }
            Some(Directive::Context { .. }) => {
                prop_assert!(effects.contains(crate::config::Effects::CONTEXT));
            }
            Some(Directive::Text { text }) => {
                prop_assert!(effects.contains(crate::config::Effects::TEXT));
                prop_assert!(!text.trim().is_empty());
                prop_assert_eq!(code, 0, "only a successful hook replaces the text");
            }
            Some(Directive::Ask { message, .. }) => {
                prop_assert!(effects.contains(crate::config::Effects::ASK));
                prop_assert!(!message.trim().is_empty());
            }
            None => {}
        }
        if answer.status == Status::InvalidOutput {
            prop_assert!(answer.directive.is_none(), "unreadable output asks for nothing");
        }
    }

    #[test]
    fn a_block_answer_blocks_with_its_reason(reason in "[a-zA-Z0-9]([a-zA-Z0-9 .,!?]{0,60}[a-zA-Z0-9])?") {
        let json = serde_json::json!({"decision": "block", "reason": reason}).to_string();
        let hook = hook("pre_tool_call");
        let answer = interpret(&exited(0, json.into_bytes(), Vec::new()), &Rules::for_hook(&hook));
        prop_assert_eq!(answer.status, Status::Blocked);
        prop_assert_eq!(answer.directive, Some(Directive::Block { message: reason }));
    }

    #[test]
    fn quoted_words_split_back_to_themselves(
        words in vec("[a-zA-Z0-9 ;|&$`'\"\\\\*?(){}<>#=.,/-]{1,16}", 1..6)
            .prop_filter("a leading ~ is expanded", |w| w.iter().all(|w| !w.starts_with('~'))),
    ) {
        let line = shlex::try_join(words.iter().map(String::as_str)).unwrap();
        prop_assert_eq!(spawn::split(&line).unwrap(), words);
    }

    #[test]
    fn splitting_any_text_never_panics(line in any::<String>()) {
        if let Ok(words) = spawn::split(&line) {
            prop_assert!(!words.is_empty());
        }
    }

    #[test]
    fn the_config_parser_survives_random_bytes(
        bytes in vec(any::<u8>(), 0..1024),
        text in "(hooks:\n  [a-z_]{0,14}:\n    - [a-z]{0,8}: [^\n]{0,30}\n){0,3}[ -~\n]{0,200}",
    ) {
        let file = Path::new("config.yaml");
        for input in [bytes.as_slice(), text.as_bytes()] {
            let _ = hermes::parse(file, input, None);
            let _ = hermes::parse(file, input, Some(Event::parse("pre_tool_call").unwrap().event));
        }
    }

    #[test]
    fn the_payload_parser_survives_random_bytes(
        bytes in vec(any::<u8>(), 0..1024),
        text in "[{}\\[\\]\":,a-z0-9. \\\\-]{0,200}",
    ) {
        let _ = payload::parse(&bytes);
        if let Ok(map) = payload::parse(text.as_bytes()) {
            let invocation = payload::Invocation::from_input(map, "/", &crate::agents::Agent::Hermes);
            let _ = crate::ground::pyjson::to_compact(
                &invocation.hermes_wire(Event::parse("pre_tool_call").unwrap().event, invocation.tool_input.as_ref()),
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_hook_md_reader_survives_random_bytes(
        bytes in vec(any::<u8>(), 0..512),
        text in "---\n(name: [a-z-]{0,10}\n)?(trigger: [a-z-]{0,14}\n)?[ -~\n]{0,120}(---\n)?[ -~\n]{0,40}",
    ) {
        let dir = tempfile::tempdir().unwrap();
        for (name, input) in [("raw", bytes.as_slice()), ("shaped", text.as_bytes())] {
            let folder = dir.path().join(name);
            std::fs::create_dir_all(&folder).unwrap();
            std::fs::write(folder.join("HOOK.md"), input).unwrap();
        }
        let mut warnings = Vec::new();
        let _ = hook_md::load_level(dir.path(), Scope::User, None, &mut warnings);
    }
}

/// JSON values of every kind, a few levels deep, with strings full of JSON's own punctuation.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::Value;
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-z\"\\\\\\[\\]{},: \n]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            vec(("[a-z\"\\\\{}]{0,4}", inner), 0..4)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn the_outline_of_an_object_holds_what_a_parser_reads(
        pairs in vec(("[a-z\"\\\\{}:,]{0,6}", json_value()), 0..6),
        pretty in any::<bool>(),
    ) {
        let object: serde_json::Map<String, serde_json::Value> = pairs.into_iter().collect();
        let text = if pretty {
            serde_json::to_string_pretty(&object).unwrap()
        } else {
            String::from_utf8(crate::ground::pyjson::to_compact(&object)).unwrap()
        };
        let (members, whole) = crate::ground::pyjson::members(text.as_bytes());
        prop_assert!(whole, "{}", text);
        let read: serde_json::Map<String, serde_json::Value> = members
            .iter()
            .map(|m| {
                let key = crate::ground::pyjson::from_slice(m.key).unwrap();
                let value = crate::ground::pyjson::from_slice(m.value).unwrap();
                (key.as_str().unwrap().to_owned(), value)
            })
            .collect();
        prop_assert_eq!(read, object);
    }

    #[test]
    fn nesting_is_read_to_its_limit_and_refused_beyond_it(
        openers in vec(prop::sample::select(vec!["[", "{\"k\": ", "[1, ", "{\"]\": 0, \"[\": "]), 0..40),
        repeat in prop_oneof![1..30_usize, 30..60_usize],
        cut in 0..3_usize,
    ) {
        let openers: Vec<&str> = openers.iter().copied().cycle().take(openers.len() * repeat).collect();
        let mut text: String = openers.concat();
        text.push('0');
        for opener in openers.iter().rev() {
            text.push(if opener.starts_with('[') { ']' } else { '}' });
        }
        text.truncate(text.len() - cut.min(openers.len()));
        let read = crate::ground::pyjson::from_slice(text.as_bytes());
        if openers.len() > crate::ground::pyjson::MAX_DEPTH {
            prop_assert!(matches!(read, Err(crate::ground::pyjson::JsonError::TooDeep(_))));
        } else if cut == 0 || openers.is_empty() {
            prop_assert!(read.is_ok(), "{:?}", read.err());
        } else {
            prop_assert!(matches!(read, Err(crate::ground::pyjson::JsonError::Invalid(_))));
        }
        let _ = crate::ground::pyjson::members(text.as_bytes());
    }

    #[test]
    fn the_outline_reader_survives_random_bytes(
        bytes in vec(any::<u8>(), 0..256),
        text in "[{}\\[\\]\":,a-z0-9 \\\\]{0,64}",
    ) {
        for input in [bytes.as_slice(), text.as_bytes()] {
            let (members, _) = crate::ground::pyjson::members(input);
            for member in members {
                prop_assert!(member.key.starts_with(b"\"") && !member.value.is_empty());
            }
        }
    }
}
