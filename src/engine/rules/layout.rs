//! A rules file's text as a person laid it out: where its `rules:` list is, how far its items
//! are indented and which lines each takes, so rules can be appended without changing a byte
//! written, and a rule compared with a pack's.

use std::ops::Range;

/// A rules file's text, read as lines.
#[derive(Debug)]
pub(crate) struct Layout<'t> {
    text: &'t str,
    /// Each line's byte range in `text`, without its line end.
    lines: Vec<Range<usize>>,
    /// The line end the file uses.
    newline: &'static str,
    /// What the file's `rules:` key holds.
    key: Key,
    /// How far the items are indented, once there is one.
    indent: Option<usize>,
    /// The line each item starts on (0-based), in order.
    starts: Vec<usize>,
}

/// What the `rules:` key holds.
#[derive(Debug)]
enum Key {
    /// There is no `rules:` key (an empty file, or comments only).
    Absent,
    /// `rules:` and its line (0-based), then a block list (or nothing yet).
    Block(usize),
    /// `rules: []`, `rules: ~` or `rules: null`: the value's byte range.
    Empty(Range<usize>),
}

/// Why rules cannot be appended to a file safely: the line (1-based) and what is there.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub line: usize,
    pub why: String,
}

impl<'t> Layout<'t> {
    /// Reads `text` (a UTF-8 BOM is allowed) as a rules file whose `rules:` list is its only
    /// top-level key, in block style (or empty), or refuses it with the line that stops it.
    pub(crate) fn read(text: &'t str) -> Result<Self, Refusal> {
        let lines = line_ranges(text);
        let newline = match text.find('\n') {
            Some(at) if at > 0 && text.as_bytes()[at - 1] == b'\r' => "\r\n",
            _ => "\n",
        };
        let mut layout = Self {
            text,
            lines,
            newline,
            key: Key::Absent,
            indent: None,
            starts: Vec::new(),
        };
        let mut seen_content = false;
        for index in 0..layout.lines.len() {
            let range = layout.lines[index].clone();
            let mut line = &text[range.clone()];
            let mut offset = range.start;
            if index == 0
                && let Some(rest) = line.strip_prefix('\u{feff}')
            {
                line = rest;
                offset += '\u{feff}'.len_utf8();
            }
            let body = line.trim_start_matches(' ');
            if body.is_empty() || body.starts_with('#') {
                continue;
            }
            let indent = line.len() - body.len();
            let refuse = |why: String| Refusal {
                line: index + 1,
                why,
            };
            if body.starts_with('\t') {
                return Err(refuse("a tab indents this line".to_owned()));
            }
            if indent == 0 && is_marker(body, "---") && !seen_content {
                seen_content = true;
                continue;
            }
            seen_content = true;
            if indent == 0 && (is_marker(body, "---") || is_marker(body, "...")) {
                return Err(refuse(
                    "a second YAML document (or its end) follows the rules".to_owned(),
                ));
            }
            match layout.key {
                Key::Absent => layout.key = key_of(line, offset, index).map_err(refuse)?,
                Key::Empty(_) => {
                    return Err(refuse(
                        "more follows an empty `rules:` list (it must be the file's only \
                         top-level key)"
                            .to_owned(),
                    ));
                }
                Key::Block(_) => {
                    let is_item = body == "-" || body.starts_with("- ");
                    let want = *layout.indent.get_or_insert(indent);
                    if indent == want && is_item {
                        layout.starts.push(index);
                    } else if indent == 0 {
                        return Err(refuse(
                            "another top-level key follows `rules:` (it must be the file's only \
                             one, or at least its last)"
                                .to_owned(),
                        ));
                    } else if indent < want || layout.starts.is_empty() {
                        return Err(refuse(
                            "this line is not one of the rules list's items (each `- ` at the \
                             same indentation)"
                                .to_owned(),
                        ));
                    }
                }
            }
        }
        Ok(layout)
    }

    /// The text with the rule items of `pack` (a rules file's text) appended after a comment
    /// line `note`, indented as this file's items are and with its line ends; what was written
    /// stays byte for byte, except an empty `rules: []` (or `~`, `null`), whose value goes so
    /// that items can follow.
    pub(crate) fn append(&self, pack: &Layout<'_>, note: &str) -> String {
        let mut out = match &self.key {
            Key::Empty(value) => {
                let before = &self.text[..value.start];
                let after = &self.text[value.end..];
                format!("{}{after}", before.trim_end_matches([' ', '\t']))
            }
            Key::Absent | Key::Block(_) => self.text.to_owned(),
        };
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(self.newline);
        }
        if matches!(self.key, Key::Absent) {
            if !out.is_empty() {
                out.push_str(self.newline);
            }
            out.push_str("rules:");
            out.push_str(self.newline);
        }
        let indent = self.indent.or(pack.indent).unwrap_or(0);
        let pad = " ".repeat(indent);
        out.push_str(self.newline);
        out.push_str(&pad);
        out.push_str(note);
        out.push_str(self.newline);
        for line in pack.body(indent) {
            out.push_str(&line);
            out.push_str(self.newline);
        }
        out
    }

    /// Whether this file holds the rule items of `pack` as `new --rules` appends them, unchanged
    /// (its line ends aside).
    pub(crate) fn holds(&self, pack: &Layout<'_>) -> bool {
        let Some(indent) = self.indent else {
            return false;
        };
        let body = pack.body(indent).join("\n");
        let body = body.trim_end();
        !body.is_empty() && self.text.replace("\r\n", "\n").contains(body)
    }

    /// Each item's text, as a one-item list at the first column with LF line ends: the whole
    /// of it (to be parsed), and without the comments and blank lines that end it (to be shown).
    pub(crate) fn items(&self) -> Vec<(String, String)> {
        let indent = self.indent.unwrap_or(0);
        let ends = self
            .starts
            .iter()
            .skip(1)
            .copied()
            .chain([self.lines.len()]);
        self.starts
            .iter()
            .zip(ends)
            .map(|(&start, end)| {
                let lines: Vec<String> = (start..end)
                    .map(|index| dedent(self.line(index), indent))
                    .collect();
                let shown = lines
                    .iter()
                    .rposition(|line| {
                        let body = line.trim_start();
                        !body.is_empty() && !body.starts_with('#')
                    })
                    .map_or(0, |last| last + 1);
                (lines.join("\n") + "\n", lines[..shown].join("\n") + "\n")
            })
            .collect()
    }

    /// Line `index` without its line end.
    fn line(&self, index: usize) -> &'t str {
        &self.text[self.lines[index].clone()]
    }

    /// The lines after the `rules:` key, indented by `indent` instead of the file's own.
    fn body(&self, indent: usize) -> Vec<String> {
        let first = match self.key {
            Key::Block(line) => line + 1,
            Key::Absent | Key::Empty(_) => return Vec::new(),
        };
        let own = self.indent.unwrap_or(0);
        let pad = " ".repeat(indent);
        let mut lines: Vec<String> = (first..self.lines.len())
            .map(|index| {
                let line = dedent(self.line(index), own);
                if line.is_empty() {
                    line
                } else {
                    format!("{pad}{line}")
                }
            })
            .collect();
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        lines
    }
}

