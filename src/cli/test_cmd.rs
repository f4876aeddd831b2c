//! `test <event>`: run the event's hooks against a synthetic payload and show, for each hook, its
//! status, exit code, time, parsed directive and stderr, then the aggregated directive.
//! `--expect` turns it into a one-line CI assertion of what the hooks themselves answered.

use std::path::PathBuf;

use anyhow::{Context as _, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use serde_json::{Map, Value};

use super::rule_view::{CommandsView, VerdictView};
use super::{GlobalArgs, shared};
use crate::agents::Agent;
use crate::config::HookSpec;
use crate::config::rules::Rule;
use crate::consent::ConsentGate;
use crate::engine::payload::{self, Invocation};
use crate::engine::response::{Directive, Status};
use crate::engine::runner::{HookReport, Plan, RunReport};
use crate::engine::sample_payloads;
use crate::ground::exit::ExitStatus;
use crate::output::table::{Tone, terminal_width};
use crate::output::{Printer, Screen, wrap_shown};
use crate::report::line::{DirectiveKeys, to_line};

#[derive(Args, Debug)]
#[command(
    after_help = "Without --for-tool, and without a tool_name in --payload-file, every hook of \
    the event runs (matchers are not applied), so any hook can be tried. A payload that names its \
    tool is a call of that tool: the matchers are applied, as with --for-tool, and when no hook's \
    matcher meets the tool, test says so, with the tools of each agent that each matcher meets \
    (a guard written for Hermes's `terminal` never sees Claude Code's `Bash`). Consent applies: unapproved hooks are shown, not run, \
    unless --accept-hooks. With --payload-file, project hooks are found from the payload's cwd, \
    as `run` finds them. Exits 0 whatever the hooks decide, unless --expect is given.\n\n\
    --expect asserts what the hooks answered: it fails when a hook that could answer this call \
    did not start (unapproved, changed since approval, a script that cannot be started), naming \
    it, since the result then is not the hooks' own. On a CI runner with no allowlist, add \
    --accept-hooks (it approves and runs them). A fail_closed guard that started and then timed \
    out or printed invalid output blocks by what it did, as under `run`, and counts."
)]
pub(crate) struct TestArgs {
    /// The event: canonical, Agent Hooks or Claude Code name
    #[arg(value_parser = super::completions::EventName, hide_possible_values = true)]
    event: String,
    /// Set tool_name in the payload and apply tool matchers
    #[arg(long, value_name = "NAME")]
    for_tool: Option<String>,
    /// A payload merged over the synthetic one, key by key; any shape (keyword arguments, the
    /// Hermes wire with tool_input and extra, an Agent Hooks payload)
    #[arg(long, value_name = "FILE")]
    payload_file: Option<PathBuf>,
    /// Exit 1 unless the aggregated directive is this one, answered by the hooks themselves
    #[arg(long, value_enum, value_name = "DIRECTIVE")]
    expect: Option<Expect>,
    /// Print one JSON document instead of the report
    #[arg(long)]
    json: bool,
}

/// What `--expect` can ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Expect {
    Block,
    Ask,
    Modify,
    Context,
    Continue,
    Text,
    None,
}

impl Expect {
    fn of(directive: Option<&Directive>) -> Self {
        match directive {
            Option::None => Self::None,
            Some(Directive::Block { .. }) => Self::Block,
            Some(Directive::Modify { .. }) => Self::Modify,
            Some(Directive::Context { .. }) => Self::Context,
            Some(Directive::Continue { .. }) => Self::Continue,
            Some(Directive::Text { .. }) => Self::Text,
            Some(Directive::Ask { .. }) => Self::Ask,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Block => "block",
            Self::Ask => "ask",
            Self::Modify => "modify",
            Self::Context => "context",
            Self::Continue => "continue",
            Self::Text => "text",
            Self::None => "none",
        }
    }
}

#[derive(Serialize)]
struct HookResult<'a> {
    name: &'a str,
    source: &'static str,
    command: &'a str,
    status: &'static str,
    #[allow(clippy::option_option)]
    // absent: it did not run; null: a signal or the deadline ended it
    exit_code: Option<Option<i32>>,
    elapsed_ms: Option<f64>,
    directive: Option<DirectiveKeys<'a>>,
    message: Option<&'a str>,
    stderr: &'a str,
    /// A rule's verdict on the call, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<VerdictView>,
}

