//! hermes-hooks runs and audits agent hooks behind a content-pinned consent allowlist.
//!
//! The engine never prints and never exits, so it can be used as a library. One event, start to
//! finish: [`load`] the hooks ([`LoadOptions`] names the files), build a [`Plan`] (the event as
//! called, the [`Invocation`] read from the payload, a [`ConsentGate`] over the allowlist), and
//! [`decide`]: the [`Outcome`] holds every hook's report, the directive after the quality-gate
//! [`LoopGuard`], and the exit status, exactly what `hermes-hooks run` prints. A long-lived
//! caller keeps a [`HookCache`] instead of loading on every event: it reads a set again when a
//! file it came from changes. [`examine`] gives the findings `doctor` prints. Nothing else is
//! public.
//!
//! Inside, in one direction (each module only uses the ones above it):
//! - `stamp` (what stands for a file's bytes until they change);
//! - `config` (sources into one ordered list of [`HookSpec`]; the event table in
//!   `config::event`; YAML mechanics in `config::yaml`), `matcher`, `payload`, `synthetic`,
//!   `cache` (hook sets kept between events);
//! - `statefile` (locked, atomic writes), `consent` (the allowlist and the sha256 pin),
//!   `loop_guard`;
//! - `exec` (one hook without a shell, in its own process group, under a deadline), `limits`;
//! - `response` (exit code and stdout into a status and a directive), `agents` (each agent's
//!   event names, tools, payload and answer shape, one file per agent), `runner` (one event's
//!   hooks: order, consent right before each start, aggregation), `outcome` (the final answer),
//!   `undecided` (what the runner could not read, and the answer it then gives),
//!   `checks` (what `doctor` finds), `authoring` (example answers, sample payloads and the files
//!   `new` writes);
//! - the command line: `cli` (one module per subcommand) and `output` (all printing).

mod agents;
mod authoring;
mod cache;
mod checks;
mod clock;
mod config;
mod consent;
mod env;
mod exec;
mod exit;
mod fault;
mod limits;
mod loop_guard;
mod matcher;
mod outcome;
mod output;
mod owner;
mod paths;
mod payload;
mod profile;
#[cfg(test)]
mod properties;
mod pyjson;
mod python_int;
mod response;
mod rules;
mod runner;
mod script_word;
mod stamp;
mod statefile;
mod synthetic;
mod text;
mod told;
mod undecided;

mod cli;

// The engine, for a library caller (and a long-lived server): load the hooks, build a plan,
// decide; every type those calls take or give is here, and nothing else.
pub use agents::{Agent, AgentEvent, Allowances, Rendered, Reply, ToolClass, UnknownAgent};
pub use cache::{Cached, HookCache};
pub use checks::{Checkup, Finding, Level, examine};
pub use config::event::{EventDef, Resolved, UnknownEvent};
pub use config::{
    AgentHook, Effects, Event, HookSet, HookSpec, LoadError, LoadOptions, Namesake, Origin,
    Replacement, Scope, Source, SourceKind, Warning, WarningKind, load,
};
pub use consent::fingerprint::{script_path, sha256_file};
pub use consent::store::Approval;
pub use consent::{Bypass, ConsentGate, record};
pub use exec::SPOOL_LIMIT;
pub use exec::detach::Watchdog;
pub use exec::interrupt::Interrupt;
pub use exit::ExitStatus;
pub use loop_guard::Released;
pub use matcher::Matcher;
pub use outcome::{LoopGuard, Outcome, decide};
pub use payload::{Dialect, HermesWire, Invocation, PayloadError, parse as parse_payload};
pub use response::{Directive, Status};
pub use runner::{HookReport, Plan, RunReport};
pub use statefile::{FileKind, StateError};
pub use undecided::{RunnerError, Unread};

/// The clap definition of the command line (for completions and man pages).
pub fn command() -> clap::Command {
    cli::command()
}

/// Parses the command line, runs the command and returns the process exit code.
pub fn main() -> u8 {
    cli::main().code()
}
