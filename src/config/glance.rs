//! A glance at a HOOK.md frontmatter before it is parsed: its trigger (and name), when plain
//! top-level lines say them beyond doubt. `run` loads one event's hooks, so a folder whose
//! trigger is another event needs no YAML parser at all.
//!
//! The glance only ever answers "this is a hook of that other event"; anything it cannot be
//! sure of (a quoted or flow value, a key written twice, a line it does not read as a plain
//! `key: value`) sends the file to the parser, which gives the exact answer and the warnings.
//! So a hook of the event asked for is always parsed, and a file the glance passes over could
//! not have loaded for that event: either its trigger is the other event, or it does not parse.

use super::event::Event;

/// The trigger and name a frontmatter declares, when a glance is enough.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Glance<'a> {
    /// The event its trigger names.
    pub event: Event,
    /// Its `name`, when it has one (else the folder's name counts).
    pub name: Option<&'a str>,
}

/// Reads `trigger` and `name` from the top-level lines of `yaml`; `None` when unsure.
pub(crate) fn glance(yaml: &str) -> Option<Glance<'_>> {
    let mut trigger = None;
    let mut name = None;
    let mut after_trigger = false;
    for line in yaml.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let blank = line.trim().is_empty();
        if after_trigger && !blank {
            // An indented line right after the trigger could continue its value.
            if line.starts_with([' ', '\t']) {
                return None;
            }
            after_trigger = false;
        }
        if blank || line.starts_with('#') {
            continue;
        }
        if !unquoted(line) {
            return None;
        }
        if line.starts_with([' ', '\t']) {
            continue; // inside a top-level value (matcher:, description: |)
        }
        let (key, value) = plain_entry(line)?;
        match key {
            "trigger" if trigger.is_none() => {
                trigger = Some(value);
                after_trigger = true;
            }
            "name" if name.is_none() => name = Some(value),
            "trigger" | "name" => return None, // written twice: the parser says which counts
            _ => {}
        }
    }
    let event = Event::parse(trigger?).ok()?.event;
    let name = match name {
        None => None,
        Some(name) if plain_name(name) => Some(name),
        Some(_) => return None,
    };
    Some(Glance { event, name })
}