#[derive(Serialize)]
struct Report<'a> {
    event: &'static str,
    payload: &'a Map<String, Value>,
    /// The commands the call would run, as the rules that read them see them (a shell call, and
    /// a rule that names a command's fields).
    #[serde(skip_serializing_if = "Option::is_none")]
    commands: Option<CommandsView>,
    hooks: Vec<HookResult<'a>>,
    directive: DirectiveKeys<'a>,
    /// Hooks that could have answered this call and did not start: the directive is then not
    /// the hooks' own answer, and `--expect` fails.
    did_not_run: Vec<HookResult<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    matched: Option<bool>,
    /// Where the call names its tool and no hook's matcher meets it: what each one meets.
    #[serde(skip_serializing_if = "Option::is_none")]
    unmet: Option<super::test_tools::Unmet<'a>>,
}

/// The commands the call would run, when a rule reads them.
fn commands_read(specs: &[HookSpec], invocation: &Invocation) -> Option<CommandsView> {
    if !specs
        .iter()
        .any(|hook| hook.rule().is_some_and(Rule::reads_commands))
    {
        return None;
    }
    let home = specs
        .iter()
        .find_map(|hook| hook.rule().and_then(|rule| rule.of.home.clone()));
    crate::engine::rules::commands(invocation, invocation.tool_input.as_ref(), home.as_deref())
        .map(CommandsView::of)
}

pub(crate) fn run(global: &GlobalArgs, args: &TestArgs, printer: &Printer) -> Result<ExitStatus> {
    let called = shared::event(&args.event, printer)?;
    let event = called.event;
    let current_dir = shared::current_dir()?;
    let file = args.payload_file.as_deref().map(read_payload).transpose()?;
    let tool_named = names_its_tool(file.as_ref());
    // The project is the payload's, as for `run`: its `cwd` (or `work_dir`) when that is a
    // directory, so `test` and `run` see the same hooks for the same payload.
    let start = file.as_ref().map_or_else(
        || current_dir.clone(),
        |file| payload::project_start(file, &current_dir),
    );
    let loaded = shared::load_from(global, &start, Some(event), printer)?;
    let input = input_of(called, file, args.for_tool.as_deref());
    let invocation = Invocation::from_input(
        input.clone(),
        &current_dir.to_string_lossy(),
        &Agent::Hermes,
    );
    let gate = ConsentGate::new(
        loaded.paths.allowlist.clone(),
        shared::bypass(global, &loaded.set),
        true,
    );
    let watchdog = crate::dispatch::watchdog_program(&loaded.set);
    shared::end_hooks_on_interrupt();
    // A test counts nothing: no loop guard.
    let outcome = crate::engine::decision::decide(
        &Plan {
            called,
            hooks: &loaded.set.hooks,
            replacements: &loaded.set.replacements,
            invocation: &invocation,
            gate: &gate,
            current_dir: &current_dir,
            apply_matchers: args.for_tool.is_some() || tool_named,
            dry_run: false,
            watchdog: crate::dispatch::watchdog(watchdog.as_deref()),
            allow: crate::engine::tool_classes::Allowances::default(),
        },
        None,
    );
    if let Some(signal) = outcome.interrupted {
        crate::dispatch::say_interrupted(signal, printer);
        return Ok(outcome.status);
    }
    let report = outcome.report;
    // Its report gives each hook's message: stderr says only what the report does not.
    crate::dispatch::consent_warnings(&gate, &report, printer, true);
    let got = Expect::of(report.directive.as_ref());
    let unheard = unheard(&report, &loaded.set.hooks);
    let matched = args.expect.map(|want| want == got && unheard.is_empty());
    let specs = &loaded.set.hooks;
    let hooks: Vec<HookResult<'_>> = (report.hooks.iter())
        .map(|r| hook_result(specs, r, &invocation))
        .collect();
    let did_not_run: Vec<HookResult<'_>> = (unheard.iter())
        .map(|r| hook_result(specs, r, &invocation))
        .collect();
    let commands = commands_read(specs, &invocation);
    let tool = input.get("tool_name").and_then(Value::as_str);
    let unmet = tool
        .filter(|_| args.for_tool.is_some() || tool_named)
        .and_then(|tool| super::test_tools::unmet(specs, &report, tool));
    if args.json {
        printer.document(&Report {
            event: event.name(),
            payload: &input,
            commands,
            hooks,
            directive: DirectiveKeys::of(report.directive.as_ref()),
            did_not_run,
            expected: args.expect.map(Expect::name),
            matched,
            unmet,
        })?;
    } else {
        let mut screen = human(
            event.name(),
            (&hooks, commands.as_ref()),
            (report.directive.as_ref(), &did_not_run),
            (args, tool.filter(|_| tool_named)),
            shared::color(global),
        );
        super::test_tools::say(&mut screen, unmet.as_ref(), terminal_width());
        printer.show(&screen)?;
    }
    match (args.expect, matched) {
        (Some(want), Some(false)) => {
            printer.error(&anyhow::Error::msg(mismatch(
                event.name(),
                (want, got),
                &unheard,
                specs,
            )));
            Ok(ExitStatus::Error)
        }
        // A file whose hooks could not be read leaves the test incomplete.
        _ if !loaded.set.errors.is_empty() => Ok(ExitStatus::Error),
        _ => Ok(ExitStatus::Success),
    }
}

