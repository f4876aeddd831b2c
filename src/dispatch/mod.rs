//! One event, from its name and payload to the answer line: the single path `run`, `serve` and a
//! library caller share (prepare, decide, audit, and the answer in the calling agent's shape).
//! Where the hooks come from is the caller's ([`HookSource`]: `run` reads the files, `serve`
//! keeps what it read until the files change); everything after is the same code. It never
//! prints: what a person should hear goes to the caller's [`Talk`].

mod decide;
mod prepared;
mod record;
mod said;

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use anyhow::{Result, anyhow};

use crate::agents::{Agent, Reply};
use crate::config::{self, Event, HookSet, HookSpec, LoadOptions};
use crate::consent::{Bypass, KeptList};
use crate::engine::response::Directive;
use crate::engine::tool_classes::Allowances;
use crate::exec::detach::Watchdog;
use crate::ground::env;
use crate::ground::exit::ExitStatus;
use crate::ground::paths::{Locations, Paths, Start};

pub(crate) use record::Pending;
pub(crate) use said::{
    consent_warnings, load_problems, location_warnings, missing_home, say_interrupted,
};

/// Where what a person should hear goes: warnings, notes and errors (the command line prints
/// them on stderr, a library caller does what it likes with them).
pub trait Talk {
    /// Something went wrong or is odd, and the answer stands.
    fn warn(&self, message: impl Display);
    /// Something worth knowing.
    fn note(&self, message: impl Display);
    /// What kept the event from being answered as asked, with its causes.
    fn error(&self, err: &anyhow::Error);
}

/// What shapes every answer: where to look (as `--hermes-home`, `--config`, `--user-hooks` and
/// `--project` name it), the consent bypass, the audit log and the fail-closed mode.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// The locations named by the caller; `None` is the default.
    pub locations: Locations<'a>,
    /// Approve unapproved or changed hooks on the spot (`--accept-hooks`).
    pub accept_hooks: bool,
    /// The audit log: a file, `off`, or `None` for the default one.
    pub audit_log: Option<&'a Path>,
    /// Also put the payload into the audit log (or `HERMES_HOOKS_AUDIT_PAYLOAD`).
    pub audit_payload: bool,
    /// "Keep working" answers honoured in a row per session (`None`: the environment's or 8).
    pub gate_limit: Option<u32>,
    /// Block a call the runner could not check, where a hook could block (or
    /// `HERMES_HOOKS_FAIL_CLOSED`).
    pub fail_closed: bool,
}

impl Options<'_> {
    /// Whether a runner error blocks (the option, or `HERMES_HOOKS_FAIL_CLOSED`).
    pub(crate) fn fail_closed(&self) -> bool {
        self.fail_closed || env::flag(env::HERMES_HOOKS_FAIL_CLOSED)
    }

    /// Whether the payload goes into the audit log.
    pub(crate) fn audit_payload(&self) -> bool {
        self.audit_payload || env::flag(env::HERMES_HOOKS_AUDIT_PAYLOAD)
    }

    /// The locations, resolved against the environment and the defaults, with the project
    /// found from `start`.
    pub(crate) fn paths_for(&self, start: &Start<'_>) -> Result<Paths> {
        Paths::resolve_for(&self.locations, start)
    }
}

/// What to load from `paths` (of one event, or all).
pub(crate) fn load_options(paths: &Paths, only: Option<Event>) -> LoadOptions<'_> {
    LoadOptions {
        config: &paths.config,
        managed: paths.managed.as_deref(),
        dotenv: Some(&paths.dotenv),
        user_hooks: paths.user_hooks.as_deref(),
        project_hooks: paths.project_hooks.as_deref(),
        nested_hooks: &paths.nested_hooks,
        only,
        user_rules: Some(&paths.user_rules),
        project: paths.work_root.as_deref(),
    }
}

/// The active consent bypass, if any: this tool's (`accept_hooks`, then `HERMES_HOOKS_ACCEPT`),
/// which cover every hook, unless this runs inside an agent's tool call ([`switch_set_aside`]),
/// else Hermes's (`HERMES_ACCEPT_HOOKS`, then the config), which cover config hooks only.
pub(crate) fn bypass(accept_hooks: bool, set: &HookSet) -> Option<Bypass> {
    if let Some(own) = own_switch(accept_hooks)
        && crate::ground::in_tool_call::detect().is_none()
    {
        Some(own)
    } else if env::flag(env::HERMES_ACCEPT_HOOKS) {
        Some(Bypass::HermesEnv)
    } else if set.auto_accept {
        Some(Bypass::Config)
    } else {
        None
    }
}

/// This tool's consent switch, when it is on.
fn own_switch(accept_hooks: bool) -> Option<Bypass> {
    if accept_hooks {
        Some(Bypass::Flag)
    } else if env::flag(env::HERMES_HOOKS_ACCEPT) {
        Some(Bypass::Env)
    } else {
        None
    }
}

