//! The lines an event leaves: `run`'s answer line (and `serve`'s, the same) and the error line
//! when nothing could be decided, built from engine results (never engine types serialised
//! directly), so scripts get a stable format; [`to_line`] writes every JSON line this tool prints.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::config::Entry;
use crate::config::{Event, HookSpec};
use crate::engine::response::{Directive, Status, ask_as_block};
use crate::engine::runner::{HookReport, RunReport};

/// `run`'s one line: the event, the Hermes-canonical directive at the top level, then the hooks.
#[derive(Serialize)]
pub(crate) struct RunLine<'a> {
    /// Canonical event name.
    pub event: &'a str,
    /// Why no hook could run (the payload could not be read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'a str>,
    /// The directive's keys.
    #[serde(flatten)]
    pub directive: DirectiveKeys<'a>,
    /// For "ask a person", the block a Hermes config hook's reader takes from this line (it
    /// reads `action` `block`, else `decision` `block` with `reason`, and no `approve`): the
    /// bridge holds the call saying a person must approve it, while `action` stays `approve`
    /// for a caller that can ask.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub held: Option<Held>,
    /// What kept the runner from checking the call as the files say.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<ErrorEntry<'a>>,
    /// Every hook declared for the event, in order.
    pub hooks: HookLines<'a>,
    /// Set when the loop guard overrode a "keep working" answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loop_guard: Option<crate::engine::loop_guard::Released>,
}

/// `{"action":"block","message"}`, `{"action":"modify","args"}`, `{"context"}`,
/// `{"action":"continue","message"}`, `{"action":"approve","message","rule_key","args"}` (ask a
/// person), `{"text"}`, or nothing.
#[derive(Serialize, Default, Clone, Copy)]
pub(crate) struct DirectiveKeys<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<&'a Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    context: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule_key: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<&'a str>,
}

impl<'a> DirectiveKeys<'a> {
    /// The keys of `directive`.
    pub(crate) fn of(directive: Option<&'a Directive>) -> Self {
        match directive {
            None => Self::default(),
            Some(Directive::Block { message }) => Self {
                action: Some("block"),
                message: Some(message),
                ..Self::default()
            },
            Some(Directive::Continue { message }) => Self {
                action: Some("continue"),
                message: Some(message),
                ..Self::default()
            },
            Some(Directive::Modify { args }) => Self {
                action: Some("modify"),
                args: Some(args),
                ..Self::default()
            },
            Some(Directive::Context { text }) => Self {
                context: Some(text),
                ..Self::default()
            },
            Some(Directive::Text { text }) => Self {
                text: Some(text),
                ..Self::default()
            },
            // Hermes's word for "ask a person": `{"action": "approve", "message", "rule_key"}`,
            // with the rewritten input when a hook rewrote it.
            Some(Directive::Ask {
                message,
                rule_key,
                args,
            }) => Self {
                action: Some("approve"),
                message: Some(message),
                rule_key: rule_key.as_deref(),
                args: args.as_ref(),
                ..Self::default()
            },
        }
    }
}

/// One hook in `run` output.
#[derive(Serialize, Clone)]
pub(crate) struct HookLine<'a> {
    /// Its short name.
    pub name: &'a str,
    /// `config` or `agent-hooks`.
    pub source: &'static str,
    /// The command as declared.
    pub command: &'a str,
    /// What happened to it (`ok`, `blocked`, `unapproved`, `timed_out`, ...).
    pub status: &'static str,
    /// Exit code when it ran (null when a signal or the deadline ended it).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[allow(clippy::option_option)] // absent: it did not run; null: it ran and has no code
    pub exit_code: Option<Option<i32>>,
    /// Milliseconds, when it ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
    /// Warnings and errors, or the block message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'a str>,
    /// The entry as a rule keeps it (it is the same on every call).
    #[serde(skip)]
    pub entry: Option<&'a Entry>,
}

/// `{"decision":"block","reason"}` beside an ask, in the Claude-style words every Hermes shell-hook
/// reader knows.
#[derive(Serialize)]
pub(crate) struct Held {
    decision: &'static str,
    reason: String,
}

impl Held {
    /// The block beside `directive` when it asks a person.
    fn of(directive: Option<&Directive>) -> Option<Self> {
        let Some(Directive::Ask { message, .. }) = directive else {
            return None;
        };
        match ask_as_block(message, "Hermes") {
            Directive::Block { message } => Some(Self {
                decision: "block",
                reason: message,
            }),
            _ => None,
        }
    }
}

