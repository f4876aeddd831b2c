//! Agent Hooks folders: `<level>/<name>/HOOK.md` with YAML frontmatter, checked with messages that
//! name the file and line, and each hook's entry script (`scripts/run`, `run.sh` or `run.py`).
//! A HOOK.md that cannot be read as a hook (or names one with a leading `-`, which a command
//! line would read as an option) is skipped with a warning (which `doctor` reports as an
//! error); softer problems are warnings and the hook still loads.

use std::fs;
use std::os::fd::AsFd as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde_saphyr::Spanned;

use super::yaml::{self, Loose, NoFrontmatter};
use super::{
    AgentHook, Effects, Event, HookSpec, Origin, Scope, Source, SourceKind, Warning, WarningKind,
};
use crate::matcher::Matcher;

/// A hook's timeout when none is given, in milliseconds.
pub(crate) const DEFAULT_TIMEOUT_MS: u64 = 30_000;
/// The shortest timeout; shorter ones are raised to it.
pub(crate) const MIN_TIMEOUT_MS: u64 = 100;
/// The longest timeout (10 minutes); longer ones are clamped.
pub(crate) const MAX_TIMEOUT_MS: u64 = 600_000;
/// The priority when none is given (higher runs first).
pub(crate) const DEFAULT_PRIORITY: u16 = 100;
/// The highest priority.
pub(crate) const MAX_PRIORITY: u16 = 1000;
/// Entry scripts, in the order they are looked for.
pub(crate) const ENTRIES: [&str; 3] = ["run", "run.sh", "run.py"];

/// One level's hooks, and every hook folder it has (also those skipped or of other events, so a
/// user hook can be shown beside a project hook of its name that does not replace it).
#[derive(Debug, Default)]
pub(crate) struct Level {
    /// The hooks, sorted by priority (higher first), then name.
    pub hooks: Vec<HookSpec>,
    /// Every folder with a HOOK.md, loaded or not.
    pub declared: Vec<Declared>,
}

/// A hook folder as declared, whether or not it loaded.
#[derive(Debug, Clone)]
pub(crate) struct Declared {
    /// The name it declares (its folder's when it declares none or cannot be read).
    pub name: String,
    /// Its HOOK.md.
    pub file: PathBuf,
    /// Its event, when the trigger could be read.
    pub event: Option<Event>,
    /// Whether it loaded as a hook (for the event asked for, when one was).
    pub loaded: bool,
}

/// Loads every hook of one level. A folder that does not exist loads nothing and is not walked.
/// With `only`, hooks of other events are not built.
pub(crate) fn load_level(
    dir: &Path,
    scope: Scope,
    only: Option<Event>,
    warnings: &mut Vec<Warning>,
) -> Level {
    // Every error while looking for hooks is said (a skipped entry, which the load turns into
    // an error naming the folder): a folder that could not be read is never "no hooks".
    let mut cannot = |what: &str, err: &std::io::Error| {
        warnings.push(warning(
            dir,
            None,
            WarningKind::SkippedEntry,
            format!("cannot {what} the hooks folder: {err}"),
        ));
    };
    let entries = match crate::fault::check().and_then(|()| fs::read_dir(dir)) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Level::default(),
        Err(err) => {
            cannot("read", &err);
            return Level::default();
        }
    };
    // A HOOK.md of any kind counts (a FIFO or a device in its place is reported when it is
    // read, not skipped in silence); the folder count is capped, so a crafted tree cannot make
    // every command read without end.
    // Each HOOK.md is looked up relative to the open hooks folder: one short lookup each, and
    // its stat (taken here) serves the read.
    let opened = crate::fault::check().and_then(|()| {
        rustix::fs::open(
            dir,
            rustix::fs::OFlags::RDONLY
                | rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )
        .map_err(std::io::Error::from)
    });
    let level = match opened {
        Ok(level) => level,
        Err(err) => {
            cannot("open", &err);
            return Level::default();
        }
    };
    let mut folders: Vec<(PathBuf, Option<rustix::fs::Stat>)> = Vec::new();
    for entry in entries.take(crate::limits::HOOK_ENTRIES_MAX) {
        let entry = match crate::fault::check().and(entry) {
            Ok(entry) => entry,
            Err(err) => {
                // The hooks read so far still run; the folder is named as not read whole.
                cannot("list", &err);
                break;
            }
        };
        let manifest = Path::new(&entry.file_name()).join("HOOK.md");
        match crate::limits::stat_in(level.as_fd(), &manifest) {
            Ok(stat) => folders.push((entry.path(), Some(stat))),
            // No HOOK.md (or a plain file, not a folder): not a hook folder, unless a HOOK.md
            // is there all the same (a dangling symlink), which the read reports.
            Err(err)
                if matches!(
                    err.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) && matches!(
                    crate::limits::exists_in(level.as_fd(), &manifest),
                    Ok(false)
                ) => {}
            // A HOOK.md that cannot be statted, or a folder that cannot be looked into: the
            // read says why.
            Err(_) => folders.push((entry.path(), None)),
        }
    }
    // All in one folder: by name is by path.
    folders.sort_by(|a, b| a.0.file_name().cmp(&b.0.file_name()));
    if folders.len() > crate::limits::HOOK_FOLDERS_MAX {
        warnings.push(warning(
            dir,
            None,
            WarningKind::SkippedEntry,
            format!(
                "{} hook folders; only the first {} (by name) are read",
                folders.len(),
                crate::limits::HOOK_FOLDERS_MAX
            ),
        ));
        folders.truncate(crate::limits::HOOK_FOLDERS_MAX);
    }
    let level_fd = level;
    let absolute =
        crate::paths::normalized(&std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()));
    let mut level = Level::default();
    for (folder, stat) in &folders {
        let manifest = Manifest {
            dir: level_fd.as_fd(),
            absolute: &absolute,
            stat: stat.as_ref(),
        };
        let (hook, declared) = load_hook(folder, &manifest, scope, only, warnings);
        level.declared.push(declared);
        level.hooks.extend(hook);
    }
    let priority = |hook: &HookSpec| hook.agent().map_or(0, |agent| agent.priority);
    level.hooks.sort_by(|a, b| {
        priority(b)
            .cmp(&priority(a))
            .then_with(|| a.name.cmp(&b.name))
    });
    level
}

