//! `approve`: the review step. Each hook that is unapproved, changed or unpinned (or each one
//! named, approved or not) is shown with its script's sha256 and first lines, or for a changed
//! script the diff against the copy kept when it was approved, and one line-based question is
//! asked per hook, answered only by what is typed once the hook is shown; `--yes` approves
//! without asking. Writes go through the same locked, atomic path as `run`. The summary names
//! every hook and what became of it.

use std::fmt::Write as _;
use std::io::IsTerminal as _;

use anyhow::{Context as _, Result, bail};
use clap::Args;
use dialoguer::Input;
use dialoguer::console::Term;
use rustix::termios::{QueueSelector, tcflush};
use serde::Serialize;

use super::pack_review::{self, FileReview};
use super::{GlobalArgs, pager, shared};
use crate::config::HookSpec;
use crate::consent::store;
use crate::consent::{
    Assessment, ConsentState, approval_for, assess, changes_since_approval, names, nothing_to_pin,
    record,
};
use crate::ground::exit::ExitStatus;
use crate::ground::limits;
use crate::output::short_path::Shortener;
use crate::output::table::{stderr_width, terminal_width};
use crate::output::{Printer, Screen, shown_width};

/// Lines of the script shown for review.
const PREVIEW_LINES: usize = 12;
/// Lines of a diff shown for review (`d` shows all of it).
const DIFF_LINES: usize = 40;

#[derive(Args, Debug)]
pub(crate) struct ApproveArgs {
    /// The hook to approve, approved already or not: its command as declared, its script's path,
    /// or an Agent Hooks name as `list` shows it (after `--` when it begins with `-`) [default:
    /// every hook that is unapproved, changed or unpinned]
    #[arg(value_name = "HOOK")]
    hook: Option<String>,
    /// Only hooks of this event (any of its names)
    #[arg(long, value_name = "EVENT", value_parser = super::completions::EventName, hide_possible_values = true)]
    event: Option<String>,
    /// Also re-approve hooks that are approved already, pinning their current content
    #[arg(long)]
    all: bool,
    /// Approve without asking (for scripts and CI); without a terminal, approve refuses unless
    /// this is given
    #[arg(short, long)]
    yes: bool,
    /// Print one JSON document instead of a line per hook
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Decision<'h> {
    event: &'static str,
    source: &'static str,
    name: String,
    /// What it does, as its HOOK.md says.
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    command: String,
    script: Option<String>,
    sha256: Option<String>,
    was: &'static str,
    /// Why it was declined or skipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// Approved, but its script cannot be started as it is: why, and the fix.
    #[serde(skip_serializing_if = "Option::is_none")]
    cannot_run: Option<String>,
    /// A rules file: the shipped packs it holds, and each rule as the review shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    rules_file: Option<FileReview<'h>>,
}

#[derive(Serialize, Default)]
struct Outcome<'h> {
    approved: Vec<Decision<'h>>,
    declined: Vec<Decision<'h>>,
    skipped: Vec<Decision<'h>>,
}

/// A reviewer's answer to one hook.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Answer {
    Yes,
    No,
    /// Yes to this one and every remaining hook.
    All,
    /// No to this one and every remaining hook.
    Quit,
}

/// The rules of the rules file `file`, in order.
fn rules_of<'h>(hooks: &'h [HookSpec], file: &'h str) -> impl Iterator<Item = &'h HookSpec> {
    hooks
        .iter()
        .filter(move |hook| hook.rule().is_some() && hook.command == file)
}

/// The review of the rules file `file`: the packs it holds and each of its rules.
fn file_review<'h>(hooks: &'h [HookSpec], file: &str) -> FileReview<'h> {
    let rules: Vec<&'h HookSpec> = hooks
        .iter()
        .filter(|hook| hook.rule().is_some() && hook.command == file)
        .collect();
    pack_review::review(std::path::Path::new(file), &rules)
}

