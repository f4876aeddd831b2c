//! Walks over JSON text that never recurse, whatever its depth: how deep the text nests. It does
//! not check the JSON; it reads it the way a parser would (brackets inside strings do not count),
//! so what it finds is true of any text a parser accepts.

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

#[cfg(test)]
mod tests {
    use super::{Nesting, nesting};

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
}
