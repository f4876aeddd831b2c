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
//! Inside, in layers: each module uses only the ones named before it in this list (the house
//! test in `tests/house.rs` reads this list and checks every `crate::` path against it):
//! - the ground: `env` (every environment variable read), `clock`, `exit`, `fault`, `limits`
//!   (reading files others supply), `pyjson`, `python_int`, `sanitize` (text made safe for a
//!   terminal), `script_word`, `stamp` (what stands for a file's bytes until they change),
//!   `digest`, `text`, `profile`, `matcher`, `owner`, `paths` (where every file is), `shell` (a
//!   command line read as the shell reads it: the simple commands that would run), `tool_call`
//!   (whether this process is a command an agent's model ran);
//! - the engine: `exec` (one hook without a shell, in its own process group, under a deadline),
//!   `config` (sources into one ordered list of [`HookSpec`]; the event table in
//!   `config::event`; YAML mechanics in `config::yaml`), `statefile` (locked, atomic writes),
//!   `cache` (hook sets kept between events), `caller` (what the engine knows of the calling
//!   agent: tool classes and allowances), `consent` (the allowlist and the sha256 pin),
//!   `loop_guard`, `payload`, `response` (exit code and stdout into a status and a directive),
//!   `synthetic`, `rules` (a rule's verdict on a call; the packs shipped), `runner` (one event's hooks: order,
//!   consent right before each start, aggregation), `outcome` (the final answer), `undecided`
//!   (what the runner could not read, and the answer it then gives);
//! - the agents, on top of the engine: `agents` (each agent's event names, tools, payload and
//!   answer shape, one file per agent; its settings files and the Hermes plugin);
//! - what uses both: `authoring` (example answers, sample payloads and the files `new` writes),
//!   `checks` (what `doctor` finds), `report` (the answer line and the audit line), `told`
//!   (guards that stopped guarding, said once), `protect` (the guard's own files and commands,
//!   kept from the model), `dispatch` (one event's whole path, [`answer`]);
//! - the command line: `output` (all printing) and `cli` (one module per subcommand).

mod agents;
mod authoring;
mod cache;
mod caller;
mod checks;
mod clock;
mod config;
mod consent;
mod digest;
mod dispatch;
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
mod protect;
mod pyjson;
mod python_int;
mod report;
mod response;
mod rules;
mod runner;
mod sanitize;
mod script_word;
mod shell;
mod stamp;
mod statefile;
mod synthetic;
mod text;
mod told;
mod tool_call;
mod undecided;

mod cli;

// The engine, for a library caller (and a long-lived server): load the hooks, build a plan,
// decide; every type those calls take or give is here, and nothing else.
pub use agents::{Agent, AgentEvent, Rendered, Reply, UnknownAgent};
pub use cache::{Cached, HookCache};
pub use caller::{Allowances, ToolClass, ToolClasses};
pub use checks::{Checkup, Finding, Level, examine};
pub use config::event::{EventDef, Resolved, UnknownEvent};
pub use config::{
    AgentHook, Effects, Event, HookSet, HookSpec, LoadError, LoadOptions, Namesake, Origin,
    Replacement, Scope, Source, SourceKind, Warning, WarningKind, load,
};
pub use consent::fingerprint::{script_path, sha256_file};
pub use consent::store::Approval;
pub use consent::{Bypass, ConsentGate, record};
pub use dispatch::{Answer, Options, Request, Talk, answer};
pub use exec::SPOOL_LIMIT;
pub use exec::detach::Watchdog;
pub use exec::interrupt::Interrupt;
pub use exit::ExitStatus;
pub use loop_guard::Released;
pub use matcher::Matcher;
pub use outcome::{LoopGuard, Outcome, decide};
pub use paths::Locations;
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
