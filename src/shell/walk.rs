//! From the grammar's simple commands to the commands that would run: wrappers unwrapped, shells
//! given a script read in turn, `cd` followed, and each command's fields made.

use std::path::Path;

use super::options::{self, Opt, Spec};
use super::syntax::{self, Fed, Item, Producer, Redirect, Simple, Word};
use super::{COMMANDS_MAX, Command, Context, DEPTH_MAX, NESTING_MAX, Reading, Unknown, resolve};

/// Programs that read a script: with `-c` (in any cluster), from a here-string, a heredoc or a
/// pipe.
const SHELLS: [&str; 10] = [
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "pdksh", "fish",
];

/// The most times `parallel` (or `find -exec` with several starts) is written out per command.
const FAN_OUT_MAX: usize = 16;

/// Collects the commands of one line.
pub(super) struct Walker<'a> {
    context: Context<'a>,
    /// The folder commands run in now (changed by `cd`); not absolute when it is unknown.
    cwd: String,
    /// The folders to go back to when a subshell ends.
    saved: Vec<String>,
    out: Reading,
}

impl<'a> Walker<'a> {
    pub(super) fn new(context: Context<'a>) -> Self {
        Self {
            context,
            cwd: context.cwd.to_string_lossy().into_owned(),
            saved: Vec::new(),
            out: Reading::default(),
        }
    }

    pub(super) fn finish(mut self) -> Reading {
        if self.out.undecidable.is_some() {
            self.out.commands.clear();
        }
        self.out
    }

    fn stop(&mut self, why: String) {
        if self.out.undecidable.is_none() {
            self.out.undecidable = Some(why);
        }
    }

    fn stopped(&self) -> bool {
        self.out.undecidable.is_some()
    }

    /// Reads `text` as a script, `depth` scripts deep.
    pub(super) fn script(&mut self, text: &str, depth: usize) {
        if self.stopped() {
            return;
        }
        if depth > DEPTH_MAX {
            self.stop(format!("scripts nest more than {DEPTH_MAX} deep"));
            return;
        }
        if super::nesting(text) > NESTING_MAX {
            self.stop(format!(
                "the command nests brackets or compound commands more than {NESTING_MAX} deep"
            ));
            return;
        }
        // The grammar is another crate's: should it panic on some line, that line is
        // undecidable, never a guard that stopped.
        let home = self.context.home;
        let parsed = std::panic::catch_unwind(|| syntax::parse(text, home));
        match parsed {
            Ok(Ok(items)) => self.items(items, depth),
            Ok(Err(why)) => self.stop(why),
            Err(_) => self.stop("the shell grammar failed on this command".to_owned()),
        }
    }

    /// The words of one command, given as a list (no shell reads them).
    pub(super) fn argv(&mut self, words: &[String]) {
        let words = words.iter().map(|text| Word::plain(text.clone())).collect();
        self.simple(
            Simple {
                words,
                ..Simple::default()
            },
            Vec::new(),
            0,
        );
    }

    fn items(&mut self, items: Vec<Item>, depth: usize) {
        for item in items {
            if self.stopped() {
                return;
            }
            match item {
                Item::Enter => self.saved.push(self.cwd.clone()),
                Item::Leave => {
                    if let Some(cwd) = self.saved.pop() {
                        self.cwd = cwd;
                    }
                }
                Item::Script { text, given_to } => {
                    let label = given_to.map_or_else(
                        || "$(...)".to_owned(),
                        |program| format!("$(...) given to {program}"),
                    );
                    self.script_in(&text, &[label], depth);
                }
                Item::Simple(simple) => self.simple(simple, Vec::new(), depth),
            }
        }
    }

