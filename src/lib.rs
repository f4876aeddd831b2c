//! hermes-hooks runs and audits agent hooks behind a content-pinned consent allowlist.
//!
//! The engine never prints and never exits, so it can be used as a library. One event, start to
//! finish, as `run` and `serve` answer it: [`answer`] takes the [`Options`] (where to look, the
//! audit log, fail-closed), the [`Request`] (the event as the calling [`Agent`] names it) and a
//! reader of the payload, and gives the [`Answer`]: the line `run` prints (or the agent's own
//! answer), the exit status and the directive; what a person should hear goes to the caller's
//! [`Talk`]. Its steps are public too: [`load`] the hooks ([`LoadOptions`] names the files),
//! build a [`Plan`] (the event as called, the [`Invocation`] read from the payload, a
//! [`ConsentGate`] over the allowlist), and [`decide`]: the [`Outcome`] holds every hook's
//! report, the directive after the quality-gate [`LoopGuard`], and the exit status. A long-lived
//! caller keeps a [`HookCache`] instead of loading on every event: it reads a set again when a
//! file it came from changes. [`examine`] gives the findings `doctor` prints. Nothing else is
//! public.
//!
//! Inside, on floors: each module uses only the ones named before it in this list (the house
//! test in `tests/house.rs` reads this list and checks every `crate::` path against it, and
//! that no two modules of one folder need each other):
//! - `ground`: the small utilities every floor stands on, each named for what it answers
//!   (`ground::env`, every environment variable read; `ground::paths`, where every file is;
//!   `ground::limits`, reading files others supply; `ground::statefile`, locked atomic writes;
//!   `ground::sanitize`, text made safe for a terminal; the rest in its `mod.rs`);
//!   `matcher` (a hook's matcher, and Python's `re` for Hermes's regexes), `shell` (a command
//!   line read as the shell reads it: the simple commands that would run);
//! - the sources and the process: `exec` (one hook without a shell, in its own process group,
//!   under a deadline), `config` (sources into one ordered list of [`HookSpec`]; the event table
//!   in `config::event`; YAML mechanics in `config::yaml`), `cache` (hook sets kept between
//!   events), `consent` (the allowlist and the sha256 pin);
//! - `engine`: one event decided, each file named for the question it answers (the order is in
//!   its `mod.rs`): which class a tool is, what the payload says, what a hook's answer means,
//!   what a rule says of a call, the hooks run in order under consent, the final decision and the
//!   quality-gate loop guard, where fail-closed is decided, and which stopped guards a person is
//!   told of;
//! - the agents, on top of the engine: `agents` (each agent's event names, tools, payload and
//!   answer shape, one file per agent; its settings files, the plugins and modules);
//! - what uses both: `authoring` (example answers, sample payloads and the files `new` writes),
//!   `checks` (what `doctor` finds), `report` (the answer line and the audit line), `protect`
//!   (the guard's own files and commands, kept from the model), `dispatch` (one event's whole
//!   path, [`answer`]);
//! - the command line: `output` (all printing) and `cli` (one module per subcommand).

#![forbid(unsafe_code)] // the one `unsafe` of the package is the binary's entry point (src/main.rs)

mod ground;
mod matcher;
mod shell;

mod cache;
mod config;
mod consent;
mod exec;

mod engine;

mod agents;

mod authoring;
mod checks;
mod dispatch;
mod protect;
mod report;

mod output;

mod cli;

#[cfg(test)]
mod property_tests;

// The engine, for a library caller (and a long-lived server): load the hooks, build a plan,
// decide; every type those calls take or give is here, and nothing else.
pub use agents::{Agent, AgentEvent, Rendered, Reply, UnknownAgent};
pub use cache::{Cached, HookCache};
pub use checks::{Checkup, Finding, Level, examine};
pub use config::event::{EventDef, Resolved, UnknownEvent};
pub use config::{
    AgentHook, Effects, Event, HookSet, HookSpec, HookText, LoadError, LoadOptions, Namesake,
    Origin, Replacement, Scope, Source, SourceKind, Warning, WarningKind, load,
};
pub use consent::fingerprint::{script_path, sha256_file};
pub use consent::store::Approval;
pub use consent::{Bypass, ConsentGate, record};
pub use dispatch::{Answer, Options, Request, Talk, answer};
pub use engine::decision::{LoopGuard, Outcome, decide};
pub use engine::fail_closed::{RunnerError, Unread};
pub use engine::loop_guard::Released;
pub use engine::payload::{Dialect, HermesWire, Invocation, PayloadError, parse as parse_payload};
pub use engine::response::{Directive, Status};
pub use engine::runner::{HookReport, Plan, RunReport};
pub use engine::tool_classes::{Allowances, ToolClass, ToolClasses};
pub use exec::SPOOL_LIMIT;
pub use exec::detach::Watchdog;
pub use ground::exit::ExitStatus;
pub use ground::interrupt::Interrupt;
pub use ground::paths::Locations;
pub use ground::statefile::{FileKind, StateError};
pub use matcher::Matcher;

/// The clap definition of the command line (for completions and man pages).
pub fn command() -> clap::Command {
    cli::command()
}

/// Parses the command line, runs the command and returns the process exit code.
pub fn main() -> u8 {
    cli::main().code()
}

/// [`main`] for a binary entered at C's `main`, without the standard library's start-up (the
/// GNU/Linux build of `hermes-hooks`): does what of that start-up the program needs (the standard
/// descriptors, `SIGPIPE`, a panic's status, stdout flushed), runs [`main`] and returns the
/// status for C's `main` to return.
pub fn main_without_std_start() -> i32 {
    cli::bare_start::run(main)
}