impl<'a> RunLine<'a> {
    /// The line for `report` over `hooks`.
    pub(crate) fn new(event: Event, hooks: &'a [HookSpec], report: &'a RunReport) -> Self {
        Self {
            event: event.name(),
            error: None,
            directive: DirectiveKeys::of(report.directive.as_ref()),
            held: Held::of(report.directive.as_ref()),
            errors: Vec::new(),
            hooks: HookLines::Of {
                specs: hooks,
                reports: &report.hooks,
            },
            loop_guard: None,
        }
    }
}

/// Where a process answers many calls, each hook's entry is written the first time, together
/// with the entries of the hooks listed after it that have none yet, and kept: a run of
/// hooks not matched is then one copy.
pub(crate) fn keep_entries(hooks: &[HookSpec], report: &RunReport) {
    if !crate::config::rules::many_calls() {
        return;
    }
    let specs: Vec<&HookSpec> = report.hooks.iter().map(|r| &hooks[r.index]).collect();
    let mut at = 0;
    while at < specs.len() {
        let run = specs[at..]
            .iter()
            .take_while(|spec| spec.answer.get().is_none())
            .count();
        if run == 0 {
            at += 1;
            continue;
        }
        write_entries(&specs[at..at + run]);
        at += run;
    }
}

/// The hooks of an answer, each made into its [`HookLine`] as it is written: an answer lists
/// every hook of its event, and a list of them made ahead cost a `run` with every pack approved
/// a page of memory for each 36 rules.
pub(crate) enum HookLines<'a> {
    /// The hooks `reports` name, in their order.
    Of {
        specs: &'a [HookSpec],
        reports: &'a [HookReport],
    },
    /// Lines given as they are.
    #[cfg(test)]
    Given(Vec<HookLine<'a>>),
}

impl<'a> HookLines<'a> {
    fn len(&self) -> usize {
        match self {
            Self::Of { reports, .. } => reports.len(),
            #[cfg(test)]
            Self::Given(lines) => lines.len(),
        }
    }

    /// Each line, in order.
    fn iter(&self) -> impl Iterator<Item = HookLine<'a>> + '_ {
        (0..self.len()).map(|at| match self {
            Self::Of { specs, reports } => {
                let report = &reports[at];
                HookLine::new(&specs[report.index], report)
            }
            #[cfg(test)]
            Self::Given(lines) => lines[at].clone(),
        })
    }
}

impl Serialize for HookLines<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Writes the entries of `specs` (hooks side by side in an answer) into one text, and gives
/// each hook its place in it.
fn write_entries(specs: &[&HookSpec]) {
    let mut text = String::new();
    let mut places = Vec::with_capacity(specs.len());
    for spec in specs {
        if !text.is_empty() {
            text.push(',');
        }
        let line = HookLine {
            name: &spec.name,
            source: spec.source.as_str(),
            command: &spec.command,
            status: Status::NotMatched.as_str(),
            exit_code: None,
            elapsed_ms: None,
            message: None,
            entry: None,
        };
        let start = text.len();
        line.write_head(&mut text, &mut Tail::default());
        let status = text.len();
        text.push_str(line.status);
        text.push_str("\"}");
        places.push((start, status, text.len()));
    }
    let Ok(total) = u32::try_from(text.len()) else {
        return;
    };
    let text: std::sync::Arc<str> = text.into();
    for (spec, (start, status, end)) in specs.iter().zip(places) {
        // Bounded by `total`, which fits.
        let place = |at: usize| u32::try_from(at).unwrap_or(total);
        let _ = spec.answer.set(Entry {
            text: std::sync::Arc::clone(&text),
            start: place(start),
            status: place(status),
            end: place(end),
        });
    }
}

