//! `serve`: `run` for agents that fire many events. Requests come as JSON lines on stdin
//! (`{"id", "event", "payload", "dry_run", "agent", "sources"}`), and each gets one JSON line on stdout, in order:
//! what `run` prints for that event and payload, with the request's `id` and the `exit` status
//! `run` would have. The hooks are kept between requests and read again when their files change
//! (see [`crate::cache`]), and a request's audit line is appended once its answer is out;
//! everything else is `run`'s own path ([`crate::dispatch`]).

use std::collections::{HashMap, HashSet};
use std::io::{self, BufRead as _};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use anyhow::{Context as _, Result};
use clap::Args;
use serde_json::{Map, Value};

use super::GlobalArgs;
use super::shared::{self, DispatchArgs};
use crate::agents::Agent;
use crate::cache::HookCache;
use crate::config::sources::{ConfigFiles, Sources};
use crate::config::{Event, HookSet};
use crate::consent::KeptList;
use crate::dispatch::{self, HookSource, Pending, Request, Talk};
use crate::engine::payload::PayloadError;
use crate::ground::exit::ExitStatus;
use crate::ground::interrupt;
use crate::ground::paths::{Paths, Start};
use crate::ground::pyjson::{self, JsonError};
use crate::output::Printer;
use crate::report::line::to_line;

#[derive(Args, Debug)]
#[command(
    after_help = "Each line on stdin is a request: {\"id\": 7, \"event\": \"pre_tool_call\", \
    \"payload\": {...}} (\"payload\" defaults to {}; \"dry_run\": true checks consent and runs \
    nothing; \"sources\": [\"agent-hooks\"] loads and runs only the hooks of those sources, for \
    a caller that runs the others itself (Hermes runs its config hooks); \"agent\": \"gemini\" reads the agent's event names and payload, and the line then \
    holds {\"id\", \"exit\", \"answer\": what `run --agent` prints, or null, \"stderr\"}). Each gets one line on stdout, in order: {\"id\", \"exit\", then what `run` prints}, \
    where exit is the status `run` would exit with (0, 1 or 2). A line that is not a request gets \
    {\"id\", \"error\"}, and the next line is read. Config, HOOK.md folders and the allowlist are \
    read again when they change; end of input ends it. Exit 0 at end of input, 128+N on a signal."
)]
pub(crate) struct ServeArgs {
    #[command(flatten)]
    dispatch: DispatchArgs,
}

/// The hooks, kept between requests.
struct Kept {
    cache: HookCache,
    said_safe_mode: bool,
    /// The projects skipped for their owner that were said already (once each is enough).
    said_skipped: HashSet<PathBuf>,
    /// The sources the request being answered runs (`None`: all).
    sources: Option<Sources>,
    /// For each event and choice of sources, the kept set it was narrowed from, and the
    /// narrowed set.
    narrowed: HashMap<(Event, Option<Sources>), Narrowed>,
    /// The allowlist as last read, read again when it changes.
    allowlist: Arc<Mutex<KeptList>>,
    /// The audit line of the request being answered, appended once the answer is out.
    audit: Option<Pending>,
}

impl HookSource for Kept {
    fn kept_allowlist(&self) -> Option<Arc<Mutex<KeptList>>> {
        Some(Arc::clone(&self.allowlist))
    }

    fn hooks(&mut self, paths: &Paths, event: Event, talk: &impl Talk) -> Result<Rc<HookSet>> {
        if let Some(skipped) = &paths.project_skipped
            && self.said_skipped.insert(skipped.root.clone())
        {
            talk.warn(skipped);
        }
        let cached = self
            .cache
            .get(crate::dispatch::load_options(paths, Some(event)), event);
        while let Some(notice) = self.cache.notice() {
            talk.warn(notice);
        }
        if cached.fresh && paths.home_named && !paths.home.is_dir() {
            // Said when the files are read, not on every request.
            talk.warn(dispatch::missing_home(&paths.home));
        }
        let set = cached.set.map_err(|err| rebuilt(&err))?;
        let sources = self.sources;
        if let Some((from, narrowed)) = self.narrowed.get(&(event, sources))
            && Rc::ptr_eq(from, &set)
        {
            return Ok(Rc::clone(narrowed));
        }
        // The problems of a set are said when it is first given out for these sources.
        let narrowed = match sources {
            None => Rc::clone(&set),
            Some(sources) => Rc::new(set.only(
                sources,
                &ConfigFiles {
                    config: &paths.config,
                    managed: paths.managed.as_deref(),
                    dotenv: &paths.dotenv,
                },
            )),
        };
        dispatch::load_problems(&narrowed, talk);
        self.narrowed
            .insert((event, sources), (set, Rc::clone(&narrowed)));
        Ok(narrowed)
    }

