//! The command line: clap definitions, global options, dispatch, and the exit policy (a usage
//! error is 1, never 2; a closed stdout is not an error; errors print once with their causes).
//!
//! Doc comments on clap types are `--help` text for people, not rustdoc.
#![allow(clippy::doc_markdown)]

mod approve;
pub(crate) mod bare_start;
mod completions;
mod doctor;
mod events;
mod install;
mod install_all;
mod install_hermes;
mod install_module;
mod install_report;
mod install_twice;
mod list;
mod log;
mod new;
mod new_rules;
mod pack_review;
mod pager;
mod person;
mod quick;
mod revoke;
mod rule_view;
mod run;
mod serve;
mod setup;
mod shared;
mod test_cmd;
mod test_tools;
mod uninstall;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::ground::exit::ExitStatus;
use crate::output::Printer;

/// Run and audit agent hooks behind a content-pinned consent allowlist.
#[derive(Parser, Debug)]
#[command(
    name = "hermes-hooks",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_help = "Exit codes: 0 success, 1 error (including usage errors), 2 only from `run`: a hook \
                  blocked, or the quality gate asks to keep working.\n\napprove, revoke, install, \
                  uninstall, new --rules and --accept-hooks are a person's to run: inside an \
                  agent's tool call they refuse (run and serve set --accept-hooks aside)."
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: GlobalArgs,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The help heading of the options every subcommand accepts.
const GLOBAL: &str = "Global options";

/// The global flags (by id) each subcommand has no use for: accepted, so scripts may put them
/// anywhere, but left out of that subcommand's help.
const UNUSED_GLOBALS: &[(&str, &[&str])] = &[
    ("run", &["color"]),
    ("serve", &["color"]),
    ("approve", &["accept_hooks"]),
    ("revoke", &["accept_hooks", "color"]),
    (
        "events",
        &[
            "hermes_home",
            "config",
            "user_hooks",
            "project",
            "accept_hooks",
        ],
    ),
    ("new", &["accept_hooks", "color"]),
    ("install", &["accept_hooks", "color"]),
    (
        "uninstall",
        &[
            "hermes_home",
            "config",
            "user_hooks",
            "accept_hooks",
            "color",
        ],
    ),
    (
        "log",
        &[
            "hermes_home",
            "config",
            "user_hooks",
            "project",
            "accept_hooks",
        ],
    ),
    (
        "completions",
        &[
            "hermes_home",
            "config",
            "user_hooks",
            "project",
            "accept_hooks",
            "color",
            "quiet",
        ],
    ),
];

/// The command line as clap parses it: the derived definition, with each subcommand's unused
/// global flags hidden from its help.
pub(crate) fn command() -> clap::Command {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    // A subcommand that has an argument of a global's id gets no copy of the global: it gets a
    // hidden copy here instead.
    let hidden = |id: &str, cmd: &clap::Command| {
        cmd.get_arguments()
            .find(|arg| arg.get_id() == id)
            .map(|arg| arg.clone().hide(true))
    };
    for (name, unused) in UNUSED_GLOBALS {
        let copies: Vec<clap::Arg> = unused.iter().filter_map(|id| hidden(id, &cmd)).collect();
        cmd = cmd.mut_subcommand(*name, |sub| sub.args(copies));
    }
    cmd
}

/// Options every subcommand accepts, before or after its name.
#[derive(Args, Debug)]
pub(crate) struct GlobalArgs {
    /// Hermes home: config.yaml and the allowlist [env: HERMES_HOME] [default: ~/.hermes]
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub(crate) hermes_home: Option<PathBuf>,
    /// Hermes config file [default: <hermes home>/config.yaml]
    #[arg(long, global = true, value_name = "FILE", help_heading = GLOBAL)]
    pub(crate) config: Option<PathBuf>,
    /// User-level Agent Hooks folder [default: $XDG_CONFIG_HOME/agents/hooks, else
    /// ~/.config/agents/hooks]
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub(crate) user_hooks: Option<PathBuf>,
    /// Project root; its hooks are in <DIR>/.agents/hooks, trusted as named [default: the nearest
    /// folder with .agents/hooks from the current directory (for `run`, `serve` and `test
    /// --payload-file`, the payload's cwd) up to the repository root, skipping one another user owns]
    #[arg(long, global = true, value_name = "DIR", help_heading = GLOBAL)]
    pub(crate) project: Option<PathBuf>,
    /// Approve unapproved or changed hooks on the spot (recording their sha256) and run them
    /// [env: HERMES_HOOKS_ACCEPT=1] (Hermes's HERMES_ACCEPT_HOOKS=1 and hooks_auto_accept: true
    /// approve config hooks only)
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub(crate) accept_hooks: bool,
    /// Colour in human output [env: NO_COLOR disables it]
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto, help_heading = GLOBAL)]
    pub(crate) color: ColorChoice,
    /// Print no warnings or notes on stderr (errors still show)
    #[arg(short, long, global = true, help_heading = GLOBAL)]
    pub(crate) quiet: bool,
}

impl GlobalArgs {
    /// The locations these flags name, resolved against the environment and the defaults; the
    /// project root is searched from the current directory.
    pub(crate) fn paths(&self) -> anyhow::Result<crate::ground::paths::Paths> {
        self.paths_from(&shared::current_dir()?)
    }

    /// [`Self::paths`], with the project root searched from `start`.
    pub(crate) fn paths_from(
        &self,
        start: &std::path::Path,
    ) -> anyhow::Result<crate::ground::paths::Paths> {
        self.paths_for(&crate::ground::paths::Start::Dir(start))
    }