fn decision_for<'h>(
    hooks: &'h [HookSpec],
    hook: &HookSpec,
    assessment: &Assessment,
    reason: Option<String>,
) -> Decision<'h> {
    Decision {
        event: hook.consent_event(),
        source: hook.source.as_str(),
        name: match hook.rule() {
            Some(rule) => format!("{} rules", rule.of.scope.as_str()),
            None => hook.name.to_string(),
        },
        description: hook.agent().and_then(|agent| agent.description.clone()),
        command: hook.command.to_string(),
        script: assessment.script.as_ref().map(|p| p.display().to_string()),
        sha256: assessment.sha256.clone(),
        was: assessment.state.as_str(),
        reason,
        cannot_run: None,
        rules_file: hook.rule().map(|_| file_review(hooks, &hook.command)),
    }
}

pub(crate) fn run(
    global: &GlobalArgs,
    args: &ApproveArgs,
    printer: &Printer,
) -> Result<ExitStatus> {
    Ok(review(global, args, printer, true)?.status)
}

/// What [`review`] did.
pub(super) struct Reviewed {
    /// The `--json` document.
    pub document: serde_json::Value,
    pub status: ExitStatus,
    /// Whether every hook asked about was approved (or none needed it).
    pub all_approved: bool,
}

impl ApproveArgs {
    /// The review of one hook or rules file, named as `approve` takes it.
    pub(super) fn of(hook: String, yes: bool) -> Self {
        Self {
            hook: Some(hook),
            event: None,
            all: false,
            yes,
            json: false,
        }
    }
}

/// `approve` as `args` say; the summary (or, with `--json`, the document) is printed when
/// `print` says so.
pub(super) fn review(
    global: &GlobalArgs,
    args: &ApproveArgs,
    printer: &Printer,
    print: bool,
) -> Result<Reviewed> {
    let only = shared::optional_event(args.event.as_deref(), printer)?;
    // Every event's hooks are loaded: a rules file is approved whole, so all of its rules are
    // shown, whatever event was asked for.
    let loaded = shared::load(global, None, printer)?;
    let list = store::read(&loaded.paths.allowlist)
        .context("cannot approve")?
        .unwrap_or_default();
    let base = shared::current_dir()?;
    let hooks = &loaded.set.hooks;
    let of_event = |hook: &HookSpec| {
        only.is_none_or(|only| {
            hook.event == only
                || hook.rule().is_some()
                    && rules_of(hooks, &hook.command).any(|rule| rule.event == only)
        })
    };
    let mut seen_files = Vec::new();
    let named: Vec<&HookSpec> = hooks
        .iter()
        .filter(|hook| of_event(hook))
        .filter(|hook| {
            args.hook
                .as_ref()
                .is_none_or(|given| names(hook, given, &base))
        })
        // A rules file is one item, however many rules it holds.
        .filter(|hook| {
            hook.rule().is_none() || {
                let new = !seen_files.contains(&&hook.command);
                seen_files.push(&hook.command);
                new
            }
        })
        .collect();
    if let (Some(given), true) = (&args.hook, named.is_empty()) {
        let scope = only.map_or_else(String::new, |e| format!(" of {e}"));
        bail!(
            "no hook{scope} is named '{given}': name a hook by its command as declared, its \
             script's path, or the name `hermes-hooks list` shows"
        );
    }
    // A hook named on the command line is re-approved even when it is approved already.
    let pending: Vec<(&HookSpec, Assessment)> = named
        .into_iter()
        .map(|hook| (hook, assess(&list, hook, &base)))
        .filter(|(_, a)| args.hook.is_some() || args.all || a.state != ConsentState::Approved)
        .collect();
    let mut outcome = Outcome::default();
    if pending.is_empty() {
        if print && !args.json {
            let mut screen = Screen::new(false);
            screen.line("Nothing to approve: every hook is approved and pinned.");
            printer.show(&screen)?;
        }
        if print && args.json {
            printer.document(&outcome)?;
        }
        return Ok(Reviewed {
            document: serde_json::to_value(&outcome)?,
            status: ExitStatus::Success,
            all_approved: true,
        });
    }
    let asks = !args.yes && pending.iter().any(|(_, a)| a.sha256.is_some());
    if asks && !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        bail!(
            "approve asks before each hook and needs a terminal for that; pass --yes to approve \
             without asking"
        );
    }
    let short = Shortener::new(loaded.paths.project.as_deref());
    let reviewer = Reviewer {
        hooks,
        allowlist: &loaded.paths.allowlist,
        color: shared::color_stderr(global),
        printer,
        short: &short,
        base: &base,
    };
    reviewer.review_all(&pending, !asks, &loaded.paths.home, &mut outcome)?;
    if print && args.json {
        printer.document(&outcome)?;
    } else if print {
        printer.show(&summary(&outcome, &short))?;
        printer.note(counts(&outcome));
    }
    Ok(Reviewed {
        document: serde_json::to_value(&outcome)?,
        status: if outcome.skipped.is_empty() {
            ExitStatus::Success
        } else {
            ExitStatus::Error
        },
        all_approved: outcome.declined.is_empty() && outcome.skipped.is_empty(),
    })
}