    fn paths(&mut self, options: &dispatch::Options<'_>, start: &Start<'_>) -> Result<Paths> {
        self.cache.paths(start, || options.paths_for(start))
    }

    fn real_folder(&mut self, folder: &Path) -> io::Result<PathBuf> {
        self.cache.real_folder(folder)
    }

    fn announce_safe_mode(&mut self) -> bool {
        !std::mem::replace(&mut self.said_safe_mode, true)
    }

    fn audit(&mut self, pending: Pending, talk: &impl Talk) {
        if let Some(earlier) = self.audit.replace(pending) {
            earlier.append(talk);
        }
    }
}

/// A kept set, and what a request's sources make of it.
type Narrowed = (Rc<HookSet>, Rc<HookSet>);

/// A copy of a kept error, causes and all.
fn rebuilt(err: &anyhow::Error) -> anyhow::Error {
    let mut chain: Vec<String> = err.chain().map(ToString::to_string).collect();
    let mut copy = anyhow::anyhow!(chain.pop().unwrap_or_default());
    while let Some(outer) = chain.pop() {
        copy = copy.context(outer);
    }
    copy
}

pub(crate) fn run(global: &GlobalArgs, args: &ServeArgs, printer: &Printer) -> Result<ExitStatus> {
    if let Some(why) = crate::ground::env::nested_too_deep() {
        anyhow::bail!(why);
    }
    let current_dir = shared::current_dir()?;
    shared::end_hooks_on_interrupt();
    crate::config::rules::answering_many_calls();
    let mut source = Kept {
        cache: HookCache::new(),
        said_safe_mode: false,
        said_skipped: HashSet::new(),
        sources: None,
        narrowed: HashMap::new(),
        allowlist: Arc::default(),
        audit: None,
    };
    let options = args.dispatch.options(global);
    let mut stdin = io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        if stdin
            .read_until(b'\n', &mut line)
            .context("cannot read a request from stdin")?
            == 0
        {
            return Ok(ExitStatus::Success);
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        // What is said on stderr names the request it is about.
        let mut about = None;
        let reply = match parse(&line) {
            Ok(request) => {
                let talk = printer.about(about.insert(format!("request {}", to_line(&request.id))));
                source.sources = request.sources;
                let answered = dispatch::answer_from(
                    &options,
                    &Request {
                        agent: request.agent,
                        name: &request.event,
                        dry_run: request.dry_run,
                        current_dir: &current_dir,
                        project_dir: request
                            .project_dir
                            .as_deref()
                            .map(|dir| (dir, "the request's project_dir")),
                    },
                    || {
                        request.payload.map_err(|err| {
                            anyhow::Error::new(err).context("bad payload in the request")
                        })
                    },
                    &mut source,
                    &talk,
                );
                if let ExitStatus::Signaled(_) = answered.status
                    && answered.line.is_none()
                {
                    if let Some(pending) = source.audit.take() {
                        pending.append(&talk);
                    }
                    return Ok(answered.status); // a signal ended the hooks: no half answer
                }
                let body = if request.agent.is_hermes() {
                    answered.line.unwrap_or_default()
                } else {
                    agent_body(answered.line.as_deref(), answered.agent_message.as_deref())
                };
                with_id(&request.id, answered.status, body)
            }
            Err(refused) => (to_line(&refused), String::new()),
        };
        // A signal while the line is written, or the audit line after it, waits for both to be
        // whole. The answer goes first: the agent waits for it, the log does not.
        let busy = interrupt::busy();
        let written = printer.line_of(&[&reply.0, reply.1.get(1..).unwrap_or_default()]);
        if let Some(pending) = source.audit.take() {
            pending.append(&printer.about(about.as_deref().unwrap_or("request")));
        }
        drop(busy);
        if let Some(signal) = interrupt::received() {
            dispatch::say_interrupted(signal, printer);
            return Ok(ExitStatus::Signaled(signal.exit_code()));
        }
        match written {
            Ok(()) => {}
            // Nobody reads the answers any more.
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => {
                return Ok(ExitStatus::Success);
            }
            Err(err) => return Err(err).context("cannot write an answer on stdout"),
        }
    }
}

