//! The guard guards itself (SPEC 13): while any guard is approved, a model's shell, edit and
//! write calls that would change the guard's own files (its hooks and rules, the allowlist, the
//! memos, the agents' wiring, the plugin, the binary) or run what only a person may run
//! (`hermes-hooks approve`, `--accept-hooks`) are blocked before any rule or hook is asked.
//! Reading them stays allowed. Commands are read as the shell reads them (`crate::shell`).
//!
//! What a command does to a path is told from its program (`acts`): removing or moving it with
//! all it holds, or writing it; a program not known to only read may write what it names. A
//! path the shell expands (a glob, a brace list, a variable) is matched as the shell would
//! expand it (`patterns`). docs/security.md lists what this does not see.

use std::path::{Path, PathBuf};

use crate::consent::store::Allowlist;
use crate::engine::payload::Invocation;
use crate::shell::Command;
use acts::{Act, acts};
use patterns::{Pattern, Target};
use person_only::{person_only, raw_text_person_only, runs_ours_inside};

mod acts;
mod git_index;
mod patterns;
mod person_only;
mod programs;

/// What the model reads when a call is kept from the guard's files.
pub(crate) const MODEL_MESSAGE: &str = "hermes-hooks blocked this call: it would change the \
    guard's own files or approvals (its hooks, rules, allowlist, memos or an agent's wiring), \
    which are the person's to change. Reading them is fine; ask the person to make this change.";

/// The places the guard's state lives, known before the call is read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Places {
    /// The Hermes home.
    pub home: PathBuf,
    /// config.yaml, and the managed one when there is one.
    pub configs: Vec<PathBuf>,
    /// The allowlist.
    pub allowlist: PathBuf,
    /// Hook folders: the user's, the project's and nested ones.
    pub hook_folders: Vec<PathBuf>,
    /// Rules files: the user's and the project's.
    pub rules_files: Vec<PathBuf>,
    /// The project root, whose agents' settings are wiring.
    pub project: Option<PathBuf>,
    /// The audit log, when one was named.
    pub audit_log: Option<PathBuf>,
}

/// A path the guard's state is, and how it is matched.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Own {
    path: PathBuf,
    /// Any file in the same folder whose name starts with this one's (the allowlist's lock and
    /// copies).
    prefix: bool,
}

/// Why a call was kept from the guard's files: for the person, once per session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Kept {
    /// What the call would have done, in words (`rm -f .agents/rules.yaml` would remove
    /// `/p/.agents/rules.yaml`).
    pub what: String,
    /// The call sweeps the guard away with far more (`rm -rf /`, `rm -rf ~`, the project
    /// itself): the rules and hooks answer first, with their own words, and only a call they
    /// let through is blocked here.
    pub sweeping: bool,
}

/// One path a call would act on.
struct Touch {
    path: PathBuf,
    act: Act,
    /// The command, in words, or "an edit".
    by: String,
    /// The names a `find` keeps to (`-name`), when it keeps to some.
    names: Option<Vec<(String, bool)>>,
    /// A git pathspec, which git itself expands, quoted or not.
    pathspec: bool,
}