    /// One simple command: its wrappers taken off, then itself.
    fn simple(&mut self, simple: Simple, through: Vec<String>, depth: usize) {
        if self.stopped() {
            return;
        }
        if depth > DEPTH_MAX {
            self.stop(format!("commands nest more than {DEPTH_MAX} deep"));
            return;
        }
        let Simple {
            words,
            redirects,
            fed,
            piped,
        } = simple;
        let Some(first) = words.first() else {
            if !redirects.is_empty() {
                self.push(command(
                    &[],
                    &redirects,
                    fed.as_ref(),
                    &self.cwd,
                    self.context.home,
                    through,
                    None,
                ));
            }
            return;
        };
        if !first.literal {
            let why = format!("the program is `{}`, known only when it runs", first.text);
            let cmd = command(
                &words,
                &redirects,
                fed.as_ref(),
                &self.cwd,
                self.context.home,
                through,
                Some(Unknown::Program(why)),
            );
            self.push(cmd);
            return;
        }
        let texts: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
        let program = basename(&texts[0]);
        let next = Next {
            words: &words,
            redirects: &redirects,
            fed: fed.as_ref(),
            piped: piped.as_ref(),
            through: &through,
            depth,
        };
        if self.unwrapped(program, &texts, &next) {
            return;
        }
        // `cd DIR` changes where the next commands run.
        if matches!(program, "cd" | "pushd") {
            self.change_dir(&words);
        }
        let mut cmd = command(
            &words,
            &redirects,
            fed.as_ref(),
            &self.cwd,
            self.context.home,
            through.clone(),
            None,
        );
        if program == "find" {
            let starts: Vec<String> = cmd_starts(&texts);
            self.push(cmd);
            self.find_exec(&texts, &starts, &next);
            return;
        }
        if SHELLS.contains(&program)
            || program == "busybox" && texts.get(1).is_some_and(|w| SHELLS.contains(&w.as_str()))
        {
            if let Some(unknown) = self.shell(program, &texts, &next) {
                cmd.unknown = Some(unknown);
                self.push(cmd);
            } else {
                self.push(cmd);
            }
            return;
        }
        self.push(cmd);
    }

    fn push(&mut self, cmd: Command) {
        if self.out.commands.len() >= COMMANDS_MAX {
            self.stop(format!(
                "the command holds more than {COMMANDS_MAX} commands"
            ));
            return;
        }
        self.out.commands.push(cmd);
    }

    fn change_dir(&mut self, words: &[Word]) {
        let args: Vec<&Word> = words[1..]
            .iter()
            .filter(|w| !w.text.starts_with('-') || w.text == "-")
            .collect();
        self.cwd = match args.first() {
            None => self.context.home.map_or_else(
                || "~".to_owned(),
                |home| home.to_string_lossy().into_owned(),
            ),
            Some(w) if w.text == "-" => "$OLDPWD".to_owned(),
            Some(w) => resolve(&w.text, &self.cwd, self.context.home),
        };
    }

