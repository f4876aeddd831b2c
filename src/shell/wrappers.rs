//! The programs that run another command (`env`, `sudo`, `timeout`, `xargs`, `flock`,
//! `parallel`, `find -exec`, ...): each unwrapped to the command it would run, with its options
//! read as the wrapper reads them.

use super::fields::{basename, cmd_starts, is_assignment};
use super::options::{self, Opt, Spec};
use super::resolve;
use super::syntax::{Producer, Simple, Word};
use super::walk::{FAN_OUT_MAX, Next, SHELLS, Walker, unknown_script};

impl Walker<'_> {
    /// Reads `words` as a command run in `next`'s place, with its redirections and input.
    fn with_words(&mut self, words: Vec<Word>, next: &Next<'_>, through: Vec<String>) {
        let simple = Simple {
            words,
            redirects: next.redirects.to_vec(),
            fed: next.fed.cloned(),
            piped: None,
        };
        self.simple(simple, through, next.depth + 1);
    }

    /// When `program` runs another command (or a script), reads that instead, and says so.
    #[allow(clippy::too_many_lines)] // one arm per wrapper: a table of their options
    pub(super) fn unwrapped(&mut self, program: &str, texts: &[String], next: &Next<'_>) -> bool {
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
                        self.with_words(words, next, through("xargs"));
                        return true;
                    }
                    // Fed words known on the line (`echo a b | xargs rm`, `printf '%s\n' a |
                    // xargs rm`), it runs its command with them. With a replace string
                    // (`-I {}`) each goes where the string is, which is left as it is.
                    let replaces = texts[1..at].iter().any(|w| {
                        w.starts_with("-I") || w.starts_with("-i") || w.starts_with("--replace")
                    });
                    if at < texts.len()
                        && !replaces
                        && let Some(Producer::Command { words, fed }) = next.piped
                        && let Some(text) = super::walk::produced(words, fed.as_ref())
                    {
                        let mut words = next.words[at..].to_vec();
                        words.extend(
                            text.split(['\n', ' ', '\t', '\0'])
                                .filter(|w| !w.is_empty())
                                .take(FAN_OUT_MAX)
                                .map(|w| Word::plain(w.to_owned())),
                        );
                        self.with_words(words, next, through("xargs"));
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
                // util-linux's terminal recorder: `-c` runs its text in a shell.
                "script" => {
                    let mut script = None;
                    options::walk(
                        texts,
                        1,
                        spec(
                            "cEIOBTmo",
                            &[
                                "command",
                                "echo",
                                "log-in",
                                "log-out",
                                "log-io",
                                "log-timing",
                                "logging-format",
                                "output-limit",
                            ],
                        ),
                        |opt| {
                            if let Opt::Short('c', value) | Opt::Long("command", value) = opt {
                                script = value;
                            }
                            true
                        },
                    );
                    let Some(script) = script else {
                        return false;
                    };
                    let word = next.words.iter().find(|w| w.text == script);
                    self.script_word(word, script, &through(program), next.depth);
                    return true;
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
    pub(super) fn env(&mut self, texts: &[String], next: &Next<'_>) -> bool {
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
    pub(super) fn flock(&mut self, texts: &[String], next: &Next<'_>) -> bool {
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
    pub(super) fn parallel(&mut self, texts: &[String], next: &Next<'_>) -> bool {
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
    pub(super) fn find_exec(&mut self, texts: &[String], starts: &[String], next: &Next<'_>) {
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
                            quoted_globs: Vec::new(),
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
}

/// The runs of `parallel`'s command, one per input: each as argv (as `-q` runs it) and as the
/// words joined for a shell, the input quoted where a shell would split or expand it.
pub(super) fn parallel_runs(command: &[&Word], inputs: &[&Word]) -> Vec<(Vec<Word>, Vec<Word>)> {
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
                            quoted_globs: Vec::new(),
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
