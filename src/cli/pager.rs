//! Long text for a person at a terminal goes through `$PAGER` (default `less`, with `LESS=FRX`
//! when `LESS` is unset: it quits at once when the text fits, keeps colour and leaves the text on
//! the screen): a whole script or diff from `approve` (on the terminal stderr is), and the human
//! output of `events`, `list`, `doctor` and `log` when it is taller than the terminal stdout is.
//! Never when stdout is not a terminal, with `--json`, with `--no-pager`, or with `PAGER=cat`.

use std::io::{self, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use clap::Args;
use unicode_width::UnicodeWidthStr as _;

use crate::ground::env;
use crate::output::{Printer, Screen};

/// The flag of the commands whose human output may be paged.
#[derive(Args, Debug, Clone, Copy)]
pub(crate) struct PagerArgs {
    /// Print long output straight to the terminal, not through $PAGER
    #[arg(long)]
    pub(crate) no_pager: bool,
}

/// Shows `text` (already made safe for a terminal) in the pager, on the terminal stderr is;
/// written to stderr when no pager can be started.
pub(crate) fn show(text: &str) {
    let shown = std::io::stderr()
        .as_fd()
        .try_clone_to_owned()
        .ok()
        .and_then(spawn)
        .is_some_and(|pager| pager.finish_with(text.as_bytes()));
    if !shown {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
        let _ = err.flush();
    }
}

/// Shows `screen` on stdout: through the pager when paging is on and it is taller than the
/// terminal, else as it is.
pub(crate) fn show_stdout(args: PagerArgs, printer: &Printer, screen: &Screen) -> io::Result<()> {
    let tall =
        pageable(args).is_some_and(|(columns, rows)| height(screen.as_str(), columns) > rows);
    if tall
        && stdout_terminal()
            .and_then(spawn)
            .is_some_and(|pager| pager.finish_with(screen.as_str().as_bytes()))
    {
        return Ok(());
    }
    printer.show(screen)
}

/// Where output whose length is not known before it is written goes: held back while it fits on
/// the terminal, then the pager once it is taller (with what was held back); stdout when paging
/// is off. Dropping it writes what is still held back, or waits for the pager.
pub(crate) enum Out {
    /// Straight to stdout.
    Stdout(io::Stdout),
    /// Held back until it is taller than the terminal (`columns`, `rows`).
    Held {
        text: Vec<u8>,
        columns: usize,
        rows: usize,
    },
    /// Into the pager.
    Pager(Pager),
}

impl Out {
    /// The destination for `args`.
    pub(crate) fn new(args: PagerArgs) -> Self {
        pageable(args).map_or_else(
            || Self::Stdout(io::stdout()),
            |(columns, rows)| Self::Held {
                text: Vec::new(),
                columns,
                rows,
            },
        )
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Self::Stdout(out) => out.write(buf),
            Self::Held {
                text,
                columns,
                rows,
            } => {
                text.extend_from_slice(buf);
                if height(&String::from_utf8_lossy(text), *columns) > *rows {
                    let held = std::mem::take(text);
                    *self = match stdout_terminal().and_then(spawn) {
                        Some(pager) => Self::Pager(pager),
                        None => Self::Stdout(io::stdout()),
                    };
                    self.write_all(&held)?;
                }
                Ok(buf.len())
            }
            // A pager the person quit no longer reads; what is left is dropped, not an error.
            Self::Pager(pager) => {
                let failed = pager
                    .stdin
                    .as_mut()
                    .is_some_and(|stdin| stdin.write_all(buf).is_err());
                if failed {
                    pager.stdin = None;
                }
                Ok(buf.len())
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Self::Stdout(out) => out.flush(),
            Self::Held { .. } => Ok(()),
            Self::Pager(pager) => {
                if let Some(stdin) = pager.stdin.as_mut() {
                    let _ = stdin.flush();
                }
                Ok(())
            }
        }
    }
}

impl Drop for Out {
    /// What fitted on the terminal is written as it is.
    fn drop(&mut self) {
        if let Self::Held { text, .. } = self {
            let mut out = io::stdout().lock();
            let _ = out.write_all(text);
            let _ = out.flush();
        }
    }
}

/// A running pager and the pipe to it.
pub(crate) struct Pager {
    child: Child,
    stdin: Option<ChildStdin>,
}

impl Pager {
    /// Writes `rest`, then ends as [`Drop`] does. False when it could not all be written.
    fn finish_with(mut self, rest: &[u8]) -> bool {
        self.stdin
            .take()
            .is_some_and(|mut stdin| stdin.write_all(rest).is_ok())
    }
}

impl Drop for Pager {
    /// Closes the pipe and waits for the person to leave the pager: an interrupt meanwhile is
    /// the pager's to handle, not a reason to leave it behind on the terminal.
    fn drop(&mut self) {
        drop(self.stdin.take());
        let interrupted = Arc::new(AtomicBool::new(false));
        let held: Vec<_> = [signal_hook::consts::SIGINT, signal_hook::consts::SIGQUIT]
            .into_iter()
            .filter_map(|signal| signal_hook::flag::register(signal, Arc::clone(&interrupted)).ok())
            .collect();
        let _ = self.child.wait();
        for id in held {
            signal_hook::low_level::unregister(id);
        }
    }
}

/// The terminal's size when stdout's long output may be paged: paging not turned off, stdout a
/// terminal that reports its size, and a pager that is not `cat`.
fn pageable(args: PagerArgs) -> Option<(usize, usize)> {
    if args.no_pager || pager_command().is_none() {
        return None;
    }
    let size = rustix::termios::tcgetwinsize(io::stdout()).ok()?;
    (size.ws_col > 0 && size.ws_row > 0)
        .then(|| (usize::from(size.ws_col), usize::from(size.ws_row)))
}

/// The terminal stdout is, for the pager to write to.
fn stdout_terminal() -> Option<OwnedFd> {
    io::stdout().as_fd().try_clone_to_owned().ok()
}

/// The pager's command line: `$PAGER` split like a shell, else `less`; `None` for `cat` (which
/// asks for no pager) or a `$PAGER` that cannot be split.
fn pager_command() -> Option<Vec<String>> {
    let pager = env::var_os(env::PAGER)
        .and_then(|p| p.into_string().ok())
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "less".to_owned());
    let argv = shlex::split(&pager).filter(|argv| !argv.is_empty())?;
    (argv != ["cat"]).then_some(argv)
}