    /// When `program` runs another command (or a script), reads that instead, and says so.
    #[allow(clippy::too_many_lines)] // one arm per wrapper: a table of their options
    fn unwrapped(&mut self, program: &str, texts: &[String], next: &Next<'_>) -> bool {
        let through = |name: &str| {
            let mut list = next.through.to_vec();
            list.push(name.to_owned());
            list
        };
        let rest_from = |at: usize| -> Option<usize> { (at < texts.len()).then_some(at) };
        let spec = |short: &'static str, long: &'static [&'static str]| Spec {
            short,
            long,
            plus: false,
        };
        let at =
            match program {
                "sudo" => {
                    let mut lists = false;
                    let at = options::walk(
                        texts,
                        1,
                        spec(
                            "ugCDhprtUTR",
                            &[
                                "user",
                                "group",
                                "close-from",
                                "chdir",
                                "host",
                                "prompt",
                                "role",
                                "type",
                                "other-user",
                                "command-timeout",
                                "chroot",
                            ],
                        ),
                        |opt| {
                            if matches!(
                                opt,
                                Opt::Short('l' | 'v' | 'k' | 'K' | 'e', _)
                                    | Opt::Long("list" | "validate" | "edit", _)
                            ) {
                                lists = true;
                            }
                            true
                        },
                    );
                    if lists {
                        return false;
                    }
                    rest_from(at)
                }
                "doas" => rest_from(options::skip(texts, 1, spec("uC", &[]))),
                "pkexec" => rest_from(options::skip(texts, 1, spec("", &["user"]))),
                "command" | "builtin" => {
                    let mut looks_up = false;
                    let at = options::walk(texts, 1, Spec::default(), |opt| {
                        looks_up |= matches!(opt, Opt::Short('v' | 'V', _));
                        true
                    });
                    if looks_up {
                        return false;
                    }
                    rest_from(at)
                }
                "exec" => rest_from(options::skip(texts, 1, spec("a", &[]))),
                // No option of theirs takes a value (`setsid -f`, `--fork`, `-w`, `-c`).
                "nohup" | "setsid" => rest_from(options::skip(texts, 1, Spec::default())),
                "unbuffer" | "time" | "caffeinate" | "catchsegv" | "nocache" => {
                    rest_from(options::skip(texts, 1, spec("fo", &["format", "output"])))
                }
                "nice" => rest_from(options::skip(texts, 1, spec("n", &["adjustment"]))),
                "ionice" => rest_from(options::skip(
                    texts,
                    1,
                    spec("cnp", &["class", "classdata", "pid"]),
                )),
                "stdbuf" => rest_from(options::skip(
                    texts,
                    1,
                    spec("ioe", &["input", "output", "error"]),
                )),
                "chrt" => {
                    let at = options::skip(texts, 1, Spec::default());
                    rest_from(at + 1)
                }
                "taskset" => {
                    let mut list = false;
                    let at = options::walk(texts, 1, Spec::default(), |opt| {
                        list |= matches!(opt, Opt::Short('c', _) | Opt::Long("cpu-list", _));
                        true
                    });
                    let _ = list;
                    rest_from(at + 1)
                }
                "fakeroot" => rest_from(options::skip(texts, 1, spec("lsib", &["lib", "faked"]))),
                "strace" | "ltrace" => rest_from(options::skip(
                    texts,
                    1,
                    spec(
                        "oepsuEaIOSXPb",
                        &["output", "expr", "attach", "string-limit", "user", "env"],
                    ),
                )),
                "timeout" => {
                    let at = options::skip(texts, 1, spec("sk", &["signal", "kill-after"]));
                    rest_from(at + 1)
                }
                "env" => return self.env(texts, next),
                "flock" => return self.flock(texts, next),
                "xargs" => {
                    let at = options::skip(
                        texts,
                        1,
                        // `-i`, `-e`, `-l` and `--replace`, `--eof`, `--max-lines` take a
                        // value only when it is attached (`-i{}`, `--replace=R`): the next word
                        // is the command. BSD's `-J R` takes one.
                        spec(
                            "InPdaELsSJR",
                            &[
                                "max-args",
                                "max-procs",
                                "delimiter",
                                "arg-file",
                                "max-chars",
                                "process-slot-var",
                            ],
                        ),
                    );
                    // Without a command, xargs runs `echo`. Fed by `find`, it gets the files found
                    // under each of find's starting points.
                    if at < texts.len()
                        && let Some(Producer::Command { words, .. }) = next.piped
                        && words.first().is_some_and(|w| basename(&w.text) == "find")
                    {
                        let find: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
                        let mut starts = cmd_starts(&find);
                        if starts.is_empty() {
                            starts.push(".".to_owned());
                        }
                        let mut words = next.words[at..].to_vec();
                        words.extend(starts.iter().take(FAN_OUT_MAX).map(|start| {
                            Word::plain(format!("{}/{{}}", start.trim_end_matches('/')))
                        }));
                        let simple = Simple {
                            words,
                            redirects: next.redirects.to_vec(),
                            fed: next.fed.cloned(),
                            piped: None,
                        };
                        self.simple(simple, through("xargs"), next.depth + 1);
                        return true;
                    }
                    rest_from(at)
                }
                "watch" => {
                    let mut exec = false;
                    let at = options::walk(
                        texts,
                        1,
                        spec("nqs", &["interval", "chgexit", "equexit"]),
                        |opt| {
                            exec |= matches!(opt, Opt::Short('x', _) | Opt::Long("exec", _));
                            true
                        },
                    );
                    if at >= texts.len() {
                        return false;
                    }
                    if !exec {
                        self.script_from(&next.words[at..], &through("watch"), next.depth);
                        return true;
                    }
                    Some(at)
                }
                "eval" => {
                    if texts.len() > 1 {
                        self.script_from(&next.words[1..], &through("eval"), next.depth);
                    }
                    return texts.len() > 1;
                }
                "parallel" => return self.parallel(texts, next),
                "su" | "runuser" => {
                    let mut script = None;
                    let at = options::walk(
                        texts,
                        1,
                        spec(
                            "cgGsuw",
                            &[
                                "command",
                                "group",
                                "supp-group",
                                "shell",
                                "user",
                                "whitelist-environment",
                            ],
                        ),
                        |opt| {
                            if let Opt::Short('c', value) | Opt::Long("command", value) = opt {
                                script = value;
                            }
                            true
                        },
                    );
                    if let Some(script) = script {
                        let word = next.words.iter().find(|w| w.text == script);
                        self.script_word(word, script, &through(program), next.depth);
                        return true;
                    }
                    if program == "runuser" {
                        rest_from(at)
                    } else {
                        return false;
                    }
                }
                "busybox" => {
                    if texts.get(1).is_some_and(|w| SHELLS.contains(&w.as_str())) {
                        return false;
                    }
                    rest_from(1)
                }
                _ => return false,
            };
        let Some(at) = at else {
            return false;
        };
        let simple = next.from(at);
        self.simple(simple, through(program), next.depth + 1);
        true
    }

