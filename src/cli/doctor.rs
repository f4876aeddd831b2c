//! `doctor`: runs the checks of [`crate::checks`] (every hook's script, consent, drift, config
//! warnings, a smoke run of the approved ones) and prints the findings, or one JSON document.
//! Exit 1 on any error (`--strict`: any warning): a CI gate. It never writes the allowlist and
//! never runs an unapproved hook unless `--accept-hooks`.

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use super::{GlobalArgs, shared};
use std::path::PathBuf;

use crate::agents::Agent;
use crate::agents::settings::Scope;
use crate::checks::wiring::Place;
use crate::checks::{self, Checkup, Finding, Level};
use crate::ground::env;
use crate::ground::exit::ExitStatus;
use crate::ground::paths::Paths;
use crate::output::short_path::Shortener;
use crate::output::table::{Tone, terminal_width};
use crate::output::{Printer, Screen};

#[derive(Args, Debug)]
#[command(
    after_help = "Errors: a missing or non-executable script, a changed script, a smoke run \
    that times out, cannot start or prints invalid JSON, a config that cannot be parsed, a hook \
    entry that is skipped, a parse memo of config.yaml that disagrees with the file \
    (replaced), a named Hermes home that does not exist, a project skipped because another user \
    owns it, an agent's settings that run `hermes-hooks run` without the --agent its contract \
    needs (or another agent's), through a program that is not there (not on PATH), or for an \
    event the agent does not have, a setting in any settings file a wired agent reads that \
    switches its hooks off (Claude Code `disableAllHooks`, or the managed \
    `allowManagedHooksOnly`; Gemini `hooksConfig.enabled: false`; Droid `hooksDisabled: true`; \
    Qwen `disableAllHooks: true`; Codex `hooks = false` under [features]). Warnings: an agent wired at both the user and the \
    project level (every hook would run twice), an agent wired for some of its events only, an \
    agent's timeout not above the longest hook timeout, a tool matcher that meets no tool (nor \
    class) of a wired agent (each such agent named: a guard on Hermes's `terminal` never runs in \
    Claude Code), the user's guards (config.yaml's hooks, the user's Agent Hooks \
    and rules) where an agent is wired only in this project's settings, or is on this machine \
    and wired neither there nor in the user's settings (they do not run in it), or where Hermes \
    has no plugin (the rules and Agent Hooks do not run in it), an unapproved hook \
    (a note under --accept-hooks, which smoke-runs it and records nothing), an unpinned \
    approval, mtime drift without a pin, an ignored matcher, an unknown event, a clamped timeout, \
    a duplicate, a matcher too large for the regex engine on text that is not ASCII, a slow \
    smoke run, a smoke run that blocks the harmless synthetic call. A smoke \
    run goes through the same engine as `run` and says what the hook answered: nothing, blocked, \
    rewrote the input, added context or asked to keep working."
)]
pub(crate) struct DoctorArgs {
    /// Skip the smoke runs: execute no hook
    #[arg(long)]
    no_exec: bool,
    /// Exit 1 on warnings too
    #[arg(long)]
    strict: bool,
    /// Print the findings as one JSON document
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    pager: super::pager::PagerArgs,
}

#[derive(Serialize)]
struct Summary {
    errors: usize,
    warnings: usize,
    notes: usize,
    ok: usize,
}

#[derive(Serialize)]
struct Report<'a> {
    /// The project root whose `.agents/hooks` was checked (`null`: none was found).
    project_root: Option<String>,
    /// The nearest project found and skipped because another user owns a folder on the way.
    #[serde(skip_serializing_if = "Option::is_none")]
    project_skipped: Option<shared::SkippedProject>,
    /// What the project was found from.
    project_from: String,
    findings: &'a [Finding],
    summary: Summary,
}