/// Starts the pager writing to `terminal`; `None` when it cannot be started.
fn spawn(terminal: OwnedFd) -> Option<Pager> {
    let argv = pager_command()?;
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::from(terminal));
    if env::var_os(env::LESS).is_none() {
        // Quit at once when it fits on one screen, pass colour through, and leave the text on
        // the screen afterwards.
        command.env(env::LESS, "FRX");
    }
    let mut child = command.spawn().ok()?;
    let stdin = child.stdin.take();
    Some(Pager { child, stdin })
}

/// The rows `text` takes on a terminal `columns` wide (a long line wraps; colour takes none).
fn height(text: &str, columns: usize) -> usize {
    text.lines()
        .map(|line| visible_width(line).div_ceil(columns).max(1))
        .sum()
}

/// The columns a line takes on a terminal, its colour escapes (`ESC [ ... m`) left out.
fn visible_width(line: &str) -> usize {
    let mut plain = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('\u{1b}') {
        plain.push_str(&rest[..at]);
        let escape = &rest[at..];
        rest = escape.find('m').map_or("", |end| &escape[end + 1..]);
    }
    plain.push_str(rest);
    plain.width()
}

#[cfg(test)]
mod tests {
    use super::height;

    #[test]
    fn height_counts_wrapped_lines_and_not_colour() {
        assert_eq!(height("a\nb\n", 80), 2);
        assert_eq!(height(&"x".repeat(161), 80), 3);
        assert_eq!(height("\u{1b}[32mok\u{1b}[0m\n\n", 2), 2);
    }
}