/// One line per hook: approved, declined or skipped, and why; on a narrow terminal wrapped
/// between words, paths as a person reads them.
fn summary(outcome: &Outcome<'_>, short: &Shortener) -> Screen {
    const INDENT: &str = "          ";
    let width = terminal_width();
    let mut screen = Screen::new(false);
    let groups = [
        ("approved", &outcome.approved),
        ("declined", &outcome.declined),
        ("skipped ", &outcome.skipped),
    ];
    for (verb, decisions) in groups {
        for decision in decisions {
            let command = short.text(&decision.command);
            let head = format!("{verb}  {}  {command}", decision.event);
            let tail = match (verb, &decision.reason) {
                ("approved", _) => format!(
                    "({})",
                    crate::consent::fingerprint::short_sha256(decision.sha256.as_deref())
                ),
                (_, Some(reason)) if reason != "declined" => reason.clone(),
                _ => String::new(),
            };
            let separator = if verb == "approved" { "  " } else { ": " };
            let whole = format!("{head}{separator}{tail}");
            let after = decision.cannot_run.as_deref();
            let fits = width.is_none_or(|w| shown_width(&whole) <= w);
            if fits {
                screen.line(if tail.is_empty() { head } else { whole });
            } else if tail.is_empty() {
                screen.wrapped(&head, width, 0, INDENT);
            } else {
                // On a narrow terminal the reason goes below, wrapped between words.
                let head = format!("{head}{}", separator.trim_end());
                screen.wrapped(&head, width, 0, INDENT);
                screen
                    .text(INDENT)
                    .wrapped(&tail, width, INDENT.len(), INDENT);
            }
            if let Some(after) = after {
                screen
                    .text(INDENT)
                    .wrapped(&short.text(after), width, INDENT.len(), INDENT);
            }
        }
    }
    screen
}

/// Why an approved hook's script cannot be started as it is, with the fix (`None`: it can).
fn cannot_run(hook: &HookSpec, assessment: &Assessment, base: &std::path::Path) -> Option<String> {
    use crate::consent::fingerprint::ScriptState;
    let script = assessment
        .script
        .as_ref()
        .map_or_else(|| hook.command.to_string(), |p| p.display().to_string());
    match crate::consent::script_state(hook, base) {
        ScriptState::NotExecutable => Some(format!(
            "it cannot run yet: {script} is not executable (chmod +x it)"
        )),
        ScriptState::Missing => Some(format!("it cannot run yet: {script} is not there")),
        ScriptState::Ok | ScriptState::NotAFile | ScriptState::TooLarge => None,
    }
}

/// The closing note: how many of each, and why the exit status is 1 when it is.
fn counts(outcome: &Outcome<'_>) -> String {
    let mut parts = vec![format!("approved {}", outcome.approved.len())];
    if !outcome.declined.is_empty() {
        parts.push(format!("declined {}", outcome.declined.len()));
    }
    if !outcome.skipped.is_empty() {
        let n = outcome.skipped.len();
        let noun = if n == 1 { "hook" } else { "hooks" };
        parts.push(format!(
            "skipped {n} (exit status 1: {n} {noun} could not be approved)"
        ));
    }
    parts.join(", ")
}

