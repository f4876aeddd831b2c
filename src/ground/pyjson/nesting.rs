//! Walks over JSON text that never recurse, whatever its depth: how deep the text nests, and the
//! members of a top-level object each as its own text. Neither checks the JSON; both read it
//! the way a parser would (brackets inside strings do not count), so what they find is true of
//! any text a parser accepts.

/// How deep a text nests: the deepest level reached, and where (a byte offset) it first goes
/// deeper than the limit it was walked with.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Nesting {
    pub(super) deepest: usize,
    pub(super) beyond: Option<usize>,
}

/// How deep `text` nests, up to the first bracket that goes deeper than `limit`.
pub(super) fn nesting(text: &[u8], limit: usize) -> Nesting {
    let mut depth = 0_usize;
    let mut deepest = 0;
    let mut at = 0;
    while at < text.len() {
        match text[at] {
            b'"' => {
                at = string_end(text, at);
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Nesting {
                        deepest: depth,
                        beyond: Some(at),
                    };
                }
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        at += 1;
    }
    Nesting {
        deepest,
        beyond: None,
    }
}

/// The offset just past the string that opens at `start` (a `"`), or the text's length when it
/// never closes.
fn string_end(text: &[u8], start: usize) -> usize {
    let mut at = start + 1;
    while at < text.len() {
        match text[at] {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    text.len()
}

/// One member of a top-level object: its key and its value as they are written, and the offset
/// of the value in the whole text.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Member<'a> {
    pub(crate) key: &'a [u8],
    pub(crate) value: &'a [u8],
    pub(crate) at: usize,
}

/// The members of the object `text` holds, in order, as far as its outline can be followed
/// (strings closed, brackets balanced, `:` and `,` in their places); the second value says
/// whether the outline was whole, up to the closing `}` and nothing after it but whitespace.
/// What is inside each key and value is not read.
pub(crate) fn members(text: &[u8]) -> (Vec<Member<'_>>, bool) {
    let mut found = Vec::new();
    let mut at = skip_space(text, 0);
    if text.get(at) != Some(&b'{') {
        return (found, false);
    }
    at = skip_space(text, at + 1);
    if text.get(at) == Some(&b'}') {
        return (found, skip_space(text, at + 1) == text.len());
    }
    loop {
        let Some(key_end) = value_end(text, at).filter(|_| text[at] == b'"') else {
            return (found, false);
        };
        let key = &text[at..key_end];
        at = skip_space(text, key_end);
        if text.get(at) != Some(&b':') {
            return (found, false);
        }
        let start = skip_space(text, at + 1);
        let Some(end) = value_end(text, start) else {
            return (found, false);
        };
        found.push(Member {
            key,
            value: &text[start..end],
            at: start,
        });
        at = skip_space(text, end);
        match text.get(at) {
            Some(b',') => at = skip_space(text, at + 1),
            Some(b'}') => return (found, skip_space(text, at + 1) == text.len()),
            _ => return (found, false),
        }
    }
}

/// The offset just past the value that starts at `start`: a closed string, balanced brackets,
/// or a run of anything else up to a delimiter. `None` when there is no such value.
fn value_end(text: &[u8], start: usize) -> Option<usize> {
    match text.get(start)? {
        b'"' => {
            let end = string_end(text, start);
            (end > start + 1 && text[end - 1] == b'"').then_some(end)
        }
        b'[' | b'{' => {
            let mut depth = 0_usize;
            let mut at = start;
            while at < text.len() {
                match text[at] {
                    b'"' => {
                        at = string_end(text, at);
                        continue;
                    }
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(at + 1);
                        }
                    }
                    _ => {}
                }
                at += 1;
            }
            None
        }
        _ => {
            let len = text[start..]
                .iter()
                .position(|b| b",:[]{}\"".contains(b) || is_space(*b))
                .unwrap_or(text.len() - start);
            (len > 0).then_some(start + len)
        }
    }
}

/// JSON's whitespace, as Python's `json` reads it.
const fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

fn skip_space(text: &[u8], from: usize) -> usize {
    from + text
        .get(from..)
        .map_or(0, |rest| rest.iter().take_while(|b| is_space(**b)).count())
}

#[cfg(test)]
mod tests {
    use super::{Member, Nesting, members, nesting};

    #[test]
    fn brackets_in_strings_do_not_nest() {
        let text = br#"{"a": "[[[{\"[", "b": [[{}]]}"#;
        assert_eq!(
            nesting(text, 10),
            Nesting {
                deepest: 4,
                beyond: None
            }
        );
        assert_eq!(nesting(b"[[[", 2).beyond, Some(2));
        let deep = "[".repeat(1_000_000);
        assert_eq!(nesting(deep.as_bytes(), 999_999).beyond, Some(999_999));
    }

    #[test]
    fn members_are_found_without_reading_them() {
        let text = br#" { "id" : 7, "x\"}": {"a": [1, "]"]}, "n": -1.5e3 , "s": "}" } "#;
        let (found, whole) = members(text);
        assert!(whole);
        let pairs: Vec<(&[u8], &[u8])> = found.iter().map(|m| (m.key, m.value)).collect();
        assert_eq!(
            pairs,
            [
                (&br#""id""#[..], &b"7"[..]),
                (br#""x\"}""#, br#"{"a": [1, "]"]}"#),
                (br#""n""#, b"-1.5e3"),
                (br#""s""#, br#""}""#),
            ]
        );
        assert_eq!(found[0].at, 10);
        assert_eq!(members(b"{}"), (vec![], true));
    }

    #[test]
    fn the_outline_stops_where_it_breaks() {
        let (found, whole) = members(br#"{"id": 3, "payload": {"a": [}"#);
        assert!(!whole);
        assert_eq!(
            found,
            [Member {
                key: br#""id""#,
                value: b"3",
                at: 7
            }]
        );
        for broken in [
            &b""[..],
            b"[1]",
            b"{",
            br#"{"id" 3}"#,
            br#"{"id": }"#,
            br#"{"id": 3,}"#,
            br#"{"id": 3} x"#,
            br#"{"id: 3}"#,
            br"{id: 3}",
        ] {
            assert!(!members(broken).1, "{}", String::from_utf8_lossy(broken));
        }
        let deep = format!(r#"{{"id": 1, "p": {}"#, "[".repeat(200_000));
        let (found, whole) = members(deep.as_bytes());
        assert_eq!((found.len(), whole), (1, false));
    }
}