    /// `env [-i|-] [-u NAME] [-C DIR] [-P PATH] [-S STRING] [NAME=VALUE...] COMMAND...`.
    fn env(&mut self, texts: &[String], next: &Next<'_>) -> bool {
        let mut split = None;
        let mut chdir = None;
        let mut at = options::walk(
            texts,
            1,
            Spec {
                // BSD's `-P PATH` (where to look for the program) takes a value too.
                short: "uCSP",
                long: &[
                    "unset",
                    "chdir",
                    "split-string",
                    "block-signal",
                    "default-signal",
                    "ignore-signal",
                ],
                plus: false,
            },
            |opt| {
                match opt {
                    Opt::Short('S', value) | Opt::Long("split-string", value) => split = value,
                    Opt::Short('C', value) | Opt::Long("chdir", value) => chdir = value,
                    _ => {}
                }
                true
            },
        );
        // A lone `-` is `-i`; assignments come before the command.
        while texts.get(at).is_some_and(|w| w == "-" || is_assignment(w)) {
            at += 1;
        }
        let mut through = next.through.to_vec();
        through.push("env".to_owned());
        let saved = self.cwd.clone();
        if let Some(dir) = chdir {
            self.cwd = resolve(dir, &self.cwd, self.context.home);
        }
        let mut words: Vec<Word> = Vec::new();
        if let Some(split) = split {
            // `-S` splits its string into words, as a shell would (quotes, no expansions).
            let Some(split) = shlex::split(split) else {
                self.push(unknown_script(
                    next,
                    &self.cwd,
                    self.context.home,
                    through.clone(),
                    "env -S gives words that do not split",
                ));
                self.cwd = saved;
                return true;
            };
            // The string may hold assignments of its own (`-S 'PATH=/usr/bin cmd'`).
            words.extend(
                split
                    .into_iter()
                    .skip_while(|w| is_assignment(w))
                    .map(Word::plain),
            );
        }
        words.extend(next.words[at.min(next.words.len())..].iter().cloned());
        if words.is_empty() {
            self.cwd = saved;
            return false;
        }
        let simple = Simple {
            words,
            redirects: next.redirects.to_vec(),
            fed: next.fed.cloned(),
            piped: next.piped.cloned(),
        };
        self.simple(simple, through, next.depth + 1);
        self.cwd = saved;
        true
    }