/// The agent's tool call this runs in, when this tool's consent switch is on there: approving
/// is a person's decision, so the switch is set aside (the model could have set it).
pub(crate) fn switch_set_aside(accept_hooks: bool) -> Option<crate::ground::in_tool_call::Inside> {
    own_switch(accept_hooks)?;
    crate::ground::in_tool_call::detect()
}

/// The first argument that turns this program into the watchdog of an `async` hook (kept out
/// of clap, so it is in no help, completion or man page).
pub(crate) const WATCH_COMMAND: &str = "__watch";

/// This program, when some hook is `async` and needs it as its watchdog.
pub(crate) fn watchdog_program(set: &HookSet) -> Option<PathBuf> {
    set.hooks
        .iter()
        .any(HookSpec::run_async)
        .then(std::env::current_exe)
        .and_then(Result::ok)
}

/// The watchdog of `async` hooks: `program __watch <pgid> <timeout_ms>`.
pub(crate) fn watchdog(program: Option<&Path>) -> Option<Watchdog<'_>> {
    program.map(|program| Watchdog {
        program,
        args: &[WATCH_COMMAND],
    })
}

/// Where the hooks of one event come from.
pub(crate) trait HookSource {
    /// The hooks `paths` declare for `event`. Load warnings are the source's to print (`run`
    /// prints them on every call, `serve` when it reads the files).
    fn hooks(&mut self, paths: &Paths, event: Event, talk: &impl Talk) -> Result<Rc<HookSet>>;

    /// The locations for a call whose project search starts at `start`.
    fn paths(&mut self, options: &Options<'_>, start: &Start<'_>) -> Result<Paths> {
        options.paths_for(start)
    }

    /// Where a folder the guard's files live under really is
    /// ([`crate::ground::paths::real`]), for a source that may keep the answer.
    fn real_folder(&mut self, folder: &Path) -> std::io::Result<PathBuf> {
        crate::ground::paths::real(folder)
    }

    /// Whether to say that `HERMES_SAFE_MODE` keeps every hook from running (once is enough).
    fn announce_safe_mode(&mut self) -> bool {
        true
    }

    /// Where the allowlist is kept between events, for a source that answers many.
    fn kept_allowlist(&self) -> Option<Arc<Mutex<KeptList>>> {
        None
    }

    /// Appends an event's audit line now, or keeps it to append later (`serve` appends it once
    /// its answer is out, before it reads the next request).
    fn audit(&mut self, pending: Pending, talk: &impl Talk) {
        pending.append(talk);
    }
}

/// The hooks as the files say now: read on every call.
pub(crate) struct ReadEveryTime;

impl HookSource for ReadEveryTime {
    fn hooks(&mut self, paths: &Paths, event: Event, talk: &impl Talk) -> Result<Rc<HookSet>> {
        location_warnings(paths, talk);
        let set = config::load(load_options(paths, Some(event)))?;
        load_problems(&set, talk);
        Ok(Rc::new(set))
    }
}

/// The hooks as the files say now, for a process that ends after one answer: the set is never
/// freed (freeing every rule's text costs more than deciding with it).
pub(crate) struct ReadOnce;

impl HookSource for ReadOnce {
    fn hooks(&mut self, paths: &Paths, event: Event, talk: &impl Talk) -> Result<Rc<HookSet>> {
        let set = ReadEveryTime.hooks(paths, event, talk)?;
        std::mem::forget(Rc::clone(&set));
        Ok(set)
    }
}

/// One event to answer.
pub struct Request<'a> {
    /// The event as it was called (any of its names, or the agent's).
    pub name: &'a str,
    /// The agent that called: whose event names and payload come in, and whose answer goes out.
    pub agent: Agent,
    /// Check matchers and consent only.
    pub dry_run: bool,
    /// The directory the program runs in (a hook's default working directory).
    pub current_dir: &'a Path,
    /// The project directory the calling agent names, and what named it: the project search
    /// starts there whatever the payload's `cwd` says (SPEC 2).
    pub project_dir: Option<(&'a Path, &'static str)>,
}

/// What `run` prints: one JSON line, and the status it exits with.
pub struct Answer {
    /// The JSON object, on one line without its newline; `None` after a signal ended the hooks
    /// (nothing is printed then).
    pub line: Option<String>,
    /// 0, 1 (refused), 2 (blocked or keep working), 128 + N.
    pub status: ExitStatus,
    /// The block or gate message, for a caller that reads stderr.
    pub agent_message: Option<String>,
    /// The decision, for an agent's own answer.
    pub directive: Option<Directive>,
    /// Why nothing could be decided (exit 1: failing open).
    pub error: Option<String>,
    /// For the person, in an agent's mode: guards that stopped guarding (said once per
    /// session), put where the agent shows it.
    pub notice: Option<String>,
}