/// Shows hooks for review on stderr and reads the answers.
struct Reviewer<'a> {
    /// Every hook loaded (a rules file's review lists its rules).
    hooks: &'a [HookSpec],
    allowlist: &'a std::path::Path,
    color: bool,
    printer: &'a Printer,
    short: &'a Shortener,
    /// Where a relative script path is found from.
    base: &'a std::path::Path,
}

impl<'h> Reviewer<'h> {
    /// Reviews each hook in turn (or approves every one, `yes_to_all`), recording each approval
    /// as it is given; a hook with nothing to pin is skipped with the reason.
    fn review_all(
        &self,
        pending: &[(&HookSpec, Assessment)],
        yes_to_all: bool,
        home: &std::path::Path,
        outcome: &mut Outcome<'h>,
    ) -> Result<()> {
        let mut rest: Option<Answer> = yes_to_all.then_some(Answer::Yes);
        for (hook, assessment) in pending {
            if let Some(why) = nothing_to_pin(hook, assessment, home) {
                outcome.skipped.push(decision_for(
                    self.hooks,
                    hook,
                    assessment,
                    Some(format!("cannot be approved: {why}")),
                ));
                continue;
            }
            let answer = match rest {
                Some(answer) => answer,
                None => self.ask(hook, assessment)?,
            };
            if matches!(answer, Answer::All | Answer::Quit) {
                rest = Some(if answer == Answer::All {
                    Answer::Yes
                } else {
                    Answer::Quit
                });
            }
            match answer {
                Answer::Yes | Answer::All => {
                    record(self.allowlist, &[approval_for(hook, assessment)])?;
                    let mut decision = decision_for(self.hooks, hook, assessment, None);
                    decision.cannot_run = cannot_run(hook, assessment, self.base);
                    outcome.approved.push(decision);
                }
                Answer::No => {
                    let decision =
                        decision_for(self.hooks, hook, assessment, Some("declined".to_owned()));
                    outcome.declined.push(decision);
                }
                Answer::Quit => outcome.declined.push(decision_for(
                    self.hooks,
                    hook,
                    assessment,
                    Some("not reviewed: the review was stopped".to_owned()),
                )),
            }
        }
        Ok(())
    }

    /// Shows `hook` and asks until the answer is one of y, n, a, q (v and d show more first).
    fn ask(&self, hook: &HookSpec, assessment: &Assessment) -> Result<Answer> {
        let diff = changes_since_approval(assessment, self.allowlist);
        self.printer
            .show_on_stderr(&self.review(hook, assessment, diff.as_deref()));
        loop {
            // Every question, the first and each one asked again after `v`, `d` or an unknown
            // answer, is answered only by what is typed once it is on the screen.
            discard_typed_ahead()?;
            let answer: String = Input::new()
                .with_prompt("Approve? [y]es [n]o [a]ll [q]uit [v]iew script [d]iff (default: no)")
                .allow_empty(true)
                .interact_on(&Term::stderr())
                .context("reading the answer")?;
            match answer.trim().to_ascii_lowercase().as_str() {
                "y" | "yes" => return Ok(Answer::Yes),
                "n" | "no" | "" => return Ok(Answer::No),
                "a" | "all" => return Ok(Answer::All),
                "q" | "quit" => return Ok(Answer::Quit),
                "v" | "view" => match &assessment.script {
                    Some(script) => pager::show(&script_text(script)),
                    None => self.printer.note("this hook's command names no script"),
                },
                "d" | "diff" => match &diff {
                    Some(diff) => pager::show(&self.painted(diff).into_text()),
                    None => self.printer.note(no_diff(assessment)),
                },
                _ => self
                    .printer
                    .note("answer y (yes), n (no), a (all), q (quit), v (view) or d (diff)"),
            }
        }
    }