    /// `flock [options] FILE COMMAND...` or `flock [options] FILE -c SCRIPT`.
    fn flock(&mut self, texts: &[String], next: &Next<'_>) -> bool {
        let spec = Spec {
            short: "wEc",
            long: &["timeout", "wait", "conflict-exit-code", "command"],
            plus: false,
        };
        let mut script = None;
        let mut find_script = |opt: Opt<'_>| {
            if let Opt::Short('c', Some(value)) | Opt::Long("command", Some(value)) = opt {
                script = Some(value.to_owned());
            }
            true
        };
        let file = options::walk(texts, 1, spec, &mut find_script);
        if file >= texts.len() {
            return false;
        }
        let at = options::walk(texts, file + 1, spec, &mut find_script);
        let mut through = next.through.to_vec();
        through.push("flock".to_owned());
        if let Some(script) = script {
            let word = next.words.iter().find(|w| w.text == script);
            self.script_word(word, &script, &through, next.depth);
            return true;
        }
        if at >= texts.len() {
            return false;
        }
        let simple = next.from(at);
        self.simple(simple, through, next.depth + 1);
        true
    }

    /// `parallel [options] COMMAND ::: ARGS...`: the command, run by a shell, once per argument
    /// (read both as the words joined for a shell and as they are, as `-q` runs them); without a
    /// command, each argument is a command line.
    fn parallel(&mut self, texts: &[String], next: &Next<'_>) -> bool {
        let at = options::skip(
            texts,
            1,
            Spec {
                short: "jSIaCdnNsLlEXe",
                long: &[
                    "jobs",
                    "sshlogin",
                    "arg-file",
                    "colsep",
                    "delimiter",
                    "max-args",
                    "halt",
                    "joblog",
                    "results",
                    "timeout",
                    "tmpdir",
                    "workdir",
                    "basefile",
                    "env",
                ],
                plus: false,
            },
        );
        let split = texts[at..]
            .iter()
            .position(|w| w.starts_with(":::"))
            .map_or(texts.len(), |i| at + i);
        let mut through = next.through.to_vec();
        through.push("parallel".to_owned());
        let command: Vec<&Word> = next.words[at.min(split)..split].iter().collect();
        let inputs: Vec<&Word> = next.words[split..]
            .iter()
            .filter(|w| !w.text.starts_with(":::"))
            .take(FAN_OUT_MAX)
            .collect();
        if command.is_empty() {
            // Without a command, each argument is a command line, run by a shell.
            for input in &inputs {
                self.script_from(std::slice::from_ref(*input), &through, next.depth);
            }
            return !inputs.is_empty();
        }
        let runs = parallel_runs(&command, &inputs);
        for (argv, joined) in runs {
            // GNU parallel joins the command's words and gives them to a shell (an argument
            // quoted, so it stays one word), unless `-q` keeps each word as it is: what it runs
            // is read both ways, so the guard holds whichever it is.
            let before = self.out.commands.len();
            self.script_from(&joined, &through, next.depth);
            let read = self.out.commands.len();
            let simple = Simple {
                words: argv,
                redirects: next.redirects.to_vec(),
                fed: next.fed.cloned(),
                piped: next.piped.cloned(),
            };
            self.simple(simple, through.clone(), next.depth + 1);
            // The same commands both ways are kept once.
            if self.out.commands[read..] == self.out.commands[before..read] {
                self.out.commands.truncate(read);
            }
        }
        true
    }

    /// `find ... -exec COMMAND {} ;` (and `-execdir`, `-ok`, `-okdir`): each command, with `{}`
    /// standing for a file under each starting point.
    fn find_exec(&mut self, texts: &[String], starts: &[String], next: &Next<'_>) {
        let mut at = 1;
        while at < texts.len() {
            let word = texts[at].as_str();
            if !matches!(word, "-exec" | "-execdir" | "-ok" | "-okdir") {
                at += 1;
                continue;
            }
            let begin = at + 1;
            let end = texts[begin..]
                .iter()
                .position(|w| w == ";" || w == "+")
                .map_or(texts.len(), |i| begin + i);
            if begin < end {
                let starts: Vec<&str> = if starts.is_empty() {
                    vec!["."]
                } else {
                    starts
                        .iter()
                        .map(String::as_str)
                        .take(FAN_OUT_MAX)
                        .collect()
                };
                for start in starts {
                    let words = next.words[begin..end]
                        .iter()
                        .map(|w| Word {
                            text: w
                                .text
                                .replace("{}", &format!("{}/{{}}", start.trim_end_matches('/'))),
                            literal: w.literal,
                            expansions: w.expansions.clone(),
                        })
                        .collect();
                    let mut through = next.through.to_vec();
                    through.push(format!("find {word}"));
                    let simple = Simple {
                        words,
                        ..Simple::default()
                    };
                    self.simple(simple, through, next.depth + 1);
                }
            }
            at = end + 1;
        }
    }

    /// A shell: its `-c` script, or what it reads on its standard input, is read in turn.
    /// Returns what cannot be known, when the script cannot be read.
    fn shell(&mut self, program: &str, texts: &[String], next: &Next<'_>) -> Option<Unknown> {
        let start = if program == "busybox" { 2 } else { 1 };
        let mut command = false;
        let mut stdin = false;
        let at = options::walk(
            texts,
            start,
            Spec {
                short: "oO",
                long: &["rcfile", "init-file"],
                plus: true,
            },
            |opt| {
                match opt {
                    Opt::Short('c', _) | Opt::Long("command", _) => command = true,
                    Opt::Short('s', _) => stdin = true,
                    _ => {}
                }
                true
            },
        );
        let mut through = next.through.to_vec();
        let name = texts
            .get(start.saturating_sub(1))
            .map_or(program, |w| basename(w));
        if command {
            through.push(format!("{name} -c"));
            let word = next.words.get(at)?;
            if !word.literal {
                return Some(Unknown::Script(format!(
                    "{name} -c runs `{}`, known only when it runs",
                    word.text
                )));
            }
            self.script_in(&word.text, &through, next.depth);
            return None;
        }
        if at < texts.len() && !stdin {
            // A script file: what it does is not on the line.
            if !next.words[at].literal {
                return Some(Unknown::Script(format!(
                    "{name} runs the script `{}`, known only when it runs",
                    next.words[at].text
                )));
            }
            return None;
        }
        through.push(format!("{name} reading its input"));
        if let Some(fed) = next.fed {
            if !fed.literal {
                return Some(Unknown::Script(format!(
                    "{name} reads a heredoc whose text is known only when it runs"
                )));
            }
            self.script_in(&fed.text, &through, next.depth);
            return None;
        }
        if let Some(file) = next.redirects.iter().find(|r| r.op == "<") {
            return Some(Unknown::Script(format!(
                "{name} runs the script in `{}`, which is not on the line",
                file.target.text
            )));
        }
        match next.piped {
            None => None,
            Some(Producer::Command { words, fed }) => {
                if let Some(text) = produced(words, fed.as_ref()) {
                    self.script_in(&text, &through, next.depth);
                    return None;
                }
                let producer = words.first().map_or("a command", |w| basename(&w.text));
                Some(Unknown::Script(format!(
                    "{name} runs what `{producer}` prints, known only when it runs"
                )))
            }
            Some(Producer::Other) => Some(Unknown::Script(format!(
                "{name} runs what the commands before it print, known only when they run"
            ))),
        }
    }

    /// The words of `words`, joined with spaces, read as a script (`eval`, `watch`,
    /// `parallel`).
    fn script_from(&mut self, words: &[Word], through: &[String], depth: usize) {
        if let Some(word) = words.iter().find(|w| !w.literal) {
            let mut cmd = Command {
                program: words
                    .first()
                    .map(|w| basename(&w.text).to_owned())
                    .unwrap_or_default(),
                through: through.to_vec(),
                ..Command::default()
            };
            cmd.args = words.iter().skip(1).map(|w| w.text.clone()).collect();
            cmd.line = line(&words.iter().map(|w| w.text.clone()).collect::<Vec<_>>());
            cmd.unknown = Some(Unknown::Script(format!(
                "{} runs `{}`, known only when it runs",
                through.last().map_or("it", String::as_str),
                word.text
            )));
            self.push(cmd);
            return;
        }
        let text = words
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        self.script_in(&text, through, depth);
    }

    /// A script given as one word (`su -c`, `flock -c`).
    fn script_word(&mut self, word: Option<&Word>, text: &str, through: &[String], depth: usize) {
        if word.is_some_and(|w| !w.literal) {
            let word = Word {
                text: text.to_owned(),
                literal: false,
                expansions: vec![text.to_owned()],
            };
            self.script_from(&[word], through, depth);
            return;
        }
        self.script_in(text, through, depth);
    }

    /// Reads `text` as a script whose commands run through `through`.
    fn script_in(&mut self, text: &str, through: &[String], depth: usize) {
        let before = self.out.commands.len();
        self.saved.push(self.cwd.clone());
        self.script(text, depth + 1);
        if let Some(cwd) = self.saved.pop() {
            self.cwd = cwd;
        }
        for cmd in &mut self.out.commands[before..] {
            let mut list = through.to_vec();
            list.append(&mut cmd.through);
            cmd.through = list;
        }
    }
}