impl Answer {
    /// The answer with nothing decided: exit 0, `line` printed.
    fn nothing(line: Option<String>) -> Self {
        Self {
            line,
            status: ExitStatus::Success,
            agent_message: None,
            directive: None,
            error: None,
            notice: None,
        }
    }
}

/// Answers one event for the agent that called, with the hooks as the files say now: the
/// agent's event name and payload in (`input` is called once the name is known), the agent's own
/// answer out; for Hermes, the answer line. The decision is the engine's, the same for every
/// agent; the full report goes to the audit log.
pub fn answer(
    options: &Options<'_>,
    request: &Request<'_>,
    input: impl FnOnce() -> Result<serde_json::Map<String, serde_json::Value>>,
    talk: &impl Talk,
) -> Answer {
    answer_from(options, request, input, &mut ReadEveryTime, talk)
}

/// [`answer`] for a process that ends right after it (`run`): what it read is not freed.
pub(crate) fn answer_once(
    options: &Options<'_>,
    request: &Request<'_>,
    input: impl FnOnce() -> Result<serde_json::Map<String, serde_json::Value>>,
    talk: &impl Talk,
) -> Answer {
    answer_from(options, request, input, &mut ReadOnce, talk)
}

/// [`answer`], with the hooks from `source`.
pub(crate) fn answer_from(
    options: &Options<'_>,
    request: &Request<'_>,
    input: impl FnOnce() -> Result<serde_json::Map<String, serde_json::Value>>,
    source: &mut impl HookSource,
    talk: &impl Talk,
) -> Answer {
    let agent = request.agent;
    let (resolved, allow) = match agent.resolve(request.name) {
        Ok(Some((resolved, own))) => (Ok(resolved), own.allowances()),
        // The agent's own event with no counterpart: no hook is declared for it.
        Ok(None) => return Answer::nothing(None).rendered(agent, request.name, None),
        // An event the agent added after this version: nothing runs, and the person is told.
        Err(unknown) if !agent.is_hermes() => {
            talk.warn(format!(
                "{unknown}; {} may have added it after this version of hermes-hooks, so no hook \
                 runs for it",
                agent.title()
            ));
            return Answer::nothing(None).rendered(agent, request.name, None);
        }
        Err(unknown) => (Err(unknown), Allowances::default()),
    };
    // An agent that repeats an event within one turn (Qwen Code's `UserPromptSubmit` before
    // every model call) is read first: a repeat runs no hook.
    let mut read = Some(input);
    let mut early = None;
    if resolved.is_ok()
        && agent.may_repeat_turns()
        && let Some(read) = read.take()
    {
        let payload = read();
        if let Ok(map) = &payload
            && agent.repeats_turn(request.name, map)
        {
            return Answer::nothing(None).rendered(agent, request.name, None);
        }
        early = Some(payload);
    }
    // What normalising added for hooks (a shell command under another key), to put back.
    let mut exposed = None;
    let input = || {
        let payload = match (early, read) {
            (Some(payload), _) => payload,
            (None, Some(read)) => read(),
            (None, None) => Err(anyhow!("the payload was already read")),
        };
        payload.map(|mut map| {
            exposed = agent.normalise(request.name, &mut map);
            map
        })
    };
    let event = resolved.as_ref().ok().map(|r| r.event);
    let mut answer = decide::decide(options, request, (resolved, allow), input, source, talk);
    if let Some(exposed) = &exposed
        && let Some(directive) = answer.directive.take()
    {
        let directive = crate::agents::restore(exposed, directive);
        if let Directive::Block { message } = &directive {
            answer.status = ExitStatus::Blocked;
            answer.agent_message = Some(message.clone());
        }
        answer.directive = Some(directive);
    }
    if agent.is_hermes() {
        answer
    } else {
        answer.rendered(agent, request.name, event)
    }
}

impl Answer {
    /// This answer in `agent`'s contract: its JSON (or nothing) on stdout, its exit code.
    fn rendered(self, agent: Agent, name: &str, event: Option<Event>) -> Self {
        if self.line.is_none() && self.status != ExitStatus::Success {
            // Ended by a signal: nothing is printed.
            return self;
        }
        let name = event
            .filter(|_| !agent.events().iter().any(|own| own.name == name))
            .and_then(|event| agent.names_for(event).first().copied())
            .unwrap_or(name);
        let rendered = agent.render(&Reply {
            event: name,
            table: event,
            directive: self.directive.as_ref(),
            error: self.error.as_deref().filter(|_| self.directive.is_none()),
        });
        let rendered = match self.notice.as_deref() {
            Some(notice) => agent.with_notice(rendered, notice),
            None => rendered,
        };
        let agent_message = match rendered.exit {
            ExitStatus::Blocked => rendered.stderr,
            // A runner error was said on stderr already.
            _ => None,
        };
        Self {
            line: rendered.stdout,
            status: rendered.exit,
            agent_message,
            ..self
        }
    }
}
