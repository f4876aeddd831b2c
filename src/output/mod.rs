//! All printing goes through the [`Printer`]: stdout carries data (one JSON document, or a
//! [`Screen`] for people), stderr carries talk (warnings, notes, errors). Every string is
//! sanitised on its way out; nothing else in the crate prints.

pub(crate) mod json;
pub(crate) mod screen;
pub(crate) mod short_path;
pub(crate) mod table;

use std::fmt::{Display, Write as _};
use std::io::{self, IoSlice, Write as _};

use serde::Serialize;

use crate::ground::sanitize;

pub(crate) use screen::{Screen, shown_width, wrap_shown};

/// Prefix of every line of talk on stderr.
const PREFIX: &str = "hermes-hooks";

/// Writes data to stdout and talk to stderr; `quiet` silences warnings and notes.
#[derive(Debug)]
pub(crate) struct Printer {
    quiet: bool,
    /// What the talk is about, said after its level (`serve`: which request).
    about: Option<String>,
}

// The engine's talk goes to stderr, as the printer says everything else.
impl crate::dispatch::Talk for Printer {
    fn warn(&self, message: impl Display) {
        Self::warn(self, message);
    }

    fn note(&self, message: impl Display) {
        Self::note(self, message);
    }

    fn error(&self, err: &anyhow::Error) {
        Self::error(self, err);
    }
}

impl Printer {
    /// A printer; with `quiet`, warnings and notes are dropped (errors never are).
    pub(crate) const fn new(quiet: bool) -> Self {
        Self { quiet, about: None }
    }

    /// The same printer, its warnings, notes and errors saying `about` first
    /// (`hermes-hooks: warning: request 7: ...`).
    pub(crate) fn about(&self, about: &str) -> Self {
        Self {
            quiet: self.quiet,
            about: Some(format!("{}: ", sanitize::line(about))),
        }
    }

    fn about_text(&self) -> &str {
        self.about.as_deref().unwrap_or_default()
    }

    /// Writes `value` as one line of JSON on stdout, in a single write, and flushes. A broken
    /// pipe comes back as an error the caller decides about.
    #[allow(clippy::unused_self)] // kept a method so every write goes through the printer
    pub(crate) fn json(&self, value: &impl Serialize) -> io::Result<()> {
        let mut line = json::to_line(value);
        line.push('\n');
        write_stdout(&line)
    }

    /// Writes one line of JSON already serialised by [`json::to_line`], in a single write, and
    /// flushes.
    pub(crate) fn line(&self, line: &str) -> io::Result<()> {
        self.line_of(&[line])
    }

    /// Writes one line made of `parts` in turn, then a newline, handed to the kernel as one
    /// write (`writev`) without joining them first: an answer listing every rule of every pack
    /// runs to tens of kilobytes, and a copy of it per call is time on the agent's path.
    #[allow(clippy::unused_self)]
    pub(crate) fn line_of(&self, parts: &[&str]) -> io::Result<()> {
        let mut slices: Vec<IoSlice<'_>> = parts
            .iter()
            .map(|part| IoSlice::new(part.as_bytes()))
            .chain([IoSlice::new(b"\n")])
            .collect();
        let mut rest = &mut slices[..];
        let mut out = io::stdout().lock();
        while !rest.is_empty() {
            match out.write_vectored(rest) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(written) => IoSlice::advance_slices(&mut rest, written),
                Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                Err(err) => return Err(err),
            }
        }
        out.flush()
    }

    /// Writes a command's `--json` document: `schema_version`, then the fields of `body` (an
    /// object).
    pub(crate) fn document(&self, body: &impl Serialize) -> io::Result<()> {
        self.json(&json::Document {
            schema_version: json::SCHEMA_VERSION,
            body,
        })
    }

    /// Writes text this program generated itself (a completion script) on stdout, as it is.
    #[allow(clippy::unused_self)]
    pub(crate) fn raw(&self, bytes: &[u8]) -> io::Result<()> {
        let mut out = io::stdout().lock();
        out.write_all(bytes)?;
        out.flush()
    }

    /// Writes human output on stdout.
    #[allow(clippy::unused_self)]
    pub(crate) fn show(&self, screen: &Screen) -> io::Result<()> {
        write_stdout(screen.as_str())
    }

    /// Stdout for output written a piece at a time, as it is made (`log` over a whole audit
    /// log): human pieces as [`Screen`]s, JSON as text [`json::to_line`] made. Buffered; the
    /// caller ends it with [`Stream::finish`].
    #[allow(clippy::unused_self)]
    pub(crate) fn stream(&self) -> Stream {
        self.stream_to(Box::new(io::stdout().lock()))
    }

    /// [`Self::stream`] into `out` (a pager) instead of stdout.
    #[allow(clippy::unused_self)]
    pub(crate) fn stream_to(&self, out: Box<dyn io::Write>) -> Stream {
        Stream {
            out: io::BufWriter::with_capacity(64 * 1024, out),
        }
    }

    /// Writes human output on stderr (a review shown before a question), always.
    #[allow(clippy::unused_self)]
    pub(crate) fn show_on_stderr(&self, screen: &Screen) {
        let mut err = io::stderr().lock();
        let _ = err.write_all(screen.as_str().as_bytes());
        let _ = err.flush();
    }

    /// A warning: `hermes-hooks: warning: ...`.
    pub(crate) fn warn(&self, message: impl Display) {
        if !self.quiet {
            talk(&format!(
                "{PREFIX}: warning: {}{}",
                self.about_text(),
                sanitize::line(&message.to_string())
            ));
        }
    }

    /// A note: `hermes-hooks: ...`.
    pub(crate) fn note(&self, message: impl Display) {
        if !self.quiet {
            talk(&format!(
                "{PREFIX}: {}{}",
                self.about_text(),
                sanitize::line(&message.to_string())
            ));
        }
    }

    /// An error and its causes, one per line, always shown (`--quiet` too).
    pub(crate) fn error(&self, err: &anyhow::Error) {
        let mut text = format!(
            "{PREFIX}: error: {}{}",
            self.about_text(),
            sanitize::line(&err.to_string())
        );
        for cause in err.chain().skip(1) {
            let _ = write!(
                text,
                "\n  caused by: {}",
                sanitize::line(&cause.to_string())
            );
        }
        talk(&text);
    }

    /// The block or gate message for an agent that reads stderr, always shown: its own lines are
    /// kept, anything else a terminal would act on is escaped.
    #[allow(clippy::unused_self)]
    pub(crate) fn agent_message(&self, message: &str) {
        talk(&sanitize::lines(message));
    }
}

/// See [`Printer::stream`].
pub(crate) struct Stream {
    out: io::BufWriter<Box<dyn io::Write>>,
}

impl Stream {
    /// Writes the next piece of human output.
    pub(crate) fn show(&mut self, screen: &Screen) -> io::Result<()> {
        self.out.write_all(screen.as_str().as_bytes())
    }

    /// Writes the next piece of a JSON document, made by [`json::to_line`] (terminal-safe) or
    /// by the caller from its punctuation.
    pub(crate) fn json_text(&mut self, text: &str) -> io::Result<()> {
        self.out.write_all(text.as_bytes())
    }

    /// Writes out what is left.
    pub(crate) fn finish(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

fn write_stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()
}

fn talk(text: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{text}");
}