/// `line` with up to `indent` leading spaces taken off.
fn dedent(line: &str, indent: usize) -> String {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    line[spaces.min(indent)..].to_owned()
}

/// Whether `body` is the marker `mark` (`---`, `...`), alone or before a space or a comment.
fn is_marker(body: &str, mark: &str) -> bool {
    body.strip_prefix(mark)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
}

/// The byte range of each line of `text`, without its line end (`\n` or `\r\n`).
fn line_ranges(text: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (at, _) in text.match_indices('\n') {
        let end = if at > start && text.as_bytes()[at - 1] == b'\r' {
            at - 1
        } else {
            at
        };
        out.push(start..end);
        start = at + 1;
    }
    if start < text.len() {
        out.push(start..text.len());
    }
    out
}

/// What the first top-level key, on line `index` (at byte `offset`), holds.
fn key_of(line: &str, offset: usize, index: usize) -> Result<Key, String> {
    if line.starts_with(' ') {
        return Err("the file must begin with `rules:` at the first column".to_owned());
    }
    let Some(rest) = line.strip_prefix("rules:") else {
        return Err(
            "the file's only top-level key must be `rules:` (written so, unquoted)".to_owned(),
        );
    };
    let value = match rest.find(" #") {
        Some(at) => &rest[..at],
        None => rest,
    };
    let trimmed = value.trim();
    match trimmed {
        "" => Ok(Key::Block(index)),
        "[]" | "~" | "null" | "Null" | "NULL" => {
            let start = offset + "rules:".len() + (value.len() - value.trim_start().len());
            Ok(Key::Empty(start..start + trimmed.len()))
        }
        flow if flow.starts_with('[') => Err(
            "`rules:` is a flow-style list (`[...]`): write its rules as a block list, one \
             `- name: ...` item each, to append to it"
                .to_owned(),
        ),
        _ => Err("`rules:` does not hold a list of rules".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::Layout;

    const PACK: &str = "# header\nrules:\n# first\n- name: a\n  when: {command: x}\n\n# second\n- name: b\n  when: {command: y}\n";

    fn appended(text: &str) -> String {
        let pack = Layout::read(PACK).unwrap();
        Layout::read(text).unwrap().append(&pack, "# note")
    }

    #[test]
    fn items_are_appended_as_the_file_indents_them() {
        assert_eq!(
            appended("rules:\n  - name: m # mine\n    when: {command: z}\n# end"),
            "rules:\n  - name: m # mine\n    when: {command: z}\n# end\n\n  # note\n  # first\n  \
             - name: a\n    when: {command: x}\n\n  # second\n  - name: b\n    when: {command: \
             y}\n"
        );
        assert_eq!(
            appended("rules: [] # none yet\r\n"),
            "rules: # none yet\r\n\r\n# note\r\n# first\r\n- name: a\r\n  when: {command: \
             x}\r\n\r\n# second\r\n- name: b\r\n  when: {command: y}\r\n"
        );
        assert!(appended("").starts_with("rules:\n\n# note\n"));
        assert!(appended("# mine\n").starts_with("# mine\n\nrules:\n\n# note\n"));
    }

    #[test]
    fn what_cannot_be_appended_to_is_refused_with_its_line() {
        for (text, line) in [
            ("rules: [{name: a}]\n", 1),
            ("# c\nrules:\n- name: a\nother: 1\n", 4),
            ("other: 1\nrules:\n", 1),
            ("rules:\n  - name: a\n - name: b\n", 3),
            ("rules:\n- name: a\n...\n", 3),
        ] {
            assert_eq!(Layout::read(text).unwrap_err().line, line, "{text}");
        }
    }

    #[test]
    fn a_file_holds_a_pack_appended_unchanged_and_its_items_read_apart() {
        let pack = Layout::read(PACK).unwrap();
        let text = appended("rules:\n  - name: m\n    when: {command: z}\n");
        let file = Layout::read(&text).unwrap();
        assert!(file.holds(&pack));
        let edited = text.replace("command: y", "command: w");
        assert!(!Layout::read(&edited).unwrap().holds(&pack));
        let items = file.items();
        assert_eq!(items.len(), 3);
        assert_eq!(items[1].1, "- name: a\n  when: {command: x}\n");
        assert_eq!(pack.items()[1].1, items[2].1);
    }
}
