//! `new <name> --event E`: scaffold a hook that works as it is. An Agent Hooks folder (HOOK.md and
//! an executable `scripts/run`) in the project or at user level, or, with `--config`, a script in
//! `<hermes home>/agent-hooks/` and the `hooks:` entry to paste (config.yaml is never edited).
//! Nothing that exists is overwritten.

use std::fmt::Write as _;
use std::fs;
use std::io::{self, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use clap::{ArgGroup, Args};
use serde::Serialize;

use super::{GlobalArgs, shared};
use crate::authoring::scaffold::{Hook, Lang};
use crate::config::SourceKind;
use crate::config::glance::is_spec_name;
use crate::ground::exit::ExitStatus;
use crate::ground::paths;
use crate::matcher::Matcher;
use crate::output::{Printer, Screen};

// `Option<Option<_>>` is clap's way to spell a flag whose value may be left out.
#[allow(clippy::option_option)]
#[derive(Args, Debug)]
#[command(
    group(ArgGroup::new("scope").args(["project", "user", "config"])),
    after_help = "Without --user or --config the hook goes into the project: the one found from \
    the current directory, else the repository root, else the current directory ($HOME is never \
    a project). The script reads the payload, lets everything go on, and lists in its comments \
    every answer the event allows, in the Hermes and the Agent Hooks form."
)]
pub(crate) struct NewArgs {
    /// The hook's name: 1 to 64 lowercase letters, digits and single hyphens (it names the folder
    /// or the script)
    #[arg(required_unless_present = "rules")]
    name: Option<String>,
    /// The event it runs on: canonical, Agent Hooks or Claude Code name
    #[arg(
        long,
        value_name = "EVENT",
        value_parser = super::completions::EventName,
        hide_possible_values = true,
        required_unless_present = "rules"
    )]
    event: Option<String>,
    /// Write shipped rule packs into the user's rules file (<hermes home>/hermes-hooks/rules.yaml),
    /// or with --project into the project's .agents/rules.yaml, for review and approval: guards
    /// with no script. PACKS: one pack's name, several joined by commas, or `all`; with no value,
    /// the packs are listed
    #[arg(
        long,
        value_name = "PACKS",
        num_args = 0..=1,
        value_parser = super::new_rules::PackChoice,
        conflicts_with_all = ["name", "event", "matcher", "config"]
    )]
    rules: Option<Option<Vec<&'static str>>>,
    /// Run only for tools whose whole name matches this regex (tool events only)
    #[arg(long, value_name = "REGEX")]
    matcher: Option<String>,
    /// The script's language
    #[arg(long, value_enum, default_value_t = Lang::Sh)]
    lang: Lang,
    /// An Agent Hooks folder in <DIR>/.agents/hooks/ (the default; DIR: the project root)
    #[arg(long, value_name = "DIR", num_args = 0..=1)]
    project: Option<Option<PathBuf>>,
    /// An Agent Hooks folder at user level (--user-hooks, default ~/.config/agents/hooks)
    #[arg(long)]
    user: bool,
    /// A script in <hermes home>/agent-hooks/ and the hooks: entry to paste into FILE [default:
    /// <hermes home>/config.yaml]
    #[arg(long, value_name = "FILE", num_args = 0..=1)]
    config: Option<Option<PathBuf>>,
    /// Print one JSON document: what was written and what to do next
    #[arg(long)]
    json: bool,
}

impl NewArgs {
    /// Whether it writes a rules pack (`--rules`).
    pub(crate) const fn adds_rules(&self) -> bool {
        matches!(self.rules, Some(Some(_)))
    }
}

/// Where the hook goes.
enum Scope {
    Project(Option<PathBuf>),
    User,
    Config(Option<PathBuf>),
}

impl Scope {
    const fn as_str(&self) -> &'static str {
        match self {
            Self::Project(_) => "project",
            Self::User => "user",
            Self::Config(_) => "config",
        }
    }
}

/// `new --json`.
#[derive(Serialize)]
struct Made {
    scope: &'static str,
    name: String,
    /// The canonical event.
    event: &'static str,
    /// The name the hook's source declares it under (a HOOK.md trigger, a `hooks:` key).
    declared_as: &'static str,
    /// The files written, in order.
    files: Vec<String>,
    /// The `hooks:` entry to paste (config scope only).
    entry: Option<String>,
    /// The config file the entry is meant for (config scope only).
    config: Option<String>,
    /// The commands to run next.
    next: Vec<String>,
}

