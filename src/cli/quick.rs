//! `run`'s command line in the plain form agents send, read without building clap's command
//! tree (on a cold start, building and matching it costs 0.2 ms or more). Anything outside that
//! form goes to clap: help, version, `--`, `=` on a flag, a repeated option, a value that starts
//! with `-`, an unknown word, text that is not UTF-8. Where this reader answers, clap answers the
//! same (the tests compare the two on generated lines).

use std::ffi::OsString;
use std::path::PathBuf;

use super::run::RunArgs;
use super::shared::DispatchArgs;
use super::{Cli, ColorChoice, Command, GlobalArgs};

/// The parsed command line when `argv` (program name first) is a plain `run`; `None` otherwise.
pub(super) fn run_line(argv: &[OsString]) -> Option<Cli> {
    let mut line = Line::default();
    let mut words = argv.get(1..)?.iter();
    while let Some(word) = words.next() {
        let word = word.to_str()?;
        if let Some(long) = word.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            line.long(name, attached, &mut words)?;
        } else if word == "-q" {
            set_flag(&mut line.quiet)?;
        } else if word.starts_with('-') || word.is_empty() {
            return None;
        } else if !line.in_run {
            // The first word is the subcommand; only `run` is read here.
            (word == "run").then_some(())?;
            line.in_run = true;
        } else if line.event.is_none() {
            line.event = Some(word.to_owned());
        } else {
            return None;
        }
    }
    line.into_cli()
}

/// What was read so far.
#[derive(Default)]
#[allow(clippy::struct_excessive_bools)] // one per flag of the command line, as clap's structs have
struct Line {
    in_run: bool,
    event: Option<String>,
    hermes_home: Option<PathBuf>,
    config: Option<PathBuf>,
    user_hooks: Option<PathBuf>,
    project: Option<PathBuf>,
    accept_hooks: bool,
    color: Option<ColorChoice>,
    quiet: bool,
    payload_file: Option<PathBuf>,
    dry_run: bool,
    audit_log: Option<PathBuf>,
    audit_payload: bool,
    gate_limit: Option<u32>,
    fail_closed: bool,
    agent: Option<String>,
}

impl Line {
    /// One `--name` or `--name=value`; `None` for anything clap should judge.
    fn long<'a>(
        &mut self,
        name: &str,
        attached: Option<&'a str>,
        words: &mut impl Iterator<Item = &'a OsString>,
    ) -> Option<()> {
        let in_run = self.in_run;
        // A flag takes no value; `--flag=x` goes to clap.
        let flag = |slot: &mut bool| {
            attached
                .is_none()
                .then_some(())
                .and_then(|()| set_flag(slot))
        };
        match name {
            "accept-hooks" => flag(&mut self.accept_hooks),
            "quiet" => flag(&mut self.quiet),
            "dry-run" if in_run => flag(&mut self.dry_run),
            "audit-payload" if in_run => flag(&mut self.audit_payload),
            "fail-closed" if in_run => flag(&mut self.fail_closed),
            _ => {
                let value = match attached {
                    Some(value) => value,
                    None => words.next()?.to_str()?,
                };
                // Empty values, values clap would read as a flag, and `=` values of that shape are
                // all clap's to judge.
                if value.is_empty() || value.starts_with('-') {
                    return None;
                }
                match name {
                    "hermes-home" => set_path(&mut self.hermes_home, value),
                    "config" => set_path(&mut self.config, value),
                    "user-hooks" => set_path(&mut self.user_hooks, value),
                    "project" => set_path(&mut self.project, value),
                    // The value as clap's derived enum reads it (no command tree needed).
                    "color" => set_once(
                        &mut self.color,
                        <ColorChoice as clap::ValueEnum>::from_str(value, false).ok()?,
                    ),
                    "payload-file" if in_run => set_path(&mut self.payload_file, value),
                    "audit-log" if in_run => set_path(&mut self.audit_log, value),
                    "gate-limit" if in_run => set_once(&mut self.gate_limit, count(value)?),
                    // Only a name clap would take; anything else is clap's to refuse.
                    "agent" if in_run => {
                        value.parse::<crate::agents::Agent>().ok()?;
                        set_once(&mut self.agent, value.to_owned())
                    }
                    _ => None,
                }
            }
        }
    }

    fn into_cli(self) -> Option<Cli> {
        let event = self.event.filter(|_| self.in_run)?;
        Some(Cli {
            global: GlobalArgs {
                hermes_home: self.hermes_home,
                config: self.config,
                user_hooks: self.user_hooks,
                project: self.project,
                accept_hooks: self.accept_hooks,
                color: self.color.unwrap_or(ColorChoice::Auto),
                quiet: self.quiet,
            },
            command: Command::Run(RunArgs {
                event,
                payload_file: self.payload_file,
                dry_run: self.dry_run,
                agent: self.agent,
                dispatch: DispatchArgs {
                    audit_log: self.audit_log,
                    audit_payload: self.audit_payload,
                    gate_limit: self.gate_limit,
                    fail_closed: self.fail_closed,
                },
            }),
        })
    }
}

