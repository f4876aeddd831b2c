//! A guard that vanished is a changed guard. An approval remembers what it covered: a rules
//! file's approved bytes are kept under `approved/`, and an Agent Hooks approval records its
//! HOOK.md (sha256, name, matchers, `fail_closed`). A guard in reach whose file or folder is gone,
//! or whose file now differs from what was approved, is stood in for by what was approved: it is
//! reported `changed`, runs nothing, and blocks the calls it covered where the approved copy was
//! `fail_closed`, whatever the edited text says.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::store::Allowlist;
use super::{Bypass, kept};
use crate::config::rules::{self, Vars};
use crate::config::{AgentHook, Event, HookSet, HookSpec, Origin, Scope, Source, StandIn};
use crate::matcher::Matcher;

use super::store::MANIFEST_KEY;

/// What an approval of `hook` remembers of its HOOK.md, for an Agent Hooks hook read from one.
pub(crate) fn manifest_record(hook: &HookSpec) -> Option<Value> {
    let agent = hook.agent()?;
    let sha256 = agent.manifest_sha256.as_deref()?;
    Some(json!({
        "fail_closed": hook.fail_closed,
        "name": hook.name,
        "on_failure": agent.on_failure,
        "pattern": agent.pattern.as_ref().map(Matcher::source),
        "sha256": sha256,
        "tool": hook.matcher.as_deref().map(Matcher::source),
    }))
}

/// Where the guards of a run are: the user's rules file and hooks folder, and the folders whose
/// `.agents/` a project walk from `start` would read (every folder from `start` up to `stop`,
/// both included; only `start` when there is no `stop`). Kept as given; made absolute and
/// normalised only when a guard is not found as approved.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reach {
    given: Places,
    normalised: std::cell::OnceCell<Places>,
}

#[derive(Clone, Debug, Default)]
struct Places {
    user_rules: PathBuf,
    user_hooks: Option<PathBuf>,
    start: PathBuf,
    stop: Option<PathBuf>,
}

/// `path` absolute (against the current directory) and normalised.
fn absolute(path: &Path) -> PathBuf {
    crate::ground::paths::normalized(
        &std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    )
}

impl Reach {
    /// Where the guards of a call made from `start` are, the locations being `paths`.
    pub(crate) fn of(paths: &crate::ground::paths::Paths, start: &Path) -> Self {
        Self {
            given: Places {
                user_rules: paths.user_rules.clone(),
                user_hooks: paths.user_hooks.clone(),
                start: start.to_path_buf(),
                stop: paths.project.clone().or_else(|| paths.work_root.clone()),
            },
            normalised: std::cell::OnceCell::new(),
        }
    }

    /// The folder the rules were loaded for (what `${project}` stands for), as given.
    pub(crate) fn project(&self) -> Option<&Path> {
        self.given.stop.as_deref()
    }

    fn places(&self) -> &Places {
        self.normalised.get_or_init(|| Places {
            user_rules: absolute(&self.given.user_rules),
            user_hooks: self.given.user_hooks.as_deref().map(absolute),
            start: absolute(&self.given.start),
            stop: self.given.stop.as_deref().map(absolute),
        })
    }

    /// Whether the `.agents/` of `folder` is read for a call made here.
    fn holds_project(&self, folder: &Path) -> bool {
        let places = self.places();
        let bound = places.stop.as_deref().unwrap_or(&places.start);
        places.start.starts_with(folder) && folder.starts_with(bound) && folder.parent().is_some()
    }

    /// The level of the rules file `file`, when it is in reach.
    fn rules_scope(&self, file: &Path) -> Option<Scope> {
        if file == self.places().user_rules {
            return Some(Scope::User);
        }
        let agents = file.parent()?;
        (file.file_name()? == rules::FILE_NAME
            && agents.file_name()? == ".agents"
            && self.holds_project(agents.parent()?))
        .then_some(Scope::Project)
    }

    /// The hooks folder `script` is in, with its level, when it is in reach.
    fn hooks_folder_of(&self, script: &Path) -> Option<(PathBuf, Scope)> {
        if let Some(user) = &self.places().user_hooks
            && script.starts_with(user)
        {
            return Some((user.clone(), Scope::User));
        }
        script.ancestors().skip(1).find_map(|dir| {
            let agents = dir.parent()?;
            (dir.file_name()? == "hooks"
                && agents.file_name()? == ".agents"
                && self.holds_project(agents.parent()?))
            .then(|| (dir.to_path_buf(), Scope::Project))
        })
    }
}