/// The call's effect on the guard's state, when it has one: `None` lets it go on to the rules
/// and hooks. Without `sweeping`, a delete that sweeps the guard away with far more is not
/// looked into: it comes back as a [`Kept`] that only says so (`sweeping`, no words), to be
/// checked with `sweeping` once the rules and hooks let it through.
pub(crate) fn check(
    invocation: &Invocation,
    places: &Places,
    home: Option<&Path>,
    approved: impl FnOnce() -> Option<Vec<PathBuf>>,
    real_folder: &mut dyn FnMut(&Path) -> std::io::Result<PathBuf>,
    sweeping: bool,
) -> Option<Kept> {
    // A delete that sweeps the guard away with far more (the home folder, the project or a
    // folder above them) is left to the rules and hooks first: nothing is read for it now.
    let broad = |path: &Path, act: Act| {
        act == Act::Whole
            && home
                .into_iter()
                .chain(places.project.as_deref())
                .any(|top| match patterns::target(path) {
                    Target::Path(path) => top.starts_with(crate::ground::paths::normalized(&path)),
                    Target::Pattern(pattern) => {
                        let reach = pattern.reach(top);
                        reach.same || reach.above
                    }
                })
    };
    let input = invocation.tool_input.as_ref();
    let mut touched: Vec<Touch> = Vec::new();
    let mut person = None;
    match invocation.tool_class {
        Some("shell") => {
            let reading = crate::engine::rules::commands(invocation, input, home)?;
            shell_touches(&reading.commands, home, &broad, &mut touched, &mut person);
            if let Some(why) = raw_text_person_only(input) {
                person.get_or_insert(why);
            }
        }
        Some("edit" | "write") => {
            for path in crate::engine::rules::call_paths(invocation) {
                touched.push(Touch {
                    path: PathBuf::from(path),
                    act: Act::Write,
                    by: "an edit".to_owned(),
                    names: None,
                    pathspec: false,
                });
            }
        }
        _ => return None,
    }
    let swept = touched.iter().any(|t| broad(&t.path, t.act));
    if !sweeping {
        touched.retain(|t| !broad(&t.path, t.act));
    }
    if touched.is_empty() && person.is_none() {
        return swept.then(|| Kept {
            what: String::new(),
            sweeping: true,
        });
    }
    // Only now is anything read from the disk: the approvals, and where each path really is.
    let scripts = approved()?;
    if let Some(what) = person {
        return Some(Kept {
            what,
            sweeping: false,
        });
    }
    let own = own_paths(places, home, &scripts, real_folder);
    let mut real_of = each_once();
    let mut hits: Vec<(PathBuf, Act, String, PathBuf, bool)> = touched
        .into_iter()
        .filter_map(|t| {
            let hit = if t.pathspec
                && let Some(hit) = pathspec_reached(&t.path, t.act, &own)
            {
                hit
            } else {
                reached(&t.path, t.act, &own, t.names.as_deref(), &mut real_of)?
            };
            let sweeping = broad(&t.path, t.act);
            Some((t.path, t.act, t.by, hit.path.clone(), sweeping))
        })
        .collect();
    // Asked again once the rules let a sweeping call through: it is kept only where a guard's
    // file is really there under what it sweeps away.
    if hits.is_empty() {
        return (swept && !sweeping).then(|| Kept {
            what: String::new(),
            sweeping: true,
        });
    }
    hits.sort_by_key(|hit| hit.4);
    hits.into_iter()
        .next()
        .map(|(path, act, by, hit, sweeping)| Kept {
            sweeping,
            what: format!(
                "{by} would {} {} ({})",
                match act {
                    Act::Whole => "remove, move or change",
                    Act::Write => "write",
                    Act::Discard { .. } => "put back or take away what changed in",
                },
                path.display(),
                if hit == path {
                    "the guard's own file".to_owned()
                } else {
                    format!("the guard's {}", hit.display())
                }
            ),
        })
}

/// Where a path really is ([`crate::ground::paths::real_or_planned`]), each path a line names
/// more than once looked up once.
fn each_once() -> impl FnMut(&Path) -> Option<PathBuf> {
    let mut looked: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    move |named: &Path| {
        if let Some((_, real)) = looked.iter().find(|(path, _)| path == named) {
            return real.clone();
        }
        let real = crate::ground::paths::real_or_planned(named);
        looked.push((named.to_path_buf(), real.clone()));
        real
    }
}

/// The settings file where a person turns this off: `<hermes home>/hermes-hooks/settings.yaml`.
pub(crate) const SETTINGS_FILE: &str = "settings.yaml";

/// The approved scripts, when any guard is approved in `list` (the allowlist as the call's
/// consent reads it) and the person did not turn this off (`self_protection: false` in the
/// settings file); else `None`, and the call goes on.
pub(crate) fn guarded(places: &Places, list: &Allowlist) -> Option<Vec<PathBuf>> {
    if !switched_on(&places.home.join("hermes-hooks").join(SETTINGS_FILE)) {
        return None;
    }
    let mut any = false;
    let scripts = list
        .entries()
        .inspect(|_| any = true)
        .filter_map(|entry| entry.get("script")?.as_str().map(PathBuf::from))
        .collect();
    any.then_some(scripts)
}