pub(crate) fn run(global: &GlobalArgs, args: &NewArgs, printer: &Printer) -> Result<ExitStatus> {
    if let Some(chosen) = &args.rules {
        let project = args.project.clone();
        return super::new_rules::run(global, chosen.as_deref(), project, args.json, printer);
    }
    let (Some(name), Some(event)) = (&args.name, &args.event) else {
        bail!("name the hook and its event (--event EVENT), or pick a rule pack with --rules");
    };
    let called = shared::event(event, printer)?;
    let scope = if args.user {
        Scope::User
    } else if let Some(file) = &args.config {
        Scope::Config(file.clone())
    } else {
        Scope::Project(args.project.clone().flatten())
    };
    let source = match scope {
        Scope::Config(_) => SourceKind::Config,
        _ => SourceKind::AgentHooks,
    };
    let hook = Hook {
        name,
        called,
        matcher: args.matcher.as_deref(),
        lang: args.lang,
        source,
    };
    check(&hook)?;
    let cwd = shared::current_dir()?;
    let made = write(global, &scope, &hook, &cwd, printer)?;
    if args.json {
        printer.document(&made)?;
    } else {
        printer.show(&human(&made, &cwd))?;
    }
    Ok(ExitStatus::Success)
}

/// Refuses a hook that could not work: a name that cannot name a folder, a matcher on an event
/// without a tool or that is no regex, a config hook Hermes would never run.
fn check(hook: &Hook<'_>) -> Result<()> {
    let name = hook.name;
    let event = hook.called.event;
    if name.chars().count() > 64 || !is_spec_name(name) {
        bail!(
            "'{name}' cannot name a hook: use 1 to 64 lowercase letters, digits and single \
             hyphens (for example block-force-push)"
        );
    }
    if let Some(pattern) = hook.matcher {
        if !event.is_tool_event() {
            bail!(
                "--matcher applies to tool events only (pre_tool_call, post_tool_call); \
                 {event} has no tool to match"
            );
        }
        if let (_, Some(problem)) = Matcher::compile(pattern) {
            bail!("--matcher {pattern:?}: {problem}");
        }
    }
    if hook.source == SourceKind::Config {
        if event.def().plugin_only {
            bail!("Hermes takes {event} from Python plugins only: a config hook cannot answer it");
        }
        if event.def().plugin_fired {
            bail!(
                "Hermes fires {event} for Python plugins only and runs no config hook for it: \
                 write this hook as an Agent Hooks folder (--project or --user), which \
                 `hermes-hooks run {event}` runs"
            );
        }
        if !event.is_hermes() {
            bail!(
                "Hermes never fires {event}: write this hook as an Agent Hooks folder (--project \
                 or --user)"
            );
        }
    }
    Ok(())
}

