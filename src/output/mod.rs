//! All printing goes through the [`Printer`]: stdout carries data, stderr carries talk (warnings,
//! notes, errors). Nothing else in the crate prints.

pub mod audit;
pub mod json;
pub mod sanitize;
pub mod table;

use std::fmt::{Display, Write as _};
use std::io::{self, Write as _};

/// Prefix of every line of talk on stderr.
const PREFIX: &str = "hermes-hooks";

/// Writes data to stdout and talk to stderr; `quiet` silences warnings and notes.
#[derive(Debug)]
pub struct Printer {
    quiet: bool,
}

impl Printer {
    /// A printer; with `quiet`, warnings and notes are dropped (errors never are).
    pub const fn new(quiet: bool) -> Self {
        Self { quiet }
    }

    /// Writes `text` to stdout as it is, and flushes. A broken pipe comes back as an error the
    /// caller treats as success.
    #[allow(clippy::unused_self)] // kept a method so every write goes through the printer
    pub fn data(&self, text: &str) -> io::Result<()> {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()
    }

    /// Writes one line of data (a newline is added) in a single write.
    pub fn data_line(&self, line: &str) -> io::Result<()> {
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        self.data(&text)
    }

    /// A warning: `hermes-hooks: warning: ...`.
    pub fn warn(&self, message: impl Display) {
        if !self.quiet {
            talk(&format!(
                "{PREFIX}: warning: {}",
                sanitize::line(&message.to_string())
            ));
        }
    }

    /// A note: `hermes-hooks: ...`.
    pub fn note(&self, message: impl Display) {
        if !self.quiet {
            talk(&format!(
                "{PREFIX}: {}",
                sanitize::line(&message.to_string())
            ));
        }
    }

    /// An error and its causes, one per line, always shown.
    pub fn error(&self, err: &anyhow::Error) {
        let mut text = format!("{PREFIX}: error: {}", sanitize::line(&err.to_string()));
        for cause in err.chain().skip(1) {
            let _ = write!(
                text,
                "\n  caused by: {}",
                sanitize::line(&cause.to_string())
            );
        }
        talk(&text);
    }

    /// A line for the agent, exactly as given (the block message of `run`), always shown.
    #[allow(clippy::unused_self)]
    pub fn verbatim(&self, line: &str) {
        talk(line);
    }
}

fn talk(text: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{text}");
}