/// One request, as read from its line.
struct Parsed {
    id: Value,
    event: String,
    payload: Result<Map<String, Value>, PayloadError>,
    dry_run: bool,
    agent: Agent,
    /// The sources to run (`None`: all).
    sources: Option<Sources>,
    /// The project directory the calling agent names (the plugin: the Hermes session's launch
    /// directory): the project search starts there, whatever the payload's `cwd` says.
    project_dir: Option<PathBuf>,
}

/// The answer to a line that is not a request.
#[derive(serde::Serialize)]
struct Refused {
    id: Value,
    error: String,
}

/// The keys a request may have.
const KEYS: [&str; 7] = [
    "id",
    "event",
    "payload",
    "dry_run",
    "agent",
    "sources",
    "project_dir",
];

/// Reads a request line as `json.loads` would (`NaN` and the like in a payload are fine). The
/// payload is read as deep as `run` reads it, one level below the request.
fn parse(line: &[u8]) -> Result<Parsed, Refused> {
    match pyjson::from_slice_within(line, pyjson::MAX_DEPTH + 1) {
        Ok(Value::Object(object)) => request(object, None),
        Ok(other) => Err(Refused {
            id: Value::Null,
            error: format!(
                "a request must be a JSON object, not {}",
                crate::engine::payload::json_kind(&other)
            ),
        }),
        Err(err) => salvage(line, &err),
    }
}

/// A line that could not be read whole. Its members are found by their outline alone (strings
/// and brackets, never what is inside them), up to where the outline breaks, and each is read on
/// its own: the id, when it can be read, is answered with. When all that could not be read is a
/// payload nested too deep, the request stands, with `run`'s error for that payload.
fn salvage(line: &[u8], err: &JsonError) -> Result<Parsed, Refused> {
    let (members, mut whole) = pyjson::members(line);
    let mut object = Map::new();
    // The keys whose (last) value could not be read, and whether it was only too deep.
    let mut unread: Vec<(String, bool)> = Vec::new();
    for member in members {
        let Ok(Value::String(key)) = pyjson::from_slice(member.key) else {
            whole = false;
            break;
        };
        // A key given twice counts with its last value, as in `json.loads`.
        unread.retain(|(name, _)| *name != key);
        match pyjson::from_slice(member.value) {
            Ok(value) => {
                object.insert(key, value);
            }
            Err(err) => {
                object.remove(&key);
                unread.push((key, matches!(err, JsonError::TooDeep(_))));
            }
        }
    }
    if let (true, [(key, true)], JsonError::TooDeep(at)) = (whole, unread.as_slice(), err)
        && key == "payload"
    {
        let too_deep = pyjson::TooDeep {
            limit: pyjson::MAX_DEPTH,
            ..*at
        };
        return request(object, Some(PayloadError::too_deep(too_deep)));
    }
    let id = object.remove("id").unwrap_or(Value::Null);
    let error = match err {
        JsonError::Invalid(err) => format!("the line is not valid JSON: {err}"),
        JsonError::TooDeep(_) => format!("the line is {err}"),
    };
    Err(Refused { id, error })
}