/// What a simple command passes to the one it wraps.
struct Next<'n> {
    words: &'n [Word],
    redirects: &'n [Redirect],
    fed: Option<&'n Fed>,
    piped: Option<&'n Producer>,
    through: &'n [String],
    depth: usize,
}

impl Next<'_> {
    /// The command its words from `at` make, with its redirections and input.
    fn from(&self, at: usize) -> Simple {
        Simple {
            words: self.words[at..].to_vec(),
            redirects: self.redirects.to_vec(),
            fed: self.fed.cloned(),
            piped: self.piped.cloned(),
        }
    }
}

/// The command `words` would be, with nothing known about its script.
fn unknown_script(
    next: &Next<'_>,
    cwd: &str,
    home: Option<&Path>,
    through: Vec<String>,
    why: &str,
) -> Command {
    command(
        next.words,
        next.redirects,
        next.fed,
        cwd,
        home,
        through,
        Some(Unknown::Script(why.to_owned())),
    )
}

/// The text a producer in a pipe prints, when the line shows it: `echo` and `printf` of literal
/// words, `cat` of a heredoc or here-string.
fn produced(words: &[Word], fed: Option<&Fed>) -> Option<String> {
    if words.iter().any(|w| !w.literal) {
        return None;
    }
    let program = basename(&words.first()?.text);
    match program {
        "echo" => {
            let args: Vec<&str> = words[1..]
                .iter()
                .map(|w| w.text.as_str())
                .skip_while(|w| matches!(*w, "-n" | "-e" | "-E" | "-ne" | "-en"))
                .collect();
            Some(args.join(" "))
        }
        "printf" => {
            let format = words.get(1)?;
            if words.len() == 2 && !format.text.contains('%') {
                Some(format.text.replace("\\n", "\n"))
            } else if format.text == "%s\\n" || format.text == "%s" {
                Some(
                    words[2..]
                        .iter()
                        .map(|w| w.text.as_str())
                        .collect::<Vec<_>>()
                        .join("\n"),
                )
            } else {
                None
            }
        }
        "cat" if words.len() == 1 => fed.filter(|f| f.literal).map(|f| f.text.clone()),
        _ => None,
    }
}