/// `set`, with each approved guard in reach that vanished or changed stood in for by what was
/// approved (borrowed unchanged when every guard is as approved). A bypass that approves on the
/// spot leaves a guard that is there to be approved as it is now.
pub(crate) fn stand_ins<'s>(
    set: &'s HookSet,
    list: &Allowlist,
    allowlist: &Path,
    (reach, vars, only): (&Reach, Vars<'_>, Option<Event>),
    bypass: Option<Bypass>,
) -> Cow<'s, HookSet> {
    let approves_now = matches!(bypass, Some(Bypass::Flag | Bypass::Env));
    let mut out: Option<HookSet> = None;
    for entry in list.entries() {
        if entry.get("event").and_then(Value::as_str) == Some(rules::CONSENT_EVENT) {
            let Some(command) = entry.get("command").and_then(Value::as_str) else {
                continue;
            };
            let file = Path::new(command);
            let Some(pinned) = pin(entry) else {
                continue;
            };
            let read = set.rules_read.iter().find(|(read, _, _)| read == file);
            // Read in this run as approved: nothing to look into.
            if read.is_some_and(|(_, _, sha256)| sha256.as_deref() == Some(pinned)) {
                continue;
            }
            let Some(scope) = reach.rules_scope(file) else {
                continue;
            };
            let sha256 = match read {
                Some((_, _, sha256)) => sha256.as_deref(),
                // Not read in this run: judged only when it is not there at all.
                None if file.symlink_metadata().is_ok() => continue,
                None => None,
            };
            let unreadable = set.errors.iter().any(|e| absolute(&e.origin.file) == file);
            if sha256 == Some(pinned)
                || (sha256.is_some() && approves_now)
                || (sha256.is_none() && unreadable)
            {
                continue;
            }
            let stand_in = StandIn {
                gone: sha256.is_none(),
                what: format!("the rules file {command}"),
            };
            let approved = kept::read(allowlist, pinned).map_or_else(
                || vec![unknown_rules(file, scope, only, pinned, &stand_in)],
                |bytes| rules::load_approved(file, scope, only, vars, (&bytes, pinned), &stand_in),
            );
            let out = out.get_or_insert_with(|| set.clone());
            replace_rules_of(out, file, approved);
            continue;
        }
        if loaded_as_approved(out.as_ref().unwrap_or(set), entry) {
            continue;
        }
        let Some(found) = approved_hook(entry, reach, only) else {
            continue;
        };
        // A HOOK.md that is there but could not be read is a load error, said as such.
        let unreadable = set.errors.iter().any(|e| {
            let file = absolute(&e.origin.file);
            found.folder.starts_with(&file) || file.starts_with(&found.folder)
        });
        if unreadable && found.folder.join("HOOK.md").is_file() {
            continue;
        }
        let current = out.as_ref().unwrap_or(set);
        let live = current.hooks.iter().position(|hook| {
            hook.event == found.event && hook.agent().is_some_and(|a| a.entry == found.script)
        });
        let as_approved = live.is_some_and(|at| {
            current.hooks[at]
                .agent()
                .and_then(|a| a.manifest_sha256.as_deref())
                == Some(found.sha256.as_str())
        });
        if as_approved || (live.is_some() && approves_now) {
            continue;
        }
        let out = out.get_or_insert_with(|| set.clone());
        let hook = found.stand_in(entry);
        match live {
            Some(at) => out.hooks[at] = hook,
            None => out.hooks.push(hook),
        }
    }
    out.map_or(Cow::Borrowed(set), Cow::Owned)
}

/// Whether `entry` approved an Agent Hooks hook that was loaded with the HOOK.md it recorded.
fn loaded_as_approved(set: &HookSet, entry: &Map<String, Value>) -> bool {
    let recorded = entry
        .get(MANIFEST_KEY)
        .and_then(|record| record.get("sha256"))
        .and_then(Value::as_str);
    let script = entry
        .get("script")
        .or_else(|| entry.get("command"))
        .and_then(Value::as_str);
    let (Some(recorded), Some(script)) = (recorded, script) else {
        return false;
    };
    set.hooks.iter().any(|hook| {
        hook.agent().is_some_and(|agent| {
            agent.entry.as_os_str() == script
                && agent.manifest_sha256.as_deref() == Some(recorded)
                && entry.get("event").and_then(Value::as_str) == Some(hook.event.name())
        })
    })
}

/// The pin of an approval, when it has one.
fn pin(entry: &Map<String, Value>) -> Option<&str> {
    entry
        .get("script_sha256")
        .and_then(Value::as_str)
        .filter(|pin| !pin.is_empty())
}