/// The request in a line read as an object; `bad_payload` stands for a payload that could not be
/// read.
fn request(
    mut object: Map<String, Value>,
    bad_payload: Option<PayloadError>,
) -> Result<Parsed, Refused> {
    let refused = |id: &Value, error: String| Refused {
        id: id.clone(),
        error,
    };
    let id = object.remove("id").unwrap_or(Value::Null);
    if let Some(key) = object.keys().find(|key| !KEYS.contains(&key.as_str())) {
        return Err(refused(
            &id,
            format!(
                "unknown key \"{key}\" in the request (it takes {})",
                KEYS.join(", ")
            ),
        ));
    }
    let event = match object.remove("event") {
        Some(Value::String(event)) => event,
        Some(other) => {
            return Err(refused(
                &id,
                format!(
                    "\"event\" must be an event name, not {}",
                    crate::engine::payload::json_kind(&other)
                ),
            ));
        }
        None => return Err(refused(&id, "the request has no \"event\"".to_owned())),
    };
    let dry_run = match object.remove("dry_run") {
        None => false,
        Some(Value::Bool(flag)) => flag,
        Some(other) => {
            return Err(refused(
                &id,
                format!(
                    "\"dry_run\" must be true or false, not {}",
                    crate::engine::payload::json_kind(&other)
                ),
            ));
        }
    };
    let agent = match object.remove("agent") {
        None | Some(Value::Null) => Agent::Hermes,
        Some(Value::String(name)) => match name.parse::<Agent>() {
            Ok(agent) => agent,
            Err(err) => return Err(refused(&id, err.to_string())),
        },
        Some(other) => {
            return Err(refused(
                &id,
                format!(
                    "\"agent\" must be an agent's name, not {}",
                    crate::engine::payload::json_kind(&other)
                ),
            ));
        }
    };
    let sources = match object.remove("sources") {
        None | Some(Value::Null) => None,
        Some(value) => Some(sources(value).map_err(|error| refused(&id, error))?),
    };
    let project_dir = match object.remove("project_dir") {
        None | Some(Value::Null) => None,
        Some(Value::String(dir)) => Some(PathBuf::from(dir)),
        Some(other) => {
            return Err(refused(
                &id,
                format!(
                    "\"project_dir\" must be a directory's path, not {}",
                    crate::engine::payload::json_kind(&other)
                ),
            ));
        }
    };
    let payload = match (bad_payload, object.remove("payload")) {
        (Some(err), _) => Err(err),
        (None, None) => Ok(Map::new()),
        (None, Some(Value::Object(payload))) => Ok(payload),
        (None, Some(other)) => Err(PayloadError::NotObject(crate::engine::payload::json_kind(
            &other,
        ))),
    };
    Ok(Parsed {
        id,
        event,
        payload,
        dry_run,
        agent,
        sources,
        project_dir,
    })
}

/// The `sources` of a request: a list of source names (`["agent-hooks"]`).
fn sources(value: Value) -> Result<Sources, String> {
    let Value::Array(names) = value else {
        return Err(format!(
            "\"sources\" must be a list of source names ({}), not {}",
            Sources::NAMES.join(", "),
            crate::engine::payload::json_kind(&value)
        ));
    };
    let mut sources = Sources::NONE;
    for name in names {
        match name {
            Value::String(name) => sources.add(&name)?,
            other => {
                return Err(format!(
                    "\"sources\" must list source names, not {}",
                    crate::engine::payload::json_kind(&other)
                ));
            }
        }
    }
    Ok(sources)
}

/// An agent's answer as a serve line's body: `{"answer": what `run --agent` prints on stdout
/// (JSON, or null for nothing), "stderr": the message it prints on stderr, when there is one}`.
fn agent_body(stdout: Option<&str>, stderr: Option<&str>) -> String {
    let answer = stdout
        .and_then(|text| serde_json::from_str::<Value>(text).ok())
        .unwrap_or(Value::Null);
    let mut body = Map::new();
    body.insert("answer".to_owned(), answer);
    if let Some(message) = stderr {
        body.insert("stderr".to_owned(), Value::from(message));
    }
    to_line(&Value::Object(body))
}

/// `run`'s line `body` with the request's `id` and the `exit` status in front: the head, and the
/// body whose members follow it from its second byte on (written as two pieces, not copied: an
/// answer can be tens of kilobytes).
fn with_id(id: &Value, status: ExitStatus, mut body: String) -> (String, String) {
    let mut head = String::with_capacity(40);
    head.push_str("{\"id\":");
    head.push_str(&to_line(id));
    head.push_str(",\"exit\":");
    head.push_str(&status.code().to_string());
    if !body.starts_with('{') {
        "{}".clone_into(&mut body);
    }
    if body != "{}" {
        head.push(',');
    }
    (head, body)
}