impl RunLine<'_> {
    /// The line as [`to_line`] writes it, written field by field: an answer lists every hook of
    /// its event, and a hook that did not run (most of them, where rules are approved) is four
    /// short strings that need no escaping, which serde's map machinery made most of an answer's
    /// cost. What is not that plain goes through [`to_line`], so the text is the same.
    pub(crate) fn text(&self) -> String {
        let mut out = String::with_capacity(128 + 160 * self.hooks.len());
        out.push_str("{\"event\":");
        plain_or_json(&mut out, self.event);
        if let Some(error) = self.error {
            out.push_str(",\"error\":");
            plain_or_json(&mut out, error);
        }
        let keys = to_line(&self.directive);
        if keys.len() > 2 {
            out.push(',');
            out.push_str(&keys[1..keys.len() - 1]);
        }
        if let Some(held) = &self.held {
            let held = to_line(held);
            out.push(',');
            out.push_str(&held[1..held.len() - 1]);
        }
        if !self.errors.is_empty() {
            out.push_str(",\"errors\":");
            out.push_str(&to_line(&self.errors));
        }
        out.push_str(",\"hooks\":[");
        // The hooks of one file share their source and command: written once.
        let mut tail = Tail::default();
        // A run of kept entries, side by side in their text, waiting to be copied as one.
        let mut run: Option<(&str, usize, usize)> = None;
        let mut first = true;
        let mut separate = |out: &mut String| {
            if !std::mem::take(&mut first) {
                out.push(',');
            }
        };
        for hook in self.hooks.iter() {
            if let Some(entry) = hook.entry.filter(|_| hook.is_plain_not_matched()) {
                let (start, end) = (entry.start as usize, entry.end as usize);
                match &mut run {
                    Some((text, _, until))
                        if std::ptr::eq(text.as_ptr(), entry.text.as_ptr())
                            && *until + 1 == start =>
                    {
                        *until = end;
                    }
                    _ => {
                        if let Some((text, from, until)) = run.take() {
                            separate(&mut out);
                            out.push_str(&text[from..until]);
                        }
                        run = Some((&entry.text, start, end));
                    }
                }
                continue;
            }
            if let Some((text, from, until)) = run.take() {
                separate(&mut out);
                out.push_str(&text[from..until]);
            }
            separate(&mut out);
            hook.write(&mut out, &mut tail);
        }
        if let Some((text, from, until)) = run.take() {
            separate(&mut out);
            out.push_str(&text[from..until]);
        }
        out.push(']');
        if let Some(released) = &self.loop_guard {
            out.push_str(",\"loop_guard\":");
            out.push_str(&to_line(released));
        }
        out.push('}');
        out
    }
}

impl<'a> HookLine<'a> {
    /// The hook's object as [`to_line`] writes it; `tail` is the end of the last head written.
    fn write(&self, out: &mut String, tail: &mut Tail<'a>) {
        if let Some(entry) = self.entry {
            out.push_str(&entry.text[entry.start as usize..entry.status as usize]);
        } else {
            self.write_head(out, tail);
        }
        out.push_str(self.status);
        out.push('"');
        // A hook that ran (or a rule that answered): its code, time and message, in the order
        // and form serde gives them.
        if let Some(code) = self.exit_code {
            out.push_str(",\"exit_code\":");
            match code {
                Some(code) => out.push_str(&code.to_string()),
                None => out.push_str("null"),
            }
        }
        if let Some(elapsed) = self.elapsed_ms {
            out.push_str(",\"elapsed_ms\":");
            out.push_str(&to_line(&elapsed));
        }
        if let Some(message) = self.message {
            out.push_str(",\"message\":");
            plain_or_json(out, message);
        }
        out.push('}');
    }

    /// Whether it is written as its kept entry is: not matched, with nothing more to say.
    fn is_plain_not_matched(&self) -> bool {
        self.status == Status::NotMatched.as_str()
            && self.exit_code.is_none()
            && self.elapsed_ms.is_none()
            && self.message.is_none()
    }

    /// The entry up to its status: `{"name":...,"source":...,"command":...,"status":"`; what
    /// follows the name is `tail`'s, written anew when this hook's source or command differs.
    fn write_head(&self, out: &mut String, tail: &mut Tail<'a>) {
        out.push_str("{\"name\":");
        plain_or_json(out, self.name);
        let same = tail.source == self.source
            && (std::ptr::eq(tail.command, self.command) || tail.command == self.command);
        if !same || tail.text.is_empty() {
            tail.text.clear();
            // `source` and `status` are this tool's own words, plain ASCII.
            tail.text.push_str(",\"source\":\"");
            tail.text.push_str(self.source);
            tail.text.push_str("\",\"command\":");
            plain_or_json(&mut tail.text, self.command);
            tail.text.push_str(",\"status\":\"");
            tail.source = self.source;
            tail.command = self.command;
        }
        out.push_str(&tail.text);
    }
}