/// The payload: the synthetic one, the file's merged over it key by key (in any shape, a
/// captured wire payload too), then `--for-tool`.
fn input_of(
    called: crate::config::event::Resolved,
    file: Option<Map<String, Value>>,
    for_tool: Option<&str>,
) -> Map<String, Value> {
    let mut input = sample_payloads::payload(called);
    if let Some(file) = file {
        input.extend(payload::kwargs_shape(file));
    }
    if let Some(tool) = for_tool {
        input.insert("tool_name".to_owned(), Value::from(tool));
    }
    input
}

/// Whether a payload names its tool: it is then a call of that tool, and the matchers are
/// applied to it.
fn names_its_tool(file: Option<&Map<String, Value>>) -> bool {
    file.is_some_and(|file| payload::kwargs_shape(file.clone()).contains_key("tool_name"))
}

/// Reads `--payload-file`: any shape `run` reads.
fn read_payload(file: &std::path::Path) -> Result<Map<String, Value>> {
    let bytes = std::fs::read(file)
        .with_context(|| format!("cannot read payload file {}", file.display()))?;
    payload::parse(&bytes).with_context(|| format!("bad payload in {}", file.display()))
}

/// One hook's line of the report (a rule's with its verdict on `invocation`).
fn hook_result<'a>(
    specs: &'a [HookSpec],
    r: &'a HookReport,
    invocation: &Invocation,
) -> HookResult<'a> {
    let spec = &specs[r.index];
    let rule = spec.rule().map(|_| {
        let verdict =
            crate::engine::rules::verdict(spec, invocation, invocation.tool_input.as_ref());
        VerdictView::of(verdict, spec)
    });
    HookResult {
        name: &spec.name,
        source: spec.source.as_str(),
        command: &spec.command,
        status: r.status.as_str(),
        exit_code: r.exit_code,
        elapsed_ms: r.elapsed.map(crate::report::line::elapsed_ms),
        directive: r.directive.as_ref().map(|d| DirectiveKeys::of(Some(d))),
        message: r.message.as_deref(),
        stderr: r.stderr.trim_end(),
        rule,
    }
}

/// The hooks the directive depends on that never started. Each applies to this call (its
/// matchers matched, or were not applied), can change something on this event (its source's
/// effects there; an `async` hook cannot), was not stopped by an earlier block, and did not
/// start: consent kept it from starting (unapproved, changed since approval) or it could not
/// be started (its script missing or not a file, its program not found). Had it started, the
/// answer could be another, so an answer without it is not the hooks' own. A hook that started
/// and then failed (timed out, printed invalid output) answered by failing, as it would under
/// `run`, and is not one of these.
fn unheard<'a>(report: &'a RunReport, hooks: &[HookSpec]) -> Vec<&'a HookReport> {
    report
        .hooks
        .iter()
        .filter(|r| {
            let spec = &hooks[r.index];
            !spec.effects().is_empty() && !spec.run_async() && never_started(r)
        })
        .collect()
}

/// Whether the hook was due to start and did not (as opposed to not matching, or being stopped
/// by an earlier block): consent held it back, or it could not be started.
fn never_started(report: &HookReport) -> bool {
    matches!(
        report.status,
        Status::Unapproved | Status::Changed | Status::SpawnFailed
    )
}

/// Why a hook that could answer did not start, in a few words.
fn why_not_run(report: &HookReport) -> String {
    match report.status {
        Status::Unapproved => "unapproved".to_owned(),
        Status::Changed => "changed since approval".to_owned(),
        _ => match report.message.as_deref() {
            Some(message) => format!("{}: {message}", report.status.as_str()),
            None => report.status.as_str().to_owned(),
        },
    }
}

/// The reason `--expect` failed: the directive differs, or it was not the hooks' own answer
/// (naming each hook that did not start, and the flag that runs the ones consent held back).
fn mismatch(
    event: &str,
    (want, got): (Expect, Expect),
    unheard: &[&HookReport],
    hooks: &[HookSpec],
) -> String {
    let head = if want == got {
        format!(
            "test {event}: got {}, but not from the hooks alone",
            got.name()
        )
    } else {
        format!("test {event}: expected {}, got {}", want.name(), got.name())
    };
    if unheard.is_empty() {
        return head;
    }
    let named: Vec<String> = unheard
        .iter()
        .map(|r| format!("{} ({})", hooks[r.index].name, why_not_run(r)))
        .collect();
    let count = match unheard.len() {
        1 => "1 hook".to_owned(),
        n => format!("{n} hooks"),
    };
    let mut text = format!(
        "{head}; {count} that could answer this call did not run: {}",
        named.join(", ")
    );
    if unheard
        .iter()
        .any(|r| matches!(r.status, Status::Unapproved | Status::Changed))
    {
        text.push_str(
            "; --accept-hooks approves and runs unapproved and changed hooks \
             (add it in CI, where a fresh runner has no allowlist)",
        );
    }
    text
}