pub(crate) fn run(global: &GlobalArgs, args: &DoctorArgs, printer: &Printer) -> Result<ExitStatus> {
    let paths = global.paths()?;
    shared::end_hooks_on_interrupt();
    let mut findings = Vec::new();
    if paths.home_named && !paths.home.is_dir() {
        // Green having checked nothing would let a misconfigured CI job pass.
        findings.push(Finding::file(
            Level::Error,
            "home",
            &paths.home,
            crate::dispatch::missing_home(&paths.home),
        ));
    }
    if let Some(skipped) = &paths.project_skipped {
        // Hooks someone else could write are not checked as yours: say which were left out.
        findings.push(Finding::file(
            Level::Error,
            "project",
            &skipped.hooks(),
            format!("not taken as a project's hooks: {}", skipped.reason()),
        ));
    }
    // Before the load, which would read through a memo that does not say what its file says.
    findings.extend(checks::memos(crate::dispatch::load_options(&paths, None)));
    match shared::load_unsaid(global, None) {
        Ok(loaded) => {
            let base = shared::current_dir()?;
            let list = crate::consent::store::read(&loaded.paths.allowlist)
                .ok()
                .flatten()
                .unwrap_or_default();
            let loaded = shared::with_stand_ins(loaded, &list, &base, None);
            findings.extend(checks::examine(&Checkup {
                set: &loaded.set,
                allowlist: &loaded.paths.allowlist,
                home: &loaded.paths.home,
                config: &loaded.paths.config,
                base: &base,
                bypass: shared::bypass(global, &loaded.set),
                smoke: !args.no_exec,
            }));
        }
        Err(err) => findings.push(Finding::file(
            Level::Error,
            "config",
            &paths.config,
            format!("{err:#}"),
        )),
    }
    findings.extend(wiring_findings(global, &paths));
    if let Some(status) = shared::interrupted(printer) {
        return Ok(status);
    }
    let count = |level| findings.iter().filter(|f| f.level == level).count();
    let summary = Summary {
        errors: count(Level::Error),
        warnings: count(Level::Warning),
        notes: count(Level::Note),
        ok: count(Level::Ok),
    };
    let failed = summary.errors > 0 || (args.strict && summary.warnings > 0);
    let awaiting = findings.iter().filter(|f| f.awaits_approval).count();
    if args.strict && failed && awaiting > 0 {
        printer.note(accept_hooks_hint(awaiting));
    }
    if args.json {
        printer.document(&Report {
            project_root: paths.project.as_ref().map(|p| p.display().to_string()),
            project_skipped: paths
                .project_skipped
                .as_ref()
                .map(shared::SkippedProject::new),
            project_from: paths.project_from.to_string(),
            findings: &findings,
            summary,
        })?;
    } else {
        super::pager::show_stdout(
            args.pager,
            printer,
            &human(&findings, &summary, shared::color(global), &paths),
        )?;
    }
    Ok(if failed {
        ExitStatus::Error
    } else {
        ExitStatus::Success
    })
}

/// The wiring of every agent's user and project settings (the project: the one whose hooks
/// were checked, else the repository root, else the current directory), and tool matchers no
/// wired agent's tools meet.
fn wiring_findings(global: &GlobalArgs, paths: &Paths) -> Vec<Finding> {
    let Ok(cwd) = shared::current_dir() else {
        return Vec::new();
    };
    let project = paths
        .project
        .clone()
        .or_else(|| super::shared::project_root(&cwd, &Printer::new(true)).ok());
    let home = crate::ground::paths::home_dir();
    let mut places = Vec::new();
    for agent in Agent::ALL {
        let Some(wiring) = agent.wiring() else {
            continue;
        };
        let dir_env = wiring.user_dir_env.and_then(env::var_os).map(PathBuf::from);
        if let Some(home) = &home {
            let folder = wiring.folder(&Scope::User, home, dir_env);
            places.push(Place {
                agent,
                folder,
                user: true,
            });
        }
        if let (Some(root), Some(home)) = (&project, &home) {
            let folder = wiring.folder(&Scope::Project(root.clone()), home, None);
            if !places
                .iter()
                .any(|p| p.agent == agent && p.folder == folder)
            {
                places.push(Place {
                    agent,
                    folder,
                    user: false,
                });
            }
        }
    }
    let set = match shared::load_unsaid(global, None) {
        Ok(loaded) => loaded.set,
        Err(_) => crate::config::HookSet::default(),
    };
    let on_path = |name: &str| which::which(name).ok();
    let plugin = !matches!(
        crate::agents::plugin::installed(&paths.home),
        crate::agents::plugin::Installed::Absent
    );
    let mut findings = checks::wiring::check(&places, &set, &on_path, plugin);
    let person = home.clone().unwrap_or_default();
    let found = |agent| crate::agents::found::found(agent, &on_path, &person, &paths.home);
    let module_at = |agent, user: bool| {
        let scope = if user {
            Scope::User
        } else {
            Scope::Project(project.clone()?)
        };
        let folder = crate::agents::module::folder(agent, &scope, home.as_deref()?)?;
        let installed = crate::agents::module::installed(agent, &folder);
        let first = crate::agents::module::names(agent).into_iter().next()?;
        (installed != crate::agents::module::Installed::Absent).then(|| folder.join(first))
    };
    findings.extend(checks::levels::check(
        &places,
        &set,
        &found,
        (plugin, &module_at),
    ));
    if let Some(home) = &home {
        let runs = |name: &str| which::which(name).is_ok();
        findings.extend(checks::modules::check(project.as_deref(), home, &runs));
    }
    findings
}