/// Whether the settings file at `path` leaves this on: it does unless it says
/// `self_protection: false` (a file that cannot be read leaves it on).
fn switched_on(path: &Path) -> bool {
    #[derive(serde::Deserialize)]
    struct Settings {
        #[serde(default)]
        self_protection: Option<bool>,
    }
    let Ok(bytes) = crate::ground::limits::read(path, crate::ground::limits::CONFIG_MAX) else {
        return true;
    };
    let text = String::from_utf8_lossy(&bytes);
    crate::config::yaml::parse::<Option<Settings>>(&text)
        .ok()
        .flatten()
        .and_then(|settings| settings.self_protection)
        .unwrap_or(true)
}

/// The guard's own paths: `places`, each wired agent's settings, the approved scripts, the
/// memos, the plugin and this binary; each as named and, where it exists, as it really is.
fn own_paths(
    places: &Places,
    home: Option<&Path>,
    scripts: &[PathBuf],
    real_folder: &mut dyn FnMut(&Path) -> std::io::Result<PathBuf>,
) -> std::sync::Arc<Vec<Own>> {
    type Kept = (
        Places,
        Option<PathBuf>,
        Vec<PathBuf>,
        std::sync::Arc<Vec<Own>>,
    );
    // A process that answers many calls keeps the list for the same places and approvals
    // (only the links below are looked at again on every call).
    static KEPT: std::sync::Mutex<Option<Kept>> = std::sync::Mutex::new(None);
    let kept = KEPT.lock().ok().and_then(|kept| {
        kept.as_ref()
            .filter(|(p, h, s, _)| p == places && h.as_deref() == home && s == scripts)
            .map(|(_, _, _, own)| std::sync::Arc::clone(own))
    });
    let own = kept.unwrap_or_else(|| {
        let own = std::sync::Arc::new(named_own_paths(places, home, scripts));
        if let Ok(mut kept) = KEPT.lock() {
            *kept = Some((
                places.clone(),
                home.map(Path::to_path_buf),
                scripts.to_vec(),
                std::sync::Arc::clone(&own),
            ));
        }
        own
    });
    // Where a folder the guard's files live under is reached through a link, the files are
    // also known by where they really are: one look per folder, not per file. The deepest
    // first: a folder found where it is named has no link on its way, nor has any folder
    // above it, which is then not looked at.
    let mut roots: Vec<PathBuf> = std::iter::once(places.home.clone())
        .chain(home.map(Path::to_path_buf))
        .chain(places.project.clone())
        .chain(crate::ground::paths::cache_dir())
        .chain(places.hook_folders.iter().cloned())
        .map(|root| crate::ground::paths::normalized(&root))
        .collect();
    roots.sort_by_key(|root| std::cmp::Reverse(root.as_os_str().len()));
    roots.dedup();
    let mut plain: Vec<&Path> = Vec::new();
    let mut aliases = Vec::new();
    for root in &roots {
        if root.is_absolute() && plain.iter().any(|below| within(below, root)) {
            continue;
        }
        let Ok(real) = real_folder(root) else {
            continue;
        };
        if &real == root {
            plain.push(root);
            continue;
        }
        for entry in own.iter() {
            if within(&entry.path, root) {
                let rest = &entry.path.as_os_str().as_encoded_bytes()
                    [root.as_os_str().len().min(entry.path.as_os_str().len())..];
                let rest = String::from_utf8_lossy(rest);
                aliases.push(Own {
                    path: real.join(rest.trim_start_matches('/')),
                    prefix: entry.prefix,
                });
            }
        }
    }
    if aliases.is_empty() {
        return own;
    }
    let mut all = Vec::clone(&own);
    all.extend(aliases);
    std::sync::Arc::new(all)
}