fn human(
    event: &str,
    (hooks, commands): (&[HookResult<'_>], Option<&CommandsView>),
    (directive, did_not_run): (Option<&Directive>, &[HookResult<'_>]),
    (args, from_payload): (&TestArgs, Option<&str>),
    color: bool,
) -> Screen {
    let mut screen = Screen::new(color);
    let width = terminal_width();
    let payload = if args.payload_file.is_some() {
        "synthetic payload + file"
    } else {
        "synthetic payload"
    };
    let tool = match (args.for_tool.as_deref(), from_payload) {
        (Some(tool), _) => format!(", tool {tool}"),
        (None, Some(tool)) => format!(", tool {tool} (named by the payload)"),
        (None, None) => ", all hooks (no --for-tool, no tool_name in a payload)".to_owned(),
    };
    let heading = format!("test {event}: {} hook(s), {payload}{tool}", hooks.len());
    for (i, line) in wrap_shown(&heading, width).iter().enumerate() {
        screen.line(format_args!("{}{line}", if i == 0 { "" } else { "  " }));
    }
    if let Some(commands) = commands {
        screen
            .blank()
            .line("commands the call would run, as rules read them:");
        for line in commands.lines() {
            screen.text("  ").wrapped(&line, width, 2, "    ");
        }
    }
    for hook in hooks {
        // Its name, then its command: a long path goes on under it, broken after a `/`.
        screen
            .blank()
            .wrapped(&format!("{}  {}", hook.name, hook.command), width, 0, "  ");
        screen
            .text("  status:     ")
            .paint(hook.status, status_tone(hook.status));
        if let Some(code) = hook.exit_code {
            match code {
                Some(code) => screen.text(format_args!("  exit {code}")),
                None => screen.text("  exit -"),
            };
        }
        if let Some(ms) = hook.elapsed_ms {
            screen.text(format_args!("  {ms:.1} ms"));
        }
        screen.end();
        if let Some(verdict) = &hook.rule {
            screen
                .text("  rule:       ")
                .wrapped(&verdict.words(), width, INDENT.len(), INDENT);
        }
        if let Some(directive) = &hook.directive {
            screen.line(format_args!("  directive:  {}", to_line(directive)));
        }
        if let Some(message) = hook.message {
            // Between words at the terminal's width, so a command to paste stays whole.
            let room = width.map(|w| w.saturating_sub(INDENT.len()));
            for (i, line) in wrap_shown(message, room).iter().enumerate() {
                let label = if i == 0 { "  message:    " } else { INDENT };
                screen.line(format_args!("{label}{line}"));
            }
        }
        for (i, line) in hook.stderr.lines().take(20).enumerate() {
            let label = if i == 0 { "  stderr:     " } else { INDENT };
            screen.line(format_args!("{label}{line}"));
        }
    }
    let result = match directive {
        None => "none".to_owned(),
        Some(d) => to_line(&DirectiveKeys::of(Some(d))),
    };
    screen.blank().line(format_args!("result: {result}"));
    if !did_not_run.is_empty() {
        let names: Vec<String> = did_not_run
            .iter()
            .map(|hook| format!("{} ({})", hook.name, hook.status))
            .collect();
        let text = format!(
            "not the hooks' own answer: {} could answer this call and did not run",
            names.join(", ")
        );
        // Under the result, indented, between words at the terminal's width.
        for line in wrap_shown(&text, width.map(|w| w.saturating_sub(2))) {
            screen.line(format_args!("  {line}"));
        }
    }
    // A passing --expect says so (a failing one is an error on stderr).
    if let Some(want) = args.expect
        && want == Expect::of(directive)
        && did_not_run.is_empty()
    {
        screen.line(format_args!(
            "ok: the hooks answered {}, as expected",
            want.name()
        ));
    }
    screen
}

/// Where a hook's field starts, after its label.
const INDENT: &str = "              ";

/// The colour of a hook's status: it answered, it decided something, or it could not answer.
fn status_tone(status: &str) -> Tone {
    match status {
        "ok" | "modified" | "context" | "gated" | "async" => Tone::Good,
        "blocked" | "asked" | "unapproved" | "not_matched" | "not_run" => Tone::Notice,
        _ => Tone::Bad,
    }
}