    /// What is shown about `hook` before the question.
    fn review(&self, hook: &HookSpec, assessment: &Assessment, diff: Option<&str>) -> Screen {
        const INDENT: &str = "            ";
        let mut review = Screen::new(self.color);
        let width = stderr_width();
        let origin = self.short.text(&hook.origin.to_string());
        let heading = match hook.rule() {
            Some(rule) => format!(
                "{} rules file {}",
                rule.of.scope.as_str(),
                self.short.path(&hook.command)
            ),
            None => format!(
                "{}  {}  {}  declared at {origin}",
                hook.event,
                hook.source.as_str(),
                hook.name,
            ),
        };
        review.blank().wrapped(&heading, width, 0, "  ");
        if let Some(description) = hook.agent().and_then(|agent| agent.description.as_deref()) {
            // What it says it does, beside what it is: the script below is what runs.
            review
                .text("  says:     ")
                .wrapped(description, width, INDENT.len(), INDENT);
        }
        if hook.rule().is_some() {
            self.rules_shown(&mut review, &hook.command, width);
        }
        // The command exactly as declared: it is what is approved (a rules file's is its path).
        if hook.rule().is_none() {
            review
                .text("  command:  ")
                .wrapped(&hook.command, width, INDENT.len(), INDENT);
        }
        review.line(format_args!("  state:    {}", assessment.state.as_str()));
        if let Some(script) = &assessment.script {
            let script = script.display().to_string();
            review.text("  script:   ").wrapped(
                &self.short.path(&script),
                width,
                INDENT.len(),
                INDENT,
            );
        }
        match &assessment.sha256 {
            Some(now) => review.line(format_args!("  sha256:   {now}")),
            None => review.line("  sha256:   (no readable script to pin)"),
        };
        if let Some(at) = &assessment.approved_at {
            let pinned = crate::consent::fingerprint::short_sha256(assessment.pinned.as_deref());
            review.line(format_args!("  approved: {at}  ({pinned})"));
        }
        match (diff, &assessment.script) {
            (Some(diff), _) => {
                review.line("  changes since it was approved:");
                let more = review.diff(diff, "  ", DIFF_LINES);
                if more > 0 {
                    review.line(format_args!(
                        "  ({more} more lines: answer d for the whole diff)"
                    ));
                }
            }
            (None, Some(script)) => {
                if assessment.state == ConsentState::Changed {
                    review.line(format_args!("  {}", no_diff(assessment)));
                }
                if hook.rule().is_some() {
                    return review; // its rules are shown above
                }
                for line in preview(script) {
                    review.line(line);
                }
            }
            (None, None) => {}
        }
        review
    }

    /// Every rule of the rules file `file`, one entry each: the shipped packs the file holds,
    /// then for each rule what it blocks (in words, then examples), before how it checks, and
    /// how it differs from the pack's rule of its name.
    fn rules_shown(&self, review: &mut Screen, file: &str, width: Option<usize>) {
        const INDENT: &str = "                     ";
        let shown = file_review(self.hooks, file);
        review.line(format_args!(
            "  {} {} (the file is approved as one):",
            shown.rules.len(),
            if shown.rules.len() == 1 {
                "rule"
            } else {
                "rules"
            }
        ));
        for pack in &shown.holds_packs {
            let whole = if shown.is_pack == Some(pack) {
                " (the whole file is the pack)"
            } else {
                ""
            };
            review.line(format_args!(
                "  holds the shipped pack {pack}, unchanged{whole}"
            ));
        }
        for rule in &shown.rules {
            let mut what = format!("- {}: {} on {}", rule.name, rule.rule.action, rule.event);
            if let Some(tool) = rule.tool {
                let _ = write!(what, ", tool {tool}");
            }
            review.text("    ").wrapped(&what, width, 4, "      ");
            let mut field = |label: &str, text: &str| {
                review.text(format_args!("      {label:<15}")).wrapped(
                    text,
                    width,
                    INDENT.len(),
                    INDENT,
                );
            };
            let verb = match rule.rule.action {
                "block" => "blocks:",
                "ask" => "asks about:",
                _ => "tells:",
            };
            field(verb, &format!("\"{}\"", rule.rule.message));
            for (i, example) in rule.examples.iter().enumerate() {
                field(if i == 0 { "for example:" } else { "" }, example);
            }
            for (word, text) in rule.rule.lines() {
                field(&format!("{word}:"), &text);
            }
            if let Some(diff) = &rule.differs_from_pack {
                let pack = rule.pack.unwrap_or_default();
                review.line(format_args!("      differs from the pack {pack}'s rule:"));
                review.diff(diff, "        ", DIFF_LINES);
            }
        }
    }