/// Sets a flag given once; a second time is clap's error to give.
fn set_flag(slot: &mut bool) -> Option<()> {
    (!*slot).then(|| *slot = true)
}

fn set_once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.is_none().then(|| *slot = Some(value))
}

fn set_path(slot: &mut Option<PathBuf>, value: &str) -> Option<()> {
    set_once(slot, PathBuf::from(value))
}

/// A plain decimal number that fits (a sign, or anything clap might read otherwise, goes to clap).
fn count(value: &str) -> Option<u32> {
    value
        .bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| value.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use clap::FromArgMatches as _;
    use proptest::prelude::*;

    use super::run_line;
    use crate::cli::Cli;

    fn argv(words: &[&str]) -> Vec<OsString> {
        std::iter::once("hermes-hooks")
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect()
    }

    /// What clap makes of the line, as text (the parsed types compare by their Debug form).
    fn by_clap(argv: &[OsString]) -> Result<String, String> {
        crate::cli::command()
            .try_get_matches_from(argv)
            .and_then(|matches| Cli::from_arg_matches(&matches))
            .map(|cli| format!("{cli:?}"))
            .map_err(|err| err.kind().to_string())
    }

    #[test]
    fn the_lines_agents_send_are_read_here_as_clap_reads_them() {
        for words in [
            &["run", "pre_tool_call"][..],
            &["run", "PreToolUse", "--dry-run"],
            &["-q", "run", "pre-tool-call", "--payload-file", "p.json"],
            &[
                "--hermes-home",
                "/h",
                "--user-hooks",
                "/nonexistent",
                "-q",
                "run",
                "pre_tool_call",
            ],
            &["run", "post_llm_call", "--project=/p", "--config", "c.yaml"],
            &[
                "run",
                "pre_verify",
                "--gate-limit",
                "3",
                "--audit-log",
                "a.jsonl",
            ],
            &[
                "--color",
                "never",
                "run",
                "--audit-payload",
                "--accept-hooks",
                "x",
            ],
            &["run", "on_session_end", "--quiet"],
        ] {
            let line = argv(words);
            let quick = run_line(&line).map(|cli| format!("{cli:?}"));
            assert_eq!(
                quick.ok_or_else(|| "declined".to_owned()),
                by_clap(&line),
                "{words:?}"
            );
        }
    }

    #[test]
    fn other_lines_go_to_clap() {
        for words in [
            &[][..],
            &["run"],
            &["list"],
            &["run", "a", "b"],
            &["run", "a", "--help"],
            &["run", "a", "-h"],
            &["--version", "run", "a"],
            &["run", "a", "--", "b"],
            &["run", "a", "--dry-run", "--dry-run"],
            &["run", "a", "--dry-run=true"],
            &["run", "a", "--project", "/p", "--project", "/q"],
            &["run", "a", "--project", "-x"],
            &["run", "a", "--project"],
            &["run", "a", "--project="],
            &["run", "a", "--gate-limit", "+3"],
            &["run", "a", "--gate-limit", "4294967296"],
            &["run", "a", "--color", "Never"],
            &["--dry-run", "run", "a"],
            &["run", "a", "-qq"],
            &["run", "a", "--bogus"],
            &["run", "a", "--proj", "/p"],
            &["help", "run"],
            &["run", ""],
        ] {
            assert!(run_line(&argv(words)).is_none(), "{words:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn text_that_is_not_utf8_goes_to_clap() {
        use std::os::unix::ffi::OsStringExt as _;
        let mut line = argv(&["run", "a", "--project"]);
        line.push(OsString::from_vec(b"/p\xff".to_vec()));
        assert!(run_line(&line).is_none());
    }

    /// Pieces a command line is made of: every option and flag, each in its forms, with values of
    /// every shape this reader and clap might disagree on, and pieces that are not `run`'s.
    const PIECES: &[&[&str]] = &[
        &["-q"],
        &["--quiet"],
        &["--accept-hooks"],
        &["--hermes-home", "/h"],
        &["--hermes-home=/h2"],
        &["--config", "c.yaml"],
        &["--user-hooks", "/u"],
        &["--project", "/p"],
        &["--project=run"],
        &["--project", "pre_tool_call"],
        &["--color", "always"],
        &["--color=never"],
        &["--color", "auto"],
        &["--payload-file", "a b"],
        &["--dry-run"],
        &["--audit-log", "l"],
        &["--audit-payload"],
        &["--gate-limit", "3"],
        &["--gate-limit=007"],
        &["--gate-limit", "0"],
        &["--fail-closed"],
        &["--agent", "gemini"],
        &["--agent=claude-code"],
        // Pieces that clap reads otherwise, or rejects (from `PLAIN` on).
        &["--"],
        &["-h"],
        &["--help"],
        &["--version"],
        &["-V"],
        &["--gate-limit", "+3"],
        &["--gate-limit", "4294967296"],
        &["--color", "NEVER"],
        &["--dry-run=1"],
        &["--accept-hooks=true"],
        &["--fail-closed=yes"],
        &["--agent", "Gemini"],
        &["--agent", "vim"],
        &["-qq"],
        &["--project", ""],
        &["--project", "-p"],
        &["--project=-p"],
        &["--project="],
        &["--project"],
        &["extra"],
        &["--bogus"],
        &["-"],
        &["--=x"],
        &["--proj", "/p"],
        &["list"],
        &["help"],
        &["run"],
    ];
    /// How many of [`PIECES`] come before those clap reads otherwise.
    const PLAIN: usize = 23;
    const EVENTS: &[&str] = &[
        "pre_tool_call",
        "PreToolUse",
        "post-tool-call",
        "bogus",
        "run",
        "help",
        "list",
        "-",
        "",
        "a b",
        "--dry-run",
    ];

    /// The pieces picked: a pick below `3 * PLAIN` is a plain piece, so most lines are ones
    /// this reader answers.
    fn pieces(picks: &[usize]) -> impl Iterator<Item = &'static str> + '_ {
        picks
            .iter()
            .map(|&i| {
                if i < 3 * PLAIN {
                    i % PLAIN
                } else {
                    i - 2 * PLAIN
                }
            })
            .flat_map(|i| PIECES[i].iter().copied())
    }

    /// The range of picks for [`pieces`].
    const PICKS: std::ops::Range<usize> = 0..PIECES.len() + 2 * PLAIN;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn where_this_reader_answers_clap_answers_the_same(
            before in proptest::collection::vec(PICKS, 0..4),
            event in 0..EVENTS.len(),
            after in proptest::collection::vec(PICKS, 0..5),
            shuffled in proptest::collection::vec(PICKS, 0..7),
        ) {
            // Lines shaped like `[pieces] run EVENT [pieces]`, and pieces in any order.
            let shaped: Vec<&str> = pieces(&before)
                .chain(["run", EVENTS[event]])
                .chain(pieces(&after))
                .collect();
            let any: Vec<&str> = pieces(&shuffled).collect();
            for words in [shaped, any] {
                let line = argv(&words);
                if let Some(cli) = run_line(&line) {
                    prop_assert_eq!(Ok(format!("{cli:?}")), by_clap(&line), "{:?}", words);
                }
            }
        }
    }
}