/// The guard's own paths as they are named (normalised), before any link is followed.
fn named_own_paths(places: &Places, home: Option<&Path>, scripts: &[PathBuf]) -> Vec<Own> {
    let whole = |path: PathBuf| Own {
        path,
        prefix: false,
    };
    let mut own = vec![
        Own {
            path: places.allowlist.clone(),
            prefix: true,
        },
        whole(places.home.join("hermes-hooks")),
        whole(places.home.join(crate::engine::stopped_guards::STATE_FILE)),
        whole(places.home.join(crate::engine::loop_guard::STATE_FILE)),
        whole(crate::agents::plugin_folder(&places.home)),
    ];
    own.extend(places.configs.iter().cloned().map(whole));
    own.extend(places.hook_folders.iter().cloned().map(whole));
    own.extend(places.rules_files.iter().cloned().map(whole));
    own.extend(places.audit_log.iter().cloned().map(whole));
    own.extend(scripts.iter().cloned().map(whole));
    if let Some(cache) = crate::ground::paths::cache_dir() {
        own.push(whole(cache.join("hermes-hooks")));
    }
    // The key the memos are checked with.
    own.extend(crate::config::memo_key_path().map(whole));
    own.extend(
        crate::agents::wiring_files(places.project.as_deref(), home)
            .into_iter()
            .map(whole),
    );
    if let Ok(binary) = std::env::current_exe() {
        own.push(whole(binary));
    }
    for entry in &mut own {
        entry.path = crate::ground::paths::normalized(&entry.path);
    }
    own
}

/// Whether `path` is `top` or inside it; both normalised, so compared as bytes (a component
/// at a time would cost far more, for every path a call names against every guard's path).
fn within(path: &Path, top: &Path) -> bool {
    let path = path.as_os_str().as_encoded_bytes();
    let top = top.as_os_str().as_encoded_bytes();
    path.starts_with(top)
        && (path.len() == top.len() || path.get(top.len()) == Some(&b'/') || top.ends_with(b"/"))
}

/// Whether `act` on a path (its `forms`: as named, and as it really is) reaches `own`.
fn overlaps(forms: &[PathBuf], act: Act, own: &Own) -> bool {
    forms.iter().map(PathBuf::as_path).any(|path| {
        let inside = within(path, &own.path);
        // A folder taken away with all it holds reaches only a guard's file that is there.
        let above = act == Act::Whole
            && within(&own.path, path)
            && std::fs::symlink_metadata(&own.path).is_ok();
        let copy = own.prefix
            && path.parent() == own.path.parent()
            && path
                .file_name()
                .zip(own.path.file_name())
                .is_some_and(|(name, own)| {
                    name.as_encoded_bytes().starts_with(own.as_encoded_bytes())
                });
        inside || above || copy
    })
}

/// What each command of a shell call would do to which paths, and the first command only a
/// person may run; `broad` tells a path whose removal sweeps the guard away with far more.
fn shell_touches(
    commands: &[Command],
    home: Option<&Path>,
    broad: &dyn Fn(&Path, Act) -> bool,
    touched: &mut Vec<Touch>,
    person: &mut Option<String>,
) {
    // The symbolic links the line has made so far, each where it is and where it points: what
    // is done through one later on the line is done there too (`ln -s ~/.hermes x && cp y
    // x/config.yaml`).
    let mut links: Vec<(PathBuf, PathBuf)> = Vec::new();
    for command in commands {
        let first = touched.len();
        if let Some(why) = person_only(command).or_else(|| runs_ours_inside(command)) {
            person.get_or_insert_with(|| format!("`{}` {why}", command.line));
        }
        let names = acts::find_names(command);
        for (path, act) in acts(command) {
            // What `find` found under a starting point, handed on (`find DIR | xargs
            // rm`, `-exec rm {} +`): anything under it that find's names keep.
            if let Some(start) = found_under(&path) {
                let names = finds_names(commands, start);
                touched.push(Touch {
                    path: start.to_path_buf(),
                    act: Act::Whole,
                    by: command.line.clone(),
                    names,
                    pathspec: false,
                });
                continue;
            }
            touched.push(Touch {
                path,
                act,
                by: command.line.clone(),
                names: names.clone(),
                pathspec: command.program == "git",
            });
        }
        for path in acts::named_in_code(command, home) {
            let act = if broad(&path, Act::Whole) {
                Act::Write
            } else {
                Act::Whole
            };
            touched.push(Touch {
                path,
                act,
                by: command.line.clone(),
                names: None,
                pathspec: false,
            });
        }
        let through: Vec<Touch> = touched[first..]
            .iter()
            .flat_map(|touch| {
                links.iter().filter_map(|(link, target)| {
                    let rest = touch.path.strip_prefix(link).ok()?;
                    Some(Touch {
                        path: if rest.as_os_str().is_empty() {
                            target.clone()
                        } else {
                            target.join(rest)
                        },
                        act: touch.act,
                        by: touch.by.clone(),
                        names: touch.names.clone(),
                        pathspec: touch.pathspec,
                    })
                })
            })
            .collect();
        touched.extend(through);
        links.extend(acts::symlinks(command));
    }
}

