//! Long text for a person at a terminal (a whole script, a whole diff): shown through `$PAGER`
//! (default `less`) on the terminal that stderr is, else written to stderr.

use std::io::Write as _;
use std::os::fd::AsFd as _;
use std::process::{Command, Stdio};

use crate::env;

/// Shows `text` (already made safe for a terminal) in the pager.
pub(crate) fn show(text: &str) {
    if !page(text) {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(text.as_bytes());
        let _ = err.flush();
    }
}

/// Runs the pager with `text` on its stdin and stderr as its terminal; false when it could not
/// be started.
fn page(text: &str) -> bool {
    let pager = env::var_os(env::PAGER)
        .and_then(|p| p.into_string().ok())
        .filter(|p| !p.trim().is_empty())
        .unwrap_or_else(|| "less".to_owned());
    let Some(argv) = shlex::split(&pager).filter(|argv| !argv.is_empty()) else {
        return false;
    };
    let Ok(terminal) = std::io::stderr().as_fd().try_clone_to_owned() else {
        return false;
    };
    let mut command = Command::new(&argv[0]);
    command
        .args(&argv[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::from(terminal));
    if env::var_os(env::LESS).is_none() {
        // Quit at once when it fits on one screen; leave the text on the screen afterwards.
        command.env(env::LESS, "FRX");
    }
    let Ok(mut child) = command.spawn() else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A pager that quits early closes its end; that is not an error.
        let _ = stdin.write_all(text.as_bytes());
    }
    let _ = child.wait();
    true
}