    fn painted(&self, diff: &str) -> Screen {
        let mut screen = Screen::new(self.color);
        screen.diff(diff, "", usize::MAX);
        screen
    }
}

/// Discards whatever was typed and not read yet on the terminal the answer is read from (stdin
/// when it is a terminal, else the controlling terminal, as the prompt chooses), so a line typed
/// ahead, before a hook was shown, cannot answer for it. Fails rather than ask without it.
fn discard_typed_ahead() -> Result<()> {
    let stdin = std::io::stdin();
    let flushed = if stdin.is_terminal() {
        tcflush(&stdin, QueueSelector::IFlush)
    } else {
        let tty = std::fs::File::options()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .context("opening the terminal to ask on")?;
        tcflush(&tty, QueueSelector::IFlush)
    };
    flushed.context("discarding what was typed before the question")
}

/// Why a changed hook shows no diff.
fn no_diff(assessment: &Assessment) -> &'static str {
    if assessment.state == ConsentState::Changed {
        "no diff: no copy of the script was kept when it was approved"
    } else {
        "no diff: the script has not changed since it was approved (or was never approved)"
    }
}

/// Tabs as spaces, for script text shown to people (a tab would otherwise be shown as `\t`).
fn untabbed(line: &str) -> String {
    line.replace('\t', "    ")
}

/// The script's lines (tabs as spaces), or why it has none to show.
fn script_lines(script: &std::path::Path) -> Result<Vec<String>, String> {
    match limits::read(script, limits::SCRIPT_MAX) {
        Ok(bytes) if bytes.contains(&0) => Err("(a binary file)".to_owned()),
        Ok(bytes) => Ok(String::from_utf8_lossy(&bytes)
            .lines()
            .map(untabbed)
            .collect()),
        Err(err) => Err(format!("(the script cannot be read: {err})")),
    }
}

/// The whole script as text for the pager, each line sanitised.
fn script_text(script: &std::path::Path) -> String {
    let mut screen = Screen::new(false);
    match script_lines(script) {
        Ok(lines) => lines.iter().for_each(|line| {
            screen.line(line);
        }),
        Err(why) => {
            screen.line(why);
        }
    }
    screen.into_text()
}

/// The first lines of the script's code (its `#!` line, then past the comments it opens with,
/// which say what the author meant, to what runs), or a note when it is binary or unreadable.
fn preview(script: &std::path::Path) -> Vec<String> {
    let lines = match script_lines(script) {
        Ok(lines) => lines,
        Err(why) => return vec![format!("  {why}")],
    };
    let shebang = usize::from(lines.first().is_some_and(|l| l.starts_with("#!")));
    let comments = lines[shebang..]
        .iter()
        .take_while(|line| {
            let line = line.trim_start();
            line.is_empty() || line.starts_with('#') || line.starts_with("//")
        })
        .count();
    let mut shown = vec!["  first lines of code:".to_owned()];
    shown.extend(lines[..shebang].iter().map(|l| format!("  | {l}")));
    if comments > 0 {
        shown.push(format!(
            "  | ... {comments} lines of comments (v shows them)"
        ));
    }
    let code = &lines[shebang + comments..];
    shown.extend(code.iter().take(PREVIEW_LINES).map(|l| format!("  | {l}")));
    if code.len() > PREVIEW_LINES {
        shown.push(format!(
            "  ({} more lines: answer v to view the whole script)",
            code.len() - PREVIEW_LINES
        ));
    }
    shown
}