fn warning(file: &Path, line: Option<u64>, kind: WarningKind, message: String) -> Warning {
    Warning {
        kind,
        origin: Origin {
            file: file.to_path_buf(),
            line,
        },
        message,
    }
}

/// Where a folder's HOOK.md is read from: the open hooks folder, and its stat from the walk.
struct Manifest<'a> {
    dir: std::os::fd::BorrowedFd<'a>,
    /// The hooks folder, absolute and normalised.
    absolute: &'a Path,
    stat: Option<&'a rustix::fs::Stat>,
}

/// Reads one hook folder: the hook (`None` when it is skipped, with a warning, or filtered out)
/// and what the folder declares.
fn load_hook(
    folder: &Path,
    manifest: &Manifest<'_>,
    scope: Scope,
    only: Option<Event>,
    warnings: &mut Vec<Warning>,
) -> (Option<HookSpec>, Declared) {
    let file = folder.join("HOOK.md");
    // A folder name from the listing has no `.` or `..` in it: the level's absolute form, taken
    // once, and the name make the folder's.
    let folder = folder
        .file_name()
        .map_or_else(|| folder.to_path_buf(), |name| manifest.absolute.join(name));
    let folder_name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut declared = Declared {
        name: folder_name.clone(),
        file: file.clone(),
        event: None,
        loaded: false,
    };
    let mut reader = Reader {
        file: &file,
        warnings,
    };
    if folder.to_str().is_none() {
        // The allowlist (JSON) and the command line cannot name such a path exactly.
        reader.skip(
            None,
            "its path is not valid UTF-8, so it can be neither approved nor run exactly",
        );
        return (None, declared);
    }
    let relative = Path::new(folder_name.as_str()).join("HOOK.md");
    let read = crate::limits::read_in(
        manifest.dir,
        &relative,
        manifest.stat,
        crate::limits::MANIFEST_MAX,
    );
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(err) => {
            reader.skip(None, &format!("cannot read it: {err}"));
            return (None, declared);
        }
    };
    let manifest_sha256: std::sync::Arc<str> = {
        use sha2::Digest as _;
        crate::digest::hex(&sha2::Sha256::digest(&bytes)).into()
    };
    let mut bytes = bytes;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    let text = String::from_utf8(bytes)
        .unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned());
    let Some(yaml) = reader.frontmatter(&text) else {
        return (None, declared);
    };
    // Loading one event: a hook whose plain trigger line names another needs no parse.
    if let Some(only) = only
        && let Some(seen) = super::glance::glance(yaml)
        && seen.event != only
    {
        declared.event = Some(seen.event);
        if let Some(name) = seen.name {
            name.clone_into(&mut declared.name);
        }
        return (None, declared);
    }
    let Some(raw) = reader.parse(yaml) else {
        return (None, declared);
    };
    if let Some(Spanned {
        value: Loose::Str(name),
        ..
    }) = &raw.name
        && !name.trim().is_empty()
    {
        name.trim().clone_into(&mut declared.name);
    }
    let mut hook = reader.hook(raw, &folder, &folder_name, scope, only, &mut declared.event);
    if let Some(Source::AgentHooks(agent)) = hook.as_mut().map(|hook| &mut hook.source) {
        agent.manifest_sha256 = Some(manifest_sha256);
    }
    declared.loaded = hook.is_some();
    (hook, declared)
}