/// Puts `approved` where the rules of `file` were. Rules come before every other hook, so the
/// indices of the others move by the difference.
fn replace_rules_of(set: &mut HookSet, file: &Path, approved: Vec<HookSpec>) {
    let of_file = |hook: &HookSpec| hook.rule().is_some_and(|rule| *rule.of.file == *file);
    let before = set.hooks.len();
    let at = set
        .hooks
        .iter()
        .position(of_file)
        .unwrap_or_else(|| set.hooks.iter().take_while(|h| h.rule().is_some()).count());
    set.hooks.retain(|hook| !of_file(hook));
    let added = approved.len();
    set.hooks.splice(at..at, approved);
    let removed = before + added - set.hooks.len();
    let shift = |index: &mut usize| {
        if *index >= at {
            *index = *index + added - removed;
        }
    };
    for replacement in &mut set.replacements {
        shift(&mut replacement.user);
        shift(&mut replacement.project);
    }
    for namesake in &mut set.namesakes {
        shift(&mut namesake.user);
    }
}

/// A rules file whose approved copy is not kept: its rules are unknown, so one entry says the
/// file is not as approved (it cannot fail closed: what it covered is not known).
fn unknown_rules(
    file: &Path,
    scope: Scope,
    only: Option<Event>,
    sha256: &str,
    stand_in: &StandIn,
) -> HookSpec {
    let rule = rules::Rule {
        of: std::sync::Arc::new(rules::RuleFile {
            file: file.into(),
            sha256: sha256.into(),
            scope,
            home: None,
            stand_in: Some(stand_in.clone()),
        }),
        tool_class: None,
        body: rules::Body::new(Vec::new(), Vec::new(), String::new()),
        action: rules::Action::Block,
        priority: 0,
        undecidable: rules::Undecidable::Allow,
        programs: None,
        program_needed: None,
    };
    let name = file
        .file_name()
        .map_or_else(|| "rules".to_owned(), |n| n.to_string_lossy().into_owned());
    HookSpec {
        timeout: std::time::Duration::ZERO,
        ..HookSpec::new(
            only.unwrap_or(Event::PRE_TOOL_CALL),
            Source::Rules(rules::RuleRef::one(rule)),
            name,
            file.to_string_lossy().into_owned(),
            Origin {
                file: std::sync::Arc::from(file),
                line: None,
            },
        )
    }
}

/// An Agent Hooks approval in reach, as its record remembers it.
struct ApprovedHook<'e> {
    event: Event,
    script: PathBuf,
    folder: PathBuf,
    scope: Scope,
    sha256: String,
    record: &'e Map<String, Value>,
}

/// The approval `entry` of an Agent Hooks hook in a hooks folder in reach, for the event
/// loaded, when it recorded its HOOK.md.
fn approved_hook<'e>(
    entry: &'e Map<String, Value>,
    reach: &Reach,
    only: Option<Event>,
) -> Option<ApprovedHook<'e>> {
    let record = entry.get(MANIFEST_KEY)?.as_object()?;
    let sha256 = record.get("sha256")?.as_str()?.to_owned();
    let event = Event::parse(entry.get("event")?.as_str()?).ok()?.event;
    if only.is_some_and(|only| only != event) {
        return None;
    }
    let script = PathBuf::from(
        entry
            .get("script")
            .or_else(|| entry.get("command"))?
            .as_str()?,
    );
    let (root, scope) = reach.hooks_folder_of(&script)?;
    let name = script.strip_prefix(&root).ok()?.components().next()?;
    Some(ApprovedHook {
        event,
        folder: root.join(name),
        script,
        scope,
        sha256,
        record,
    })
}

impl ApprovedHook<'_> {
    /// The hook as its approval recorded it, standing in for the one that vanished or changed.
    fn stand_in(&self, entry: &Map<String, Value>) -> HookSpec {
        let text = |key: &str| self.record.get(key).and_then(Value::as_str);
        let flag = |key: &str| self.record.get(key).and_then(Value::as_bool) == Some(true);
        let manifest = self.folder.join("HOOK.md");
        let stand_in = StandIn {
            gone: !manifest.is_file(),
            what: format!("the hook folder {}", self.folder.display()),
        };
        let name = text("name").map_or_else(
            || {
                self.folder
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            },
            str::to_owned,
        );
        let command = entry
            .get("command")
            .and_then(Value::as_str)
            .map_or_else(|| self.script.to_string_lossy().into_owned(), str::to_owned);
        let source = Source::AgentHooks(Box::new(AgentHook {
            entry: self.script.clone(),
            argv: Vec::new(),
            pattern: text("pattern").map(|p| Matcher::compile_search(p).0),
            run_async: false,
            on_failure: flag("on_failure"),
            scope: self.scope,
            priority: 0,
            description: None,
            manifest_sha256: None,
            stand_in: Some(Box::new(stand_in)),
        }));
        HookSpec {
            matcher: text("tool").map(|t| Box::new(Matcher::compile(t).0)),
            fail_closed: flag("fail_closed"),
            ..HookSpec::new(
                self.event,
                source,
                name,
                command,
                Origin {
                    file: std::sync::Arc::from(manifest),
                    line: None,
                },
            )
        }
    }
}