/// The starting point a `find` placeholder stands under (`DIR/{}`: whatever find found in DIR).
fn found_under(path: &Path) -> Option<&Path> {
    (path.file_name()? == "{}").then(|| path.parent()).flatten()
}

/// The names kept by the `find` of the line that starts at `start` (`None`: any name, also
/// where no such find is on the line).
fn finds_names(commands: &[Command], start: &Path) -> Option<Vec<(String, bool)>> {
    commands
        .iter()
        .find(|c| {
            matches!(c.program.as_str(), "find" | "gfind" | "bfs")
                && c.paths.iter().any(|p| Path::new(p) == start)
        })
        .and_then(acts::find_names)
}

/// The first of `own` that `act` on `path` (as named, as it really is, or what it expands to)
/// reaches.
fn reached<'o>(
    path: &Path,
    act: Act,
    own: &'o [Own],
    find_names: Option<&[(String, bool)]>,
    real_of: &mut dyn FnMut(&Path) -> Option<PathBuf>,
) -> Option<&'o Own> {
    // Discarding work reaches what a removal would, where git would really change it.
    let (act, untracked) = match act {
        Act::Discard { untracked } => (Act::Whole, Some(untracked)),
        act => (act, None),
    };
    let named_so = |own: &Own| {
        find_names.is_none_or(|kept| acts::names_reach(kept, &own.path))
            && untracked.is_none_or(|untracked| git_index::at_risk(&own.path, untracked))
    };
    match patterns::target(path) {
        Target::Path(named) => {
            let named = crate::ground::paths::normalized(&named);
            let real = real_of(&named).filter(|real| *real != named);
            let forms: &[PathBuf] = match &real {
                Some(real) => &[named, real.clone()],
                None => std::slice::from_ref(&named),
            };
            own.iter()
                .find(|own| overlaps(forms, act, own) && named_so(own))
        }
        Target::Pattern(pattern) => {
            let real = pattern.real();
            own.iter().find(|own| {
                std::iter::once(&pattern)
                    .chain(real.as_ref())
                    .any(|pattern| pattern_overlaps(pattern, act, own))
                    && named_so(own)
            })
        }
    }
}

/// Whether `act` on what `pattern` expands to reaches `own`, as [`overlaps`] has it for a path.
fn pattern_overlaps(pattern: &Pattern, act: Act, own: &Own) -> bool {
    // What is written before the first expansion must lead to the guard's path or lie in it.
    let fixed = pattern.fixed();
    if !(within(&own.path, fixed) || within(fixed, &own.path)) {
        return false;
    }
    let reach = pattern.reach(&own.path);
    if reach.same || reach.inside {
        return true;
    }
    if act == Act::Whole && reach.above && std::fs::symlink_metadata(&own.path).is_ok() {
        return true;
    }
    own.prefix && pattern.ends_open() && copies(&own.path).any(|copy| pattern.reach(&copy).same)
}