struct Reader<'a> {
    file: &'a Path,
    warnings: &'a mut Vec<Warning>,
}

impl Reader<'_> {
    fn soft(&mut self, line: u64, message: String) {
        self.warnings.push(warning(
            self.file,
            Some(line),
            WarningKind::InvalidValue,
            message,
        ));
    }

    fn skip(&mut self, line: Option<u64>, message: &str) {
        self.warnings.push(warning(
            self.file,
            line,
            WarningKind::SkippedEntry,
            format!("{message}; the hook is skipped"),
        ));
    }

    /// The frontmatter text, or a skip warning.
    fn frontmatter<'t>(&mut self, text: &'t str) -> Option<&'t str> {
        match yaml::frontmatter(text) {
            Ok(yaml) => Some(yaml),
            Err(NoFrontmatter::Missing) => {
                self.skip(
                    Some(1),
                    "no YAML frontmatter: HOOK.md must start with a '---' line",
                );
                None
            }
            Err(NoFrontmatter::Unclosed) => {
                self.skip(
                    Some(1),
                    "the frontmatter never closes: no second '---' line",
                );
                None
            }
        }
    }

    fn parse(&mut self, text: &str) -> Option<RawHookMd> {
        match yaml::parse::<Option<RawHookMd>>(text) {
            Ok(Some(raw)) => Some(raw),
            Ok(None) => {
                self.skip(
                    Some(2),
                    "the frontmatter is empty (it needs at least a trigger)",
                );
                None
            }
            Err(err) => {
                // The frontmatter starts on the file's second line.
                let line = err
                    .at
                    .map(|(line, _)| u64::try_from(line).unwrap_or(u64::MAX).saturating_add(1));
                self.skip(
                    line,
                    &format!("the frontmatter is not valid YAML: {}", err.message),
                );
                None
            }
        }
    }

    fn hook(
        &mut self,
        raw: RawHookMd,
        folder: &Path,
        folder_name: &str,
        scope: Scope,
        only: Option<Event>,
        declared_event: &mut Option<Event>,
    ) -> Option<HookSpec> {
        let line = |spanned: &Spanned<Loose>| spanned.referenced.line() + 1;
        let Some(trigger) = raw.trigger else {
            self.skip(Some(1), "no trigger: name the event that runs this hook (for example `trigger: pre-tool-call`)");
            return None;
        };
        let Loose::Str(trigger_name) = &trigger.value else {
            self.skip(
                Some(line(&trigger)),
                &format!("trigger must be an event name, not {}", trigger.value),
            );
            return None;
        };
        let resolved = match Event::parse(trigger_name.trim()) {
            Ok(resolved) => resolved,
            Err(unknown) => {
                self.skip(Some(line(&trigger)), &format!("trigger: {unknown}"));
                return None;
            }
        };
        let event = resolved.event;
        *declared_event = Some(event);
        if only.is_some_and(|only| only != event) {
            return None;
        }
        if let Some(current) = resolved.legacy_for {
            self.warnings.push(warning(
                self.file,
                Some(line(&trigger)),
                WarningKind::LegacyName,
                format!("trigger '{trigger_name}' is a legacy event name; use '{current}'"),
            ));
        } else if resolved.claude_code {
            self.warnings.push(warning(
                self.file,
                Some(line(&trigger)),
                WarningKind::ForeignName,
                format!(
                    "trigger '{trigger_name}' is Claude Code's name; other Agent Hooks runners \
                     know it as '{}'",
                    resolved.agent_name()
                ),
            ));
        }
        let name = self.name(raw.name.as_ref(), folder_name)?;
        let description = self.description(raw.description.as_ref());
        self.metadata(raw.metadata.as_ref());
        let timeout = self.timeout(raw.timeout.as_ref());
        let priority = self.priority(raw.priority.as_ref());
        let run_async = self.flag(raw.run_async.as_ref(), "async");
        let mut fail_closed = self.flag(raw.fail_closed.as_ref(), "fail_closed");
        if fail_closed
            && !event
                .effects(SourceKind::AgentHooks)
                .contains(Effects::BLOCK)
        {
            self.soft(
                1,
                format!("fail_closed is ignored: a hook cannot block on {event}"),
            );
            fail_closed = false;
        }
        let (matcher, pattern) = self.matchers(raw.matcher.as_ref(), event);
        let (entry, argv) = entry_of(folder);
        let origin = Origin {
            file: self.file.to_path_buf(),
            line: Some(1),
        };
        let command = entry.to_string_lossy().into_owned();
        let source = Source::AgentHooks(AgentHook {
            entry,
            argv,
            pattern,
            run_async,
            on_failure: resolved.is_failure(),
            scope,
            priority,
            description,
            manifest_sha256: None,
            stand_in: None,
        });
        Some(HookSpec {
            matcher,
            timeout,
            fail_closed,
            ..HookSpec::new(event, source, name, command, origin)
        })
    }

    /// The hook's name: the one declared, else its folder's. `None` (skipped, with the reason)
    /// for a name that begins with `-`.
    fn name(&mut self, raw: Option<&Spanned<Loose>>, folder_name: &str) -> Option<String> {
        let Some((Loose::Str(name), at)) = raw.map(|r| (&r.value, r.referenced)) else {
            let line = raw.map_or(1, |r| r.referenced.line() + 1);
            if self.flag_like(line, folder_name) {
                return None;
            }
            let problem = match raw {
                Some(Spanned { value, .. }) if !matches!(value, Loose::Null) => {
                    format!("name must be a string of 1 to 64 characters (got {value})")
                }
                _ => "no name".to_owned(),
            };
            self.soft(
                line,
                format!("{problem}; using the folder name '{folder_name}'"),
            );
            return Some(folder_name.to_owned());
        };
        let line = at.line() + 1;
        let name = name.trim();
        if self.flag_like(line, if name.is_empty() { folder_name } else { name }) {
            return None;
        }
        if name.is_empty() || name.chars().count() > 64 {
            self.soft(line, "name must be 1 to 64 characters".to_owned());
        } else if !super::glance::is_spec_name(name) {
            self.soft(
                line,
                format!("name '{name}' should be lowercase letters, digits and single hyphens"),
            );
        } else if name != folder_name {
            self.soft(
                line,
                format!("name '{name}' should equal its folder name '{folder_name}'"),
            );
        }
        Some(if name.is_empty() {
            folder_name.to_owned()
        } else {
            name.to_owned()
        })
    }

    /// Skips a hook whose name begins with `-`: on a command line it reads as an option, and
    /// `approve --yes` (offered by completion, or typed) approves every hook.
    fn flag_like(&mut self, line: u64, name: &str) -> bool {
        if !name.starts_with('-') {
            return false;
        }
        self.skip(
            Some(line),
            &format!(
                "the name '{name}' begins with '-', so `approve` and `revoke` would read it as an \
                 option (`approve --yes` approves every hook); give the hook a name that begins \
                 with a letter or digit (and its folder the same name)"
            ),
        );
        true
    }

    /// The description, when it is one (1 to 1024 characters, trimmed); a warning otherwise.
    fn description(&mut self, raw: Option<&Spanned<Loose>>) -> Option<String> {
        match raw {
            Some(Spanned {
                value: Loose::Str(text),
                referenced,
                ..
            }) => {
                let chars = text.trim().chars().count();
                if chars == 0 || chars > 1024 {
                    self.soft(
                        referenced.line() + 1,
                        "description must be 1 to 1024 characters".to_owned(),
                    );
                    return None;
                }
                return Some(text.trim().to_owned());
            }
            Some(Spanned {
                value, referenced, ..
            }) if !matches!(value, Loose::Null) => self.soft(
                referenced.line() + 1,
                format!("description must be a string of 1 to 1024 characters (got {value})"),
            ),
            _ => self.soft(
                1,
                "no description: say what the hook does (1 to 1024 characters)".to_owned(),
            ),
        }
        None
    }

    /// `metadata`: a mapping of strings to strings (the spec's "additional metadata"), which this
    /// tool keeps out of the way. Anything else is a warning naming the line; the hook still
    /// loads.
    fn metadata(&mut self, raw: Option<&Spanned<Metadata>>) {
        let Some(raw) = raw else { return };
        match &raw.value {
            Metadata::Map(entries) => {
                for (key, value) in entries {
                    if !matches!(value.value, Loose::Str(_)) {
                        self.soft(
                            value.referenced.line() + 1,
                            format!(
                                "metadata.{key} must be a string (got {}); quote it",
                                value.value
                            ),
                        );
                    }
                }
            }
            Metadata::Other(Loose::Null) => {}
            Metadata::Other(other) => self.soft(
                raw.referenced.line() + 1,
                format!(
                    "metadata must be a mapping of names to strings, not a {}; it is ignored",
                    other.type_name()
                ),
            ),
        }
    }

    fn timeout(&mut self, raw: Option<&Spanned<Loose>>) -> Duration {
        let Some(raw) = raw else {
            return Duration::from_millis(DEFAULT_TIMEOUT_MS);
        };
        let line = raw.referenced.line() + 1;
        let Some(ms) = raw.value.as_python_int() else {
            self.soft(
                line,
                format!(
                    "timeout must be milliseconds (got {}); using {DEFAULT_TIMEOUT_MS}",
                    raw.value
                ),
            );
            return Duration::from_millis(DEFAULT_TIMEOUT_MS);
        };
        let clamped = ms.clamp(
            i64::try_from(MIN_TIMEOUT_MS).unwrap_or(100),
            i64::try_from(MAX_TIMEOUT_MS).unwrap_or(600_000),
        );
        if clamped != ms {
            self.warnings.push(warning(
                self.file,
                Some(line),
                WarningKind::ClampedTimeout,
                format!("timeout {ms} ms is outside {MIN_TIMEOUT_MS}..{MAX_TIMEOUT_MS}; using {clamped} ms"),
            ));
        }
        Duration::from_millis(clamped.unsigned_abs())
    }

    fn priority(&mut self, raw: Option<&Spanned<Loose>>) -> u16 {
        let Some(raw) = raw else {
            return DEFAULT_PRIORITY;
        };
        let line = raw.referenced.line() + 1;
        let Some(value) = raw.value.as_python_int() else {
            self.soft(
                line,
                format!(
                    "priority must be a number (got {}); using {DEFAULT_PRIORITY}",
                    raw.value
                ),
            );
            return DEFAULT_PRIORITY;
        };
        let clamped = value.clamp(0, i64::from(MAX_PRIORITY));
        if clamped != value {
            self.soft(
                line,
                format!("priority {value} is outside 0..{MAX_PRIORITY}; using {clamped}"),
            );
        }
        u16::try_from(clamped).unwrap_or(DEFAULT_PRIORITY)
    }

    fn flag(&mut self, raw: Option<&Spanned<Loose>>, key: &str) -> bool {
        match raw.map(|r| &r.value) {
            None => false,
            Some(Loose::Bool(value)) => *value,
            Some(other) => {
                let line = raw.map_or(1, |r| r.referenced.line() + 1);
                self.soft(
                    line,
                    format!("{key} must be true or false (got {other}); using false"),
                );
                false
            }
        }
    }

    fn matchers(
        &mut self,
        raw: Option<&Spanned<Loose>>,
        event: Event,
    ) -> (Option<Matcher>, Option<Matcher>) {
        let Some(raw) = raw else { return (None, None) };
        let line = raw.referenced.line() + 1;
        let (tool, pattern) = match &raw.value {
            Loose::Null => (None, None),
            map @ Loose::Map(_) => (map.get("tool"), map.get("pattern")),
            other => {
                let kind = other.type_name();
                self.warnings.push(warning(self.file, Some(line), WarningKind::IgnoredMatcher, format!("matcher must be a mapping with tool and/or pattern, not a {kind}; ignoring it")));
                return (None, None);
            }
        };
        if (tool.is_some() || pattern.is_some()) && !event.is_tool_event() {
            self.warnings.push(warning(self.file, Some(line), WarningKind::IgnoredMatcher, format!("matcher is ignored: it applies only to tool events; the hook runs on every {event} event")));
            return (None, None);
        }
        let mut compile = |raw: Option<&Loose>, key: &str, search: bool| -> Option<Matcher> {
            let text = match raw {
                None | Some(Loose::Null) => return None,
                Some(Loose::Str(text)) if !text.trim().is_empty() => text.trim(),
                Some(other) => {
                    self.warnings.push(warning(
                        self.file,
                        Some(line),
                        WarningKind::IgnoredMatcher,
                        format!("matcher.{key} must be a regex string (got {other}); ignoring it"),
                    ));
                    return None;
                }
            };
            let (matcher, invalid) = if search {
                Matcher::compile_search(text)
            } else {
                Matcher::compile(text)
            };
            if let Some(reason) = invalid {
                let fallback = if search {
                    "substring search"
                } else {
                    "literal equality"
                };
                self.warnings.push(warning(
                    self.file,
                    Some(line),
                    WarningKind::LiteralMatcher,
                    format!(
                        "matcher.{key} '{text}' is not a valid regex ({reason}); using {fallback}"
                    ),
                ));
            }
            Some(matcher)
        };
        (
            compile(tool, "tool", false),
            compile(pattern, "pattern", true),
        )
    }
}