/// Writes the hook's files for `scope` and says what was made and what comes next.
fn write(
    global: &GlobalArgs,
    scope: &Scope,
    hook: &Hook<'_>,
    cwd: &Path,
    printer: &Printer,
) -> Result<Made> {
    let name = hook.name;
    let paths = global.paths()?;
    let mut made = Made {
        scope: scope.as_str(),
        name: name.to_owned(),
        event: hook.called.event.name(),
        declared_as: hook.event_name(),
        files: Vec::new(),
        entry: None,
        config: None,
        next: Vec::new(),
    };
    let approve_as = match scope {
        Scope::Config(file) => {
            let folder = paths.home.join("agent-hooks");
            let script = folder.join(format!("{name}.{}", hook.lang.extension()));
            fs::create_dir_all(&folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            write_new(&script, &hook.script(), 0o755)?;
            let command = command_for(&script);
            made.files.push(script.display().to_string());
            made.entry = Some(hook.config_entry(&command));
            let config = file.clone().unwrap_or_else(|| paths.config.clone());
            made.config = Some(config.display().to_string());
            command
        }
        Scope::User => {
            let base = paths.user_hooks.clone().context(
                "cannot find the user-level hooks folder: pass --user-hooks DIR or set HOME",
            )?;
            made.files = write_folder(&base.join(name), hook)?;
            name.to_owned()
        }
        Scope::Project(dir) => {
            let root = match dir {
                Some(dir) => dir.clone(),
                None => shared::project_root(cwd, printer)?,
            };
            let folder = root.join(".agents").join("hooks").join(name);
            stays_inside(&root, &folder)?;
            made.files = write_folder(&folder, hook)?;
            name.to_owned()
        }
    };
    let flags = next_flags(global, scope);
    made.next = vec![
        format!("hermes-hooks approve {}{flags}", quoted(&approve_as)),
        format!(
            "hermes-hooks test {} --expect none{flags}",
            hook.event_name()
        ),
        format!("hermes-hooks doctor{flags}"),
    ];
    Ok(made)
}

/// Refuses a project hook folder whose way from `root` leaves it: `.agents` or `.agents/hooks`
/// a symlink (as a cloned repository can carry) to a folder outside the project would have the
/// hook written into someone else's folder, or into your user-level hooks. Symlinks that stay
/// inside the project are followed. Parts that do not exist yet are made as plain folders.
fn stays_inside(root: &Path, folder: &Path) -> Result<()> {
    let Ok(real_root) = fs::canonicalize(root) else {
        return Ok(()); // made anew, with all below it
    };
    let Ok(rest) = folder.strip_prefix(root) else {
        return Ok(());
    };
    let mut part = root.to_path_buf();
    for name in rest {
        part.push(name);
        if fs::symlink_metadata(&part).is_err() {
            break;
        }
        let real = fs::canonicalize(&part)
            .with_context(|| format!("cannot resolve {}", part.display()))?;
        if !real.starts_with(&real_root) {
            bail!(
                "{} leads to {}, outside the project {}: `new` writes a project hook only \
                 inside its project",
                part.display(),
                real.display(),
                root.display()
            );
        }
    }
    Ok(())
}

/// Writes an Agent Hooks folder (`HOOK.md`, `scripts/run`); the folder must not exist. On a
/// failure after the folder was made, the folder is removed again.
fn write_folder(folder: &Path, hook: &Hook<'_>) -> Result<Vec<String>> {
    if let Some(parent) = folder.parent() {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    match fs::create_dir(folder) {
        Ok(()) => {}
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => bail!(refusal(folder)),
        Err(err) => return Err(err).context(format!("cannot create {}", folder.display())),
    }
    let hook_md = folder.join("HOOK.md");
    let entry = folder.join("scripts").join("run");
    let written = fs::create_dir(folder.join("scripts"))
        .map_err(anyhow::Error::from)
        .and_then(|()| write_new(&hook_md, &hook.hook_md(), 0o644))
        .and_then(|()| write_new(&entry, &hook.script(), 0o755));
    if let Err(err) = written {
        let _ = fs::remove_dir_all(folder);
        return Err(err);
    }
    Ok(vec![
        hook_md.display().to_string(),
        entry.display().to_string(),
    ])
}

/// Creates `path` with `text` and `mode`; refuses when anything is there already.
fn write_new(path: &Path, text: &str, mode: u32) -> Result<()> {
    let mut file = match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(path)
    {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => bail!(refusal(path)),
        Err(err) => return Err(err).context(format!("cannot create {}", path.display())),
    };
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("cannot write {}", path.display()))
}

fn refusal(path: &Path) -> String {
    format!(
        "{} already exists: `new` never overwrites; pick another name or move it away first",
        path.display()
    )
}

/// The command a config entry runs for `script`: `~/…` under the home folder (as Hermes's own
/// examples write it), else the path; quoted for the shell-like split when it needs it.
fn command_for(script: &Path) -> String {
    if let Some(home) = paths::home_dir()
        && let Ok(rest) = script.strip_prefix(&home)
    {
        let rest = rest.to_string_lossy();
        if quoted(&rest) == rest {
            return format!("~/{rest}");
        }
    }
    quoted(&script.to_string_lossy())
}

/// `text` quoted for a POSIX shell when it needs it.
fn quoted(text: &str) -> String {
    shlex::try_quote(text).map_or_else(|_| text.to_owned(), std::borrow::Cow::into_owned)
}

/// The location flags the next commands need to find the new hook (the ones given here).
fn next_flags(global: &GlobalArgs, scope: &Scope) -> String {
    let mut flags = String::new();
    let mut add = |flag: &str, value: &Path| {
        let _ = write!(flags, " {flag} {}", quoted(&value.to_string_lossy()));
    };
    if let Some(home) = &global.hermes_home {
        add("--hermes-home", home);
    }
    if let Some(dir) = &global.user_hooks {
        add("--user-hooks", dir);
    }
    match scope {
        Scope::Project(Some(dir)) => add("--project", dir),
        Scope::Config(Some(file)) => add("--config", file),
        _ => {}
    }
    flags
}

/// A path as a person here reads it: relative to `cwd` when inside it.
fn shown(path: &str, cwd: &Path) -> String {
    Path::new(path)
        .strip_prefix(cwd)
        .map_or_else(|_| path.to_owned(), |rest| rest.display().to_string())
}

/// The human form: what was written and what to do next. For the config scope, all of it is
/// YAML (the talk in comments), so the whole output can be pasted.
fn human(made: &Made, cwd: &Path) -> Screen {
    let mut screen = Screen::new(false);
    if let Some(entry) = &made.entry {
        let config = made.config.as_deref().unwrap_or_default();
        screen
            .line(format!("# Wrote {}.", shown(&made.files[0], cwd)))
            .line(format!(
                "# Add this to {config} (merge it into its hooks: block; hermes-hooks never edits \
                 that file):"
            ));
        for line in entry.lines() {
            screen.line(line);
        }
        screen.line("# Then:");
        for step in &made.next {
            screen.line(format!("#   {step}"));
        }
        return screen;
    }
    screen.line(format!(
        "Created {} hook '{}' for {}:",
        made.scope, made.name, made.declared_as
    ));
    for file in &made.files {
        screen.line(format!("  {}", shown(file, cwd)));
    }
    screen
        .blank()
        .line("Edit scripts/run (its comments show every answer this event allows) and the")
        .line("description in HOOK.md, then:");
    for step in &made.next {
        screen.line(format!("  {step}"));
    }
    screen
}