/// Why `--strict` failed on unapproved hooks, and what to do on a runner with no allowlist.
fn accept_hooks_hint(awaiting: usize) -> String {
    let what = match awaiting {
        1 => "1 warning is an unapproved hook".to_owned(),
        n => format!("{n} warnings are unapproved hooks"),
    };
    format!(
        "{what}; on a CI runner with no allowlist, `doctor --strict --accept-hooks` smoke-runs \
         unapproved hooks (recording nothing) and counts them as notes, not warnings; elsewhere, \
         review and approve them with `hermes-hooks approve`"
    )
}

/// Where a finding's text starts, after its level.
const INDENT: &str = "           ";

/// Lines of a changed script's diff shown under its finding.
const DIFF_LINES: usize = 40;

fn human(findings: &[Finding], summary: &Summary, color: bool, paths: &Paths) -> Screen {
    let mut screen = Screen::new(color);
    let width = terminal_width();
    let short = Shortener::new(paths.project.as_deref());
    if findings.is_empty() {
        let config = paths.config.display().to_string();
        screen.line(format_args!("No hooks in {}.", short.path(&config)));
    }
    let mut last: Option<(Option<&str>, Option<&str>)> = None;
    for f in findings {
        let key = (f.event, f.hook.as_deref());
        if f.hook.is_some() && last != Some(key) {
            let heading = format!(
                "{}  {}  ({})",
                f.event.or(f.source).unwrap_or("-"),
                f.hook.as_deref().unwrap_or_default(),
                f.at
            );
            screen.wrapped(&short.text(&heading), width, 0, "  ");
        }
        last = Some(key);
        let (word, tone) = match f.level {
            Level::Error => ("error  ", Tone::Bad),
            Level::Warning => ("warning", Tone::Notice),
            Level::Note => ("note   ", Tone::Plain),
            Level::Ok => ("ok     ", Tone::Good),
        };
        if f.hook.is_some() {
            screen.text("  ").paint(word, tone).text("  ");
            screen.wrapped(&short.text(&f.message), width, INDENT.len(), INDENT);
            if let Some(diff) = &f.diff {
                let more = screen.diff(diff, INDENT, DIFF_LINES);
                if more > 0 {
                    screen.line(format_args!(
                        "{INDENT}({more} more lines: `doctor --json` has the whole diff)"
                    ));
                }
            }
        } else {
            screen.paint(word, tone).text("  ");
            let text = format!("{}: {}", f.at, f.message);
            screen.wrapped(&short.text(&text), width, INDENT.len(), INDENT);
        }
    }
    let notes = match summary.notes {
        0 => String::new(),
        n => format!(", {n} note(s)"),
    };
    screen.blank();
    screen.wrapped(&short.text(&shared::project_line(paths)), width, 0, "  ");
    screen.line(format_args!(
        "{} error(s), {} warning(s){notes}, {} ok",
        summary.errors, summary.warnings, summary.ok
    ));
    screen
}