/// A top-level `key: value` line whose key is a plain word; the value without its comment.
/// `None` for anything else (a quoted or complex key, an anchor, a tag, a merge, a list item),
/// and for a value that is not a plain word.
fn plain_entry(line: &str) -> Option<(&str, &str)> {
    let (key, rest) = line.split_once(':')?;
    let key = key.trim_end();
    let word = |text: &str| {
        text.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
            && text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if !word(key) || !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    let value = match rest.find(" #").or_else(|| rest.find("\t#")) {
        Some(at) => &rest[..at],
        None => rest,
    }
    .trim();
    if key == "trigger" || key == "name" {
        return (!value.is_empty() && word(value)).then_some((key, value));
    }
    Some((key, value))
}

/// A name the parser reads as the same text: a spec name (lowercase words and hyphens) that
/// starts with a letter and is none of the words YAML reads as a boolean or null.
fn plain_name(name: &str) -> bool {
    const SPECIAL: [&str; 11] = [
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "nan", "inf",
    ];
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && is_spec_name(name)
        && !SPECIAL.contains(&name)
}

/// Whether nothing on this line starts a quoted string, a flow collection, a block scalar, an
/// anchor, alias or tag, or a complex key: a node that could go on over the next lines (and so
/// hide or fake a top-level line), or that the parser reads in its own way. A double quote
/// anywhere is enough to be unsure; the other marks count where a node starts (the start of the
/// line, after `- `, after `: `), so `it's` in a description is fine.
fn unquoted(line: &str) -> bool {
    const MARKS: [char; 12] = ['\'', '[', '{', '`', '|', '>', '&', '*', '!', '%', '@', '?'];
    if line.contains('"') {
        return false;
    }
    let starts_node = |text: &str| text.trim_start().starts_with(MARKS);
    let mut rest = line.trim_start();
    while let Some(item) = rest.strip_prefix("- ") {
        rest = item.trim_start();
    }
    if starts_node(rest) {
        return false;
    }
    let bytes = line.as_bytes();
    !bytes.iter().enumerate().any(|(at, byte)| {
        *byte == b':'
            && matches!(bytes.get(at + 1), Some(b' ' | b'\t'))
            && starts_node(&line[at + 1..])
    })
}

/// Whether `name` follows the spec: lowercase letters, digits and single hyphens between them.
pub(crate) fn is_spec_name(name: &str) -> bool {
    name.split('-').all(|part| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::{Glance, glance};
    use crate::config::event::Event;
    use crate::config::yaml::{self, Loose};
    use serde_saphyr::Spanned;

    fn event(name: &str) -> Event {
        Event::parse(name).unwrap().event
    }

    /// What the parser makes of the same text: the trigger's event and the name, as loading
    /// reads them.
    fn parsed(yaml_text: &str) -> Option<(Option<Event>, Option<String>)> {
        #[derive(serde::Deserialize)]
        struct Raw {
            #[serde(default)]
            name: Option<Spanned<Loose>>,
            #[serde(default)]
            trigger: Option<Spanned<Loose>>,
        }
        let raw: Raw = yaml::parse::<Option<Raw>>(yaml_text).ok()??;
        let trigger = match raw.trigger.map(|t| t.value) {
            Some(Loose::Str(name)) => Event::parse(name.trim()).ok().map(|r| r.event),
            _ => None,
        };
        let name = match raw.name.map(|n| n.value) {
            Some(Loose::Str(name)) if !name.trim().is_empty() => Some(name.trim().to_owned()),
            _ => None,
        };
        Some((trigger, name))
    }

    #[test]
    fn plain_lines_are_read_at_a_glance() {
        for (yaml_text, want, name) in [
            ("trigger: pre-tool-call\n", "pre_tool_call", None),
            (
                "name: guard\ndescription: Blocks it\ntrigger: post-tool-call # why\n",
                "post_tool_call",
                Some("guard"),
            ),
            (
                "trigger: PreToolUse\r\nname: x\r\n",
                "pre_tool_call",
                Some("x"),
            ),
            (
                "trigger: pre-session\nmatcher:\n  tool: terminal\ndescription: it's fine\n",
                "on_session_start",
                None,
            ),
            (
                "trigger:   Stop   \n\n# a comment\ntimeout: 5\n",
                "pre_verify",
                None,
            ),
        ] {
            let seen = glance(yaml_text).unwrap_or_else(|| panic!("{yaml_text:?}"));
            assert_eq!(
                seen,
                Glance {
                    event: event(want),
                    name
                },
                "{yaml_text:?}"
            );
            let (trigger, parsed_name) = parsed(yaml_text).unwrap();
            assert_eq!(trigger, Some(seen.event), "{yaml_text:?}");
            assert_eq!(parsed_name.as_deref(), seen.name, "{yaml_text:?}");
        }
    }

    #[test]
    fn anything_unsure_goes_to_the_parser() {
        for yaml_text in [
            // No trigger, or one the parser must judge.
            "name: x\n",
            "trigger: no-such-event\n",
            "trigger:\n  pre-tool-call\n",
            "trigger: pre-tool\n  -call\n",
            "trigger: pre-tool-call\ntrigger: post-tool-call\n",
            // Keys or values that are not plain.
            "\"trigger\": pre-tool-call\n",
            "'trigger': pre-tool-call\n",
            "trigger: \"pre-tool-call\"\n",
            "trigger: 'post-tool-call'\n",
            "{trigger: pre-tool-call}\n",
            "? trigger\n: pre-tool-call\n",
            "<<: *base\ntrigger: pre-tool-call\n",
            "&a trigger: pre-tool-call\n",
            "!!str trigger: pre-tool-call\n",
            "- trigger: pre-tool-call\n",
            "\ttrigger: pre-tool-call\n",
            "trigger: pre-tool-call\n\"trig\\x67er\": post-tool-call\n",
            // A value that may run over the next lines and hide or fake a top-level line.
            "description: \"a\ntrigger: post-tool-call\n\"\ntrigger: pre-tool-call\n",
            "matcher:\n  tool: 'a\ntrigger: post-tool-call\n'\n",
            "description: |\n  x\ntrigger: pre-tool-call\n",
            "matcher: [a,\ntrigger: post-tool-call]\n",
            // Names the parser reads as something else.
            "name: yes\ntrigger: pre-tool-call\n",
            "name: 123\ntrigger: pre-tool-call\n",
            "name: Guard\ntrigger: pre-tool-call\n",
            "name: a: b\ntrigger: pre-tool-call\n",
            "name: x\nname: y\ntrigger: pre-tool-call\n",
        ] {
            assert_eq!(glance(yaml_text), None, "{yaml_text:?}");
        }
    }
}