/// A command's fields from its words.
fn command(
    words: &[Word],
    redirects: &[Redirect],
    fed: Option<&Fed>,
    cwd: &str,
    home: Option<&Path>,
    through: Vec<String>,
    unknown: Option<Unknown>,
) -> Command {
    let texts: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    let program = texts.first().map_or("", |w| basename(w)).to_owned();
    let (flags, mut operands, subcommand) = split_args(&program, &texts);
    let given_script = matches!(program.as_str(), "sed" | "gsed")
        && flags
            .iter()
            .any(|f| matches!(f.as_str(), "-e" | "-f" | "--expression" | "--file"));
    // The script given to `-e` (sed, perl, `perl -pe`) is not a file.
    if matches!(program.as_str(), "sed" | "gsed" | "perl") {
        for pair in texts.windows(2).skip(1) {
            let script_follows = pair[0] == "--expression"
                || pair[0].starts_with('-') && !pair[0].starts_with("--") && pair[0].ends_with('e');
            if script_follows && let Some(at) = operands.iter().position(|o| *o == pair[1]) {
                operands.remove(at);
            }
        }
    }
    // sed's first operand is its script unless `-e` or `-f` gives one: not a file.
    if matches!(program.as_str(), "sed" | "gsed") && !given_script && !operands.is_empty() {
        operands.remove(0);
    }
    let flags: Vec<String> = flags
        .into_iter()
        .map(|flag| match flag.split_once('=') {
            Some((name, value)) if name.starts_with('-') && path_like(value) => {
                format!("{name}={}", resolve(value, cwd, home))
            }
            _ => flag,
        })
        .collect();
    let paths: Vec<String> = operands
        .iter()
        .flat_map(|word| path_words(word))
        .map(|word| resolve(word, cwd, home))
        .collect();
    let target = if COPIERS.contains(&program.as_str())
        && let Some(dir) = flags.iter().find_map(|f| {
            f.strip_prefix("-t=")
                .or_else(|| f.strip_prefix("--target-directory="))
        }) {
        Some(resolve(dir, cwd, home))
    } else if COPIERS.contains(&program.as_str()) {
        // The last operand, even on another machine (`scp key host:`).
        operands.last().map(|word| {
            if is_url(word) || is_remote(word) {
                word.clone()
            } else {
                resolve(word, cwd, home)
            }
        })
    } else {
        paths.last().cloned()
    };
    let expansions = words
        .iter()
        .skip(1)
        .flat_map(|w| w.expansions.iter().cloned())
        .chain(fed.iter().flat_map(|f| f.expansions.iter().cloned()))
        .collect();
    let redirects = redirects
        .iter()
        .filter(|r| !r.target.text.is_empty())
        .map(|r| format!("{}{}", r.op, resolve(&r.target.text, cwd, home)))
        .collect();
    Command {
        program,
        args: texts.iter().skip(1).cloned().collect(),
        flags,
        subcommand,
        paths,
        target,
        redirects,
        input: fed.map(|f| f.text.clone()),
        expansions,
        line: line(&texts),
        through,
        unknown,
    }
}

/// The options, the operands (with the values of `--long=value`) and the subcommand of a
/// command's words.
fn split_args(program: &str, texts: &[String]) -> (Vec<String>, Vec<String>, Option<String>) {
    let mut flags = Vec::new();
    let mut operands = Vec::new();
    let globals = options::globals(program);
    let mut subcommand = None;
    let mut sub_at = None;
    if let Some(spec) = globals {
        let at = options::skip(texts, 1, spec);
        if let Some(word) = texts.get(at) {
            subcommand = Some(word.clone());
            sub_at = Some(at);
        }
    }
    let mut done = false;
    let mut i = 1;
    while i < texts.len() {
        let word = &texts[i];
        let next_value = texts
            .get(i + 1)
            .filter(|w| !w.starts_with('-') || w.as_str() == "-");
        if Some(i) == sub_at {
            i += 1;
            continue;
        }
        if done || word == "-" || !word.starts_with('-') || word.len() == 1 {
            operands.push(word.clone());
        } else if word == "--" {
            done = true;
        } else if let Some(long) = word.strip_prefix("--") {
            if let Some((name, value)) = long.split_once('=') {
                flags.push(format!("--{name}"));
                flags.push(format!("--{name}={value}"));
                if path_like(value) {
                    operands.push(value.to_owned());
                }
            } else {
                flags.push(word.clone());
                if let Some(value) = next_value {
                    flags.push(format!("{word}={value}"));
                }
            }
        } else {
            let cluster = &word[1..];
            let count = cluster.chars().count();
            for (n, c) in cluster.chars().enumerate() {
                flags.push(format!("-{c}"));
                if n + 1 == count
                    && let Some(value) = next_value
                {
                    flags.push(format!("-{c}={value}"));
                }
            }
        }
        i += 1;
    }
    (flags, operands, subcommand)
}