/// What to say of a hook folder that has no entry script at all, naming the files it may have.
pub(crate) fn no_entry(folder: &Path) -> String {
    format!(
        "{} has no entry script: add scripts/run (executable), scripts/run.sh or scripts/run.py",
        folder.display()
    )
}

/// The entry script and the argv that runs it: `scripts/run`, `run.sh` or `run.py`, the first
/// that exists in any form. With its exec bit it runs directly; without, `run.sh` runs through
/// `sh` and `run.py` through `python3`. No entry at all gives `scripts/run` (which then fails to
/// start). An entry that is not a regular file is still the entry: consent refuses it, with a
/// message saying what it is, rather than quietly running the next one.
pub(crate) fn entry_of(folder: &Path) -> (PathBuf, Vec<String>) {
    let scripts = folder.join("scripts");
    for name in ENTRIES {
        let path = scripts.join(name);
        if fs::symlink_metadata(&path).is_err() {
            continue;
        }
        let text = path.to_string_lossy().into_owned();
        let Ok(meta) = fs::metadata(&path) else {
            return (path, vec![text]);
        };
        let argv = match (
            meta.is_file() && meta.permissions().mode() & 0o111 != 0,
            name,
        ) {
            (false, "run.sh") => vec!["sh".to_owned(), text],
            (false, "run.py") => vec!["python3".to_owned(), text],
            _ => vec![text],
        };
        return (path, argv);
    }
    let path = scripts.join(ENTRIES[0]);
    let text = path.to_string_lossy().into_owned();
    (path, vec![text])
}