    /// [`Self::paths`], with the project found from `start`.
    pub(crate) fn paths_for(
        &self,
        start: &crate::ground::paths::Start<'_>,
    ) -> anyhow::Result<crate::ground::paths::Paths> {
        crate::ground::paths::Paths::resolve_for(&self.locations(), start)
    }

    /// The locations these flags name (`None`: the default).
    pub(crate) fn locations(&self) -> crate::ground::paths::Locations<'_> {
        crate::ground::paths::Locations {
            hermes_home: self.hermes_home.as_deref(),
            config: self.config.as_deref(),
            user_hooks: self.user_hooks.as_deref(),
            project: self.project.as_deref(),
        }
    }
}

/// When to use colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorChoice {
    /// Only on a terminal, and not when NO_COLOR is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Command {
    /// Run the hooks of one event: payload on stdin, one JSON line on stdout, exit 2 when blocked
    Run(run::RunArgs),
    /// Answer events read as JSON lines on stdin, one JSON line each on stdout, keeping the
    /// hooks loaded between them (for agents that fire many events)
    Serve(serve::ServeArgs),
    /// List every hook with its matcher, timeout, consent and script state
    #[command(visible_alias = "ls")]
    List(list::ListArgs),
    /// Run an event's hooks against a synthetic payload and show what each one answered
    Test(test_cmd::TestArgs),
    /// Review and approve hooks (asks on a terminal; --yes for scripts)
    Approve(approve::ApproveArgs),
    /// Remove the approvals of a command
    #[command(visible_aliases = ["remove", "rm"])]
    Revoke(revoke::RevokeArgs),
    /// Check every hook and smoke-run the approved ones; exit 1 on problems (a CI gate)
    Doctor(doctor::DoctorArgs),
    /// Print the event table; with an event, its payloads and how a hook answers there
    Events(events::EventsArgs),
    /// Show recent decisions from the audit log: which hook blocked what, and why
    Log(log::LogArgs),
    /// Scaffold a hook that works as it is: an Agent Hooks folder, or a script and the hooks:
    /// entry to paste
    New(new::NewArgs),
    /// Wire an agent to run these hooks: its settings (claude-code, codex, gemini, cursor,
    /// copilot, droid, qwen), or the Hermes plugin (hermes)
    Install(install::InstallArgs),
    /// Remove the wiring `install` wrote (an agent's entries, or the Hermes plugin), leaving no
    /// trace of it
    Uninstall(uninstall::UninstallArgs),
    /// First run: write the recommended rule packs, review and approve them, and wire every
    /// agent on this machine for every project
    Setup(setup::SetupArgs),
    /// Print the completion script for a shell (bash, zsh, fish, elvish, powershell)
    Completions(completions::CompletionsArgs),
}

/// Parses the command line and runs the command.
pub(crate) fn main() -> ExitStatus {
    if let Some(status) = completions::answer() {
        return status;
    }
    if let Some(status) = shared::watch_mode() {
        return status;
    }
    // `run` in its plain form is read without clap's command tree (see `quick`).
    let words: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let parsed = match quick::run_line(&words) {
        Some(cli) => Ok(cli),
        None => command()
            .try_get_matches_from(&words)
            .and_then(|matches| <Cli as clap::FromArgMatches>::from_arg_matches(&matches)),
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => return usage(&err),
    };
    let printer = Printer::new(cli.global.quiet);
    if let Err(err) = person::only(&cli) {
        printer.error(&err);
        return ExitStatus::Error;
    }
    let result = match cli.command {
        Command::Run(args) => run::run(&cli.global, &args, &printer),
        Command::Serve(args) => serve::run(&cli.global, &args, &printer),
        Command::List(args) => list::run(&cli.global, &args, &printer),
        Command::Test(args) => test_cmd::run(&cli.global, &args, &printer),
        Command::Approve(args) => approve::run(&cli.global, &args, &printer),
        Command::Revoke(args) => revoke::run(&cli.global, &args, &printer),
        Command::Doctor(args) => doctor::run(&cli.global, &args, &printer),
        Command::Events(args) => events::run(&cli.global, &args, &printer),
        Command::Log(args) => log::run(&cli.global, &args, &printer),
        Command::New(args) => new::run(&cli.global, &args, &printer),
        Command::Install(args) if args.wiring.agent.is_none() => install_all::run(
            &cli.global,
            &args.wiring,
            (install::Mode::Install, args.if_missing.into()),
            args.also,
            &printer,
        ),
        Command::Install(args) => install::run(&cli.global, &args, &printer),
        Command::Uninstall(args) if args.wiring.all => install_all::run(
            &cli.global,
            &args.wiring,
            (
                install::Mode::Uninstall,
                crate::agents::settings::IfMissing::Allow,
            ),
            false,
            &printer,
        ),
        Command::Uninstall(args) => uninstall::run(&cli.global, &args, &printer),
        Command::Setup(args) => setup::run(&cli.global, &args, &printer),
        Command::Completions(args) => completions::run(&args, &printer),
    };
    match result {
        Ok(status) => status,
        Err(err) if is_broken_pipe(&err) => ExitStatus::Success,
        Err(err) => {
            printer.error(&err);
            ExitStatus::Error
        }
    }
}

/// Help and version go to stdout with status 0; a usage error to stderr with status 1 (clap
/// would use 2, which callers of `run` read as "blocked").
fn usage(err: &clap::Error) -> ExitStatus {
    let _ = err.print();
    match err.kind() {
        clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
            ExitStatus::Success
        }
        _ => ExitStatus::Error,
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory as _;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
        super::command().debug_assert();
    }
}