/// The files beside `path` whose names start with its name (its lock and copies), as many as a
/// folder of the guard's state plausibly holds.
fn copies(path: &Path) -> impl Iterator<Item = PathBuf> {
    let name = path.file_name().map(|n| n.as_encoded_bytes().to_vec());
    let entries = path
        .parent()
        .and_then(|folder| std::fs::read_dir(folder).ok());
    entries
        .into_iter()
        .flatten()
        .take(10_000)
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(move |copy| {
            name.as_deref().is_some_and(|name| {
                copy.file_name()
                    .is_some_and(|c| c.as_encoded_bytes().starts_with(name))
            })
        })
}

/// The first of `own` that `act` reaches through a git pathspec as git reads it: git expands
/// `*`, `?` and `[...]` itself, quoted or not, and its `*` crosses folders (`git restore
/// '*.yaml'` puts back every such file below where it runs); a pathspec that matches a folder
/// reaches what is in it; magic (`:/`, `:(top)`, `:(icase)`, `:(glob)`, `:(literal)`) is read
/// for what it names, from the work tree's top where it says so. `None` when the pathspec is a
/// plain path, left to [`reached`].
fn pathspec_reached<'o>(path: &Path, act: Act, own: &'o [Own]) -> Option<&'o Own> {
    use std::path::Component;
    let text = path.to_str()?;
    // The glob characters the command quoted are git's all the same.
    let mut spec = text
        .replace("\\*", "*")
        .replace("\\?", "?")
        .replace("\\[", "[")
        .replace("\\]", "]");
    let (mut literal, mut fold) = (false, false);
    let parts: Vec<Component<'_>> = Path::new(text).components().collect();
    if let Some(at) = parts
        .iter()
        .position(|c| c.as_os_str().as_encoded_bytes().starts_with(b":"))
    {
        let base: PathBuf = parts[..at].iter().collect();
        let rest: PathBuf = parts[at..].iter().collect();
        let rest = rest
            .to_string_lossy()
            .replace("\\*", "*")
            .replace("\\?", "?")
            .replace("\\(", "(")
            .replace("\\)", ")");
        let (magic, named) = if let Some(inner) = rest.strip_prefix(":(") {
            inner.split_once(')').unwrap_or((inner, ""))
        } else if let Some(named) = rest.strip_prefix(":/") {
            ("top", named)
        } else if rest == ":" {
            ("top", "")
        } else {
            // `:!x`, `:^x`: an exclusion, which names nothing of its own.
            return None;
        };
        let words: Vec<&str> = magic.split(',').map(str::trim).collect();
        if words.iter().any(|w| matches!(*w, "exclude")) {
            return None;
        }
        literal = words.contains(&"literal");
        fold = words.contains(&"icase");
        let base = if words.contains(&"top") {
            acts::work_tree(&base)
        } else {
            base
        };
        spec = base
            .join(named.trim_start_matches('/'))
            .to_string_lossy()
            .into_owned();
    } else if !text.contains(['*', '?', '[']) {
        return None;
    }
    let glob = (!literal && spec.contains(['*', '?', '[']))
        .then(|| {
            globset::GlobBuilder::new(&spec)
                .literal_separator(false)
                .backslash_escape(true)
                .case_insensitive(fold)
                .build()
                .ok()
                .map(|glob| glob.compile_matcher())
        })
        .flatten();
    // A plain or literal pathspec names itself; one that cannot be read stands for all below
    // the folder written before it.
    let fixed: PathBuf = Path::new(&spec)
        .components()
        .take_while(|c| literal || !c.as_os_str().to_string_lossy().contains(['*', '?', '[']))
        .collect();
    let (act, untracked) = match act {
        Act::Discard { untracked } => (Act::Whole, Some(untracked)),
        act => (act, None),
    };
    let same = |a: &Path, b: &Path| {
        if fold {
            a.to_string_lossy().to_lowercase() == b.to_string_lossy().to_lowercase()
        } else {
            a == b
        }
    };
    own.iter().find(|own| {
        let named = match &glob {
            Some(glob) => own.path.ancestors().any(|p| glob.is_match(p)),
            None => own.path.ancestors().any(|p| same(p, &fixed)),
        };
        named
            && (act != Act::Whole || std::fs::symlink_metadata(&own.path).is_ok())
            && untracked.is_none_or(|untracked| git_index::at_risk(&own.path, untracked))
    })
}