/// The frontmatter keys this tool reads; others are ignored.
#[derive(Deserialize)]
struct RawHookMd {
    #[serde(default)]
    name: Option<Spanned<Loose>>,
    #[serde(default)]
    description: Option<Spanned<Loose>>,
    #[serde(default)]
    trigger: Option<Spanned<Loose>>,
    #[serde(default)]
    matcher: Option<Spanned<Loose>>,
    #[serde(default)]
    timeout: Option<Spanned<Loose>>,
    #[serde(default, rename = "async")]
    run_async: Option<Spanned<Loose>>,
    #[serde(default)]
    priority: Option<Spanned<Loose>>,
    #[serde(default)]
    fail_closed: Option<Spanned<Loose>>,
    #[serde(default)]
    metadata: Option<Spanned<Metadata>>,
}

/// The frontmatter's `metadata`: its entries, each value with its place, or what it is instead
/// of a mapping.
enum Metadata {
    /// A mapping: each key (as text) with its value.
    Map(Vec<(String, Spanned<Loose>)>),
    /// Not a mapping.
    Other(Loose),
}

impl<'de> Deserialize<'de> for Metadata {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(MetadataVisitor)
    }
}

struct MetadataVisitor;

impl<'de> serde::de::Visitor<'de> for MetadataVisitor {
    type Value = Metadata;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a mapping of names to strings")
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Metadata, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Loose>()? {
            let value = map.next_value::<Spanned<Loose>>()?;
            let key = match key {
                Loose::Str(key) => key,
                other => other.to_string(),
            };
            entries.push((key, value));
        }
        Ok(Metadata::Map(entries))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Metadata, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Metadata::Other(Loose::List))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Null))
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Null))
    }
    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Bool(value)))
    }
    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Int(value)))
    }
    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Int(
            i64::try_from(value).unwrap_or(i64::MAX),
        )))
    }
    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Float(value)))
    }
    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Metadata, E> {
        Ok(Metadata::Other(Loose::Str(value.to_owned())))
    }
}
