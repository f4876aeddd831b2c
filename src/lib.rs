//! hermes-hooks runs and audits agent hooks behind a content-pinned consent allowlist.
//!
//! The engine never prints and never exits, so it can be used as a library:
//! - [`config`]: hook sources (the Hermes `hooks:` block) into one ordered list of [`config::HookSpec`],
//!   and the event table in [`config::event`];
//! - [`payload`]: the input payload in either shape, and each source's wire form;
//! - [`matcher`]: which hooks apply to a tool call;
//! - [`consent`]: the allowlist (locked, atomic writes) and the sha256 pin;
//! - [`exec`]: spawning one hook without a shell, in its own process group, under a deadline;
//! - [`limits`]: reading files others supply: regular files only, never blocking, capped;
//! - [`loop_guard`]: how many times in a row the quality gate kept an agent working;
//! - [`response`]: a hook's exit code and stdout into one status and directive;
//! - [`runner`]: matching, consent, execution order and aggregation for one event;
//! - [`outcome`]: the final answer for one event (loop guard, exit status), one call for all;
//! - [`statefile`]: the files it writes (allowlist, loop guard state): locked, atomic, 0600.
//!
//! The command line lives in `cli` (one module per subcommand) and [`output`] (all printing).

pub mod checks;
pub mod clock;
pub mod config;
pub mod consent;
pub mod env;
pub mod exec;
pub mod exit;
pub mod limits;
pub mod loop_guard;
pub mod matcher;
pub mod outcome;
pub mod output;
pub mod paths;
pub mod payload;
pub mod pyjson;
mod python_int;
pub mod response;
pub mod runner;
pub mod script_word;
pub mod statefile;
pub mod synthetic;

mod cli;

/// The clap definition of the command line (for completions and man pages).
pub fn command() -> clap::Command {
    <cli::Cli as clap::CommandFactory>::command()
}

/// Parses the command line, runs the command and returns the process exit code.
pub fn main() -> u8 {
    cli::main().code()
}