/// What follows a hook's name in its entry up to its status, kept while the hooks written
/// after it share it (the rules of one file share their source and command).
#[derive(Default)]
struct Tail<'a> {
    source: &'static str,
    command: &'a str,
    text: String,
}

/// Whether a JSON string holds `byte` as it is: printable ASCII but `"` and `\\`.
const fn is_plain(byte: u8) -> bool {
    matches!(byte, 0x20..=0x7e) && byte != b'"' && byte != b'\\'
}

/// `text` as a JSON string: as it is between quotes when it is printable ASCII with no quote or
/// backslash (true), else as [`to_line`] escapes it.
fn plain_or_json(out: &mut String, text: &str) -> bool {
    // Sixteen bytes at a time without stopping inside them, which the compiler does as one
    // comparison of many bytes.
    let chunks = text.as_bytes().chunks_exact(16);
    let rest = chunks.remainder();
    let unusual = !(chunks
        .into_iter()
        .all(|chunk| chunk.iter().fold(true, |plain, &b| plain & is_plain(b)))
        && rest.iter().all(|&b| is_plain(b)));
    if unusual {
        out.push_str(&to_line(&text));
    } else {
        out.push('"');
        out.push_str(text);
        out.push('"');
    }
    !unusual
}

/// One runner error in `run` output and the audit log: what could not be read, where, and why.
#[derive(Serialize)]
pub(crate) struct ErrorEntry<'a> {
    /// `config`, `agent-hooks`, `payload` or `allowlist`.
    pub source: &'static str,
    /// The file, when it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<std::borrow::Cow<'a, str>>,
    /// The line, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// What is wrong.
    pub message: &'a str,
}

impl<'a> ErrorEntry<'a> {
    /// The entries of `errors`.
    pub(crate) fn all(errors: &'a [crate::engine::fail_closed::RunnerError]) -> Vec<Self> {
        errors
            .iter()
            .map(|error| Self {
                source: error.unread.as_str(),
                file: error.file.as_deref().map(|f| f.to_string_lossy()),
                line: error.line,
                message: &error.why,
            })
            .collect()
    }
}

impl<'a> HookLine<'a> {
    fn new(spec: &'a HookSpec, report: &'a HookReport) -> Self {
        Self {
            name: &spec.name,
            source: spec.source.as_str(),
            command: &spec.command,
            status: report.status.as_str(),
            exit_code: report.exit_code,
            elapsed_ms: report.elapsed.map(elapsed_ms),
            message: report.message.as_deref(),
            // Where a process answers many calls, written by `keep_entries`.
            entry: spec.answer.get(),
        }
    }
}

/// A hook's time in milliseconds, to a tenth, as every output writes it.
pub(crate) fn elapsed_ms(elapsed: std::time::Duration) -> f64 {
    (elapsed.as_secs_f64() * 10_000.0).round() / 10.0
}

/// `run`'s line when it could not run: `{"event":...,"error":...}`.
#[derive(Serialize)]
pub(crate) struct ErrorLine<'a> {
    /// The event (canonical when it resolved, else as given).
    pub event: &'a str,
    /// What went wrong.
    pub error: &'a str,
    /// The block fail-closed mode makes of it (else nothing).
    #[serde(flatten)]
    pub directive: DirectiveKeys<'a>,
}

/// Serialises a DTO as one compact JSON line. Characters a terminal would act on (DEL, C1
/// controls, bidirectional controls, line separators) or show as nothing (zero-width ones) are
/// written as `\uXXXX` escapes, which JSON readers decode to the same text, so the line is safe
/// to show as it is.
pub(crate) fn to_line<T: Serialize>(value: &T) -> String {
    let mut out = Vec::with_capacity(128);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, TerminalSafe);
    value
        .serialize(&mut serializer)
        .expect("output DTOs always serialise");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// The compact JSON format, with terminal-active characters escaped.
struct TerminalSafe;

impl serde_json::ser::Formatter for TerminalSafe {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // Printable ASCII, most of any answer, is only ever shown.
        if fragment.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut rest = fragment;
        while let Some((at, c)) = rest
            .char_indices()
            .find(|(_, c)| crate::ground::sanitize::is_terminal_active(*c))
        {
            writer.write_all(&rest.as_bytes()[..at])?;
            let mut units = [0_u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(writer, "\\u{unit:04x}")?;
            }
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

#[cfg(test)]
mod tests;
