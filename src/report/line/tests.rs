//! The answer line written field by field against the one serde writes.

use super::to_line;

#[test]
fn terminal_active_characters_are_escaped_and_read_back_the_same() {
    let text = "a\u{7f}b\u{9b}c\u{202e}d\u{1b}[8m\u{2028}é";
    let line = to_line(&serde_json::json!({ "k": text }));
    assert!(line.bytes().all(|b| b >= 0x20 && b != 0x7f), "{line:?}");
    assert!(
        !line.contains('\u{9b}') && !line.contains('\u{202e}'),
        "{line}"
    );
    let back: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(back["k"], text);
    assert!(line.contains('é'), "other text stays as it is: {line}");
}

/// A hook line for each text, each status and extra field in turn.
fn sample_hooks<'a>(odd: &[&'a str]) -> Vec<super::HookLine<'a>> {
    odd.iter()
        .enumerate()
        .map(|(n, text)| super::HookLine {
            name: text,
            source: "rules",
            command: odd[(n + 1) % odd.len()],
            status: if n % 2 == 0 { "not_matched" } else { "blocked" },
            exit_code: match n {
                2 => Some(Some(2)),
                4 => Some(None),
                _ => None,
            },
            elapsed_ms: match n {
                2 => Some(1.5),
                1 => Some(0.000_123),
                4 => Some(12_345.678_9),
                _ => None,
            },
            message: (n % 2 == 1 || n == 4).then_some(*text),
            entry: None,
        })
        .collect()
}

#[test]
fn the_written_line_is_the_serialised_one() {
    use super::{DirectiveKeys, Entry, ErrorEntry, Held, HookLine, HookLines, RunLine};
    use crate::engine::response::Directive;
    let odd = [
        "plain",
        "with \"quotes\" and \\",
        "tab\there",
        "é\u{202e}\u{1b}[2J",
        "",
        "sixteen bytes in: \"a quote\" after them",
        "fifteen bytes, \u{7f} then plain text for a while",
        "thirty-two bytes of plain text!!\\",
    ];
    let mut args = serde_json::Map::new();
    args.insert("hooks".to_owned(), serde_json::json!([]));
    let directives = [
        None,
        Some(Directive::Block {
            message: odd[1].to_owned(),
        }),
        Some(Directive::Modify { args }),
        Some(Directive::Context {
            text: odd[3].to_owned(),
        }),
        Some(Directive::Ask {
            message: "a person decides".to_owned(),
            rule_key: Some("k".to_owned()),
            args: None,
        }),
    ];
    let hooks = sample_hooks(&odd);
    // Each entry as a rule keeps it, written once in one text: the same text as written on
    // the spot, whether a kept entry stands alone or in a run copied as one.
    let mut text = String::new();
    let mut places = Vec::new();
    for hook in &hooks {
        if !text.is_empty() {
            text.push(',');
        }
        let start = text.len();
        hook.write_head(&mut text, &mut super::Tail::default());
        let status = text.len();
        text.push_str("not_matched\"}");
        places.push((start, status, text.len()));
    }
    let text: std::sync::Arc<str> = text.into();
    let entries: Vec<Entry> = places
        .iter()
        .map(|&(start, status, end)| Entry {
            text: std::sync::Arc::clone(&text),
            start: u32::try_from(start).unwrap(),
            status: u32::try_from(status).unwrap(),
            end: u32::try_from(end).unwrap(),
        })
        .collect();
    let kept = |n: usize| HookLine {
        entry: Some(&entries[n]),
        ..hooks[n].clone()
    };
    let mut hooks: Vec<HookLine<'_>> = (0..hooks.len())
        .flat_map(|n| [hooks[n].clone(), kept(n)])
        .collect();
    hooks.extend((0..entries.len()).map(kept));
    hooks.extend((0..entries.len()).rev().map(kept));
    let errors = [crate::engine::fail_closed::RunnerError {
        unread: crate::engine::fail_closed::Unread::Payload,
        file: Some("/x/\"y\".yaml".into()),
        line: Some(3),
        why: odd[2].to_owned(),
        message: String::new(),
        could_block: true,
    }];
    for directive in &directives {
        for (many, with_errors) in [(0, false), (2, true), (10, false), (40, false)] {
            let line = RunLine {
                event: "pre_tool_call",
                error: with_errors.then_some(odd[1]),
                directive: DirectiveKeys::of(directive.as_ref()),
                held: Held::of(directive.as_ref()),
                errors: if with_errors {
                    ErrorEntry::all(&errors)
                } else {
                    Vec::new()
                },
                hooks: HookLines::Given(hooks.iter().take(many).map(HookLine::clone).collect()),
                loop_guard: with_errors.then_some(crate::engine::loop_guard::Released {
                    consecutive: 4,
                    limit: 3,
                }),
            };
            assert_eq!(line.text(), to_line(&line));
        }
    }
}

#[test]
fn printable_ascii_is_written_as_it_is() {
    let text = "plain ASCII: ~!@#$%^&*()_+{}|:<>?[];',./`";
    let line = to_line(&serde_json::json!({ "k": text }));
    let back: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(back["k"], text);
    assert!(line.contains("~!@#$%^&*()_+{}|:<>?[];',./`"), "{line}");
    assert_eq!(to_line(&serde_json::json!("a\u{1b}b")), "\"a\\u001bb\"");
}