/// Programs whose last operand (or `-t DIR`) is where they write.
const COPIERS: [&str; 8] = ["cp", "mv", "install", "ln", "rsync", "scp", "ditto", "gcp"];

/// Whether an option's value looks like a file: it has a `/` or starts with `~`.
fn path_like(value: &str) -> bool {
    value.contains('/') || value.starts_with('~')
}

/// The parts of an operand that may name a file: the word (not a URL, not `host:path`), and the
/// value of `key=/path` (`dd of=/dev/sda`).
fn path_words(word: &str) -> Vec<&str> {
    if word.is_empty() || is_url(word) || is_remote(word) {
        return Vec::new();
    }
    let mut out = vec![word];
    if let Some((key, value)) = word.split_once('=')
        && !key.is_empty()
        && !key.contains('/')
        && (value.starts_with('/')
            || value.starts_with('~')
            || value.starts_with('.')
            || value.starts_with('$'))
    {
        out.push(value);
    }
    out
}

/// Whether `word` is a URL (`scheme://...`).
fn is_url(word: &str) -> bool {
    word.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
    })
}

/// Whether `word` names a file on another machine (`host:path`, `user@host:path`).
fn is_remote(word: &str) -> bool {
    word.split_once(':').is_some_and(|(host, _)| {
        !host.is_empty()
            && !host.starts_with(['/', '.', '~', '$'])
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '@'))
    })
}

/// The starting points of `find` (its words before the first expression).
fn cmd_starts(texts: &[String]) -> Vec<String> {
    let at = options::skip(
        texts,
        1,
        Spec {
            short: "DO",
            ..Spec::default()
        },
    );
    texts[at.min(texts.len())..]
        .iter()
        .take_while(|w| !w.starts_with('-') && !matches!(w.as_str(), "(" | "!" | ")"))
        .cloned()
        .collect()
}

/// `NAME=value`.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// A program's name without its folder.
pub(super) fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Words as one line, each quoted where a shell would need it.
fn line(texts: &[String]) -> String {
    let mut out = String::new();
    for (i, text) in texts.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let word = if i == 0 { basename(text) } else { text };
        let plain = !word.is_empty()
            && word.chars().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(
                        c,
                        '-' | '_'
                            | '.'
                            | '/'
                            | '='
                            | ':'
                            | ','
                            | '+'
                            | '@'
                            | '%'
                            | '~'
                            | '$'
                            | '{'
                            | '}'
                            | '*'
                    )
            });
        if plain {
            out.push_str(word);
        } else {
            out.push('\'');
            out.push_str(&word.replace('\'', "'\\''"));
            out.push('\'');
        }
    }
    out
}

/// The runs of `parallel`'s command, one per input: each as argv (as `-q` runs it) and as the
/// words joined for a shell, the input quoted where a shell would split or expand it.
fn parallel_runs(command: &[&Word], inputs: &[&Word]) -> Vec<(Vec<Word>, Vec<Word>)> {
    if inputs.is_empty() {
        let words: Vec<Word> = command.iter().map(|w| (*w).clone()).collect();
        vec![(words.clone(), words)]
    } else {
        inputs
            .iter()
            .map(|input| {
                // Quoted where a shell would split or expand it (a `~` was already put in
                // by the shell that ran parallel).
                let plain = !input
                    .text
                    .chars()
                    .any(|c| c.is_whitespace() || "'\"\\$`;&|<>(){}*?[]#!".contains(c));
                let quoted = if plain {
                    input.text.clone()
                } else {
                    shlex::try_quote(&input.text)
                        .map_or_else(|_| input.text.clone(), std::borrow::Cow::into_owned)
                };
                let (mut argv, mut joined) = (Vec::new(), Vec::new());
                let mut put = false;
                for w in command {
                    if w.text.contains("{}") {
                        put = true;
                        let with = |text: &str| Word {
                            text: w.text.replace("{}", text),
                            literal: w.literal && input.literal,
                            expansions: [w.expansions.clone(), input.expansions.clone()].concat(),
                        };
                        argv.push(with(&input.text));
                        joined.push(with(&quoted));
                    } else {
                        argv.push((*w).clone());
                        joined.push((*w).clone());
                    }
                }
                if !put {
                    argv.push((*input).clone());
                    joined.push(Word {
                        text: quoted,
                        ..(*input).clone()
                    });
                }
                (argv, joined)
            })
            .collect()
    }
}
