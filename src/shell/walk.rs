//! From the grammar's simple commands to the commands that would run: wrappers unwrapped, shells
//! given a script read in turn, `cd` followed, and each command's fields made.

use std::path::Path;

use super::fields::{basename, cmd_starts, command, line};
use super::options::{self, Opt, Spec};
use super::syntax::{self, Fed, Item, Producer, Redirect, Simple, Word};
use super::{COMMANDS_MAX, Command, Context, DEPTH_MAX, NESTING_MAX, Reading, Unknown, resolve};

/// Programs that read a script: with `-c` (in any cluster), from a here-string, a heredoc or a
/// pipe.
pub(super) const SHELLS: [&str; 10] = [
    "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "pdksh", "fish",
];

/// The most times `parallel` (or `find -exec` with several starts) is written out per command.
pub(super) const FAN_OUT_MAX: usize = 16;

/// Collects the commands of one line.
pub(super) struct Walker<'a> {
    pub(super) context: Context<'a>,
    /// The folder commands run in now (changed by `cd`); not absolute when it is unknown.
    pub(super) cwd: String,
    /// The folders to go back to when a subshell ends.
    pub(super) saved: Vec<String>,
    pub(super) out: Reading,
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

    pub(super) fn stop(&mut self, why: String) {
        if self.out.undecidable.is_none() {
            self.out.undecidable = Some(why);
        }
    }

    pub(super) fn stopped(&self) -> bool {
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

    pub(super) fn items(&mut self, items: Vec<Item>, depth: usize) {
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
    pub(super) fn simple(&mut self, simple: Simple, through: Vec<String>, depth: usize) {
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
        if matches!(program, "at" | "batch" | "crontab") {
            let script = scheduled(program, &texts, &next);
            if let Some(Err(unknown)) = &script {
                cmd.unknown = Some(unknown.clone());
            }
            self.push(cmd);
            if let Some(Ok(script)) = script {
                let mut through = next.through.to_vec();
                through.push(format!("{program} reading its input"));
                self.script_in(&script, &through, next.depth);
            }
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

    pub(super) fn push(&mut self, cmd: Command) {
        if self.out.commands.len() >= COMMANDS_MAX {
            self.stop(format!(
                "the command holds more than {COMMANDS_MAX} commands"
            ));
            return;
        }
        self.out.commands.push(cmd);
    }

    pub(super) fn change_dir(&mut self, words: &[Word]) {
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

    /// A shell: its `-c` script, or what it reads on its standard input, is read in turn.
    /// Returns what cannot be known, when the script cannot be read.
    pub(super) fn shell(
        &mut self,
        program: &str,
        texts: &[String],
        next: &Next<'_>,
    ) -> Option<Unknown> {
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
            Some(Producer::Group(parts)) => {
                let texts: Option<Vec<String>> = parts
                    .iter()
                    .map(|(words, fed)| produced(words, fed.as_ref()))
                    .collect();
                if let Some(texts) = texts {
                    self.script_in(&texts.join("\n"), &through, next.depth);
                    return None;
                }
                Some(Unknown::Script(format!(
                    "{name} runs what the commands before it print, known only when they run"
                )))
            }
            Some(Producer::Other) => Some(Unknown::Script(format!(
                "{name} runs what the commands before it print, known only when they run"
            ))),
        }
    }

    /// The words of `words`, joined with spaces, read as a script (`eval`, `watch`,
    /// `parallel`).
    pub(super) fn script_from(&mut self, words: &[Word], through: &[String], depth: usize) {
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
    pub(super) fn script_word(
        &mut self,
        word: Option<&Word>,
        text: &str,
        through: &[String],
        depth: usize,
    ) {
        if word.is_some_and(|w| !w.literal) {
            let word = Word {
                expansions: vec![text.to_owned()],
                literal: false,
                ..Word::plain(text.to_owned())
            };
            self.script_from(&[word], through, depth);
            return;
        }
        self.script_in(text, through, depth);
    }

    /// Reads `text` as a script whose commands run through `through`.
    pub(super) fn script_in(&mut self, text: &str, through: &[String], depth: usize) {
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
pub(super) struct Next<'n> {
    pub(super) words: &'n [Word],
    pub(super) redirects: &'n [Redirect],
    pub(super) fed: Option<&'n Fed>,
    pub(super) piped: Option<&'n Producer>,
    pub(super) through: &'n [String],
    pub(super) depth: usize,
}

impl Next<'_> {
    /// The command its words from `at` make, with its redirections and input.
    pub(super) fn from(&self, at: usize) -> Simple {
        Simple {
            words: self.words[at..].to_vec(),
            redirects: self.redirects.to_vec(),
            fed: self.fed.cloned(),
            piped: self.piped.cloned(),
        }
    }
}

/// Commands given to run later: `at` and `batch` run what they read on their input (`echo "rm
/// -rf ~" | at now`), and `crontab -` installs the table it reads, whose lines end in a command
/// after the schedule. The script to read as a shell fed it would, when the text is on the line;
/// what cannot be known when its input comes from a program whose output is not (`curl ... | at
/// now`); `None` when it reads no input, or only the one the line was given (a job file, `at -f`
/// or `crontab FILE`, is not read).
fn scheduled(program: &str, texts: &[String], next: &Next<'_>) -> Option<Result<String, Unknown>> {
    let flags: Vec<&str> = texts[1..]
        .iter()
        .map(String::as_str)
        .filter(|w| w.starts_with('-') && *w != "-")
        .collect();
    let reads_input = if program == "crontab" {
        // `crontab -` or no operand at all; `-l`, `-r`, `-e` list, remove or edit.
        flags.is_empty() && texts[1..].iter().all(|w| w == "-")
    } else {
        // `-f FILE` runs a file; `-l`, `-r`, `-d`, `-c` list, remove or show jobs.
        !flags.iter().any(|f| f.contains(['f', 'l', 'r', 'd', 'c']))
    };
    if !reads_input {
        return None;
    }
    let unknown = || {
        Err(Unknown::Script(format!(
            "{program} runs later what it reads on its input, known only when it runs"
        )))
    };
    let text = match (next.fed, next.piped) {
        (Some(fed), _) if fed.literal => fed.text.clone(),
        // A heredoc with expansions, or a producer whose output the line does not show.
        (Some(_), _) | (None, Some(Producer::Other)) => return Some(unknown()),
        (None, Some(Producer::Command { words, fed })) => {
            let Some(text) = produced(words, fed.as_ref()) else {
                return Some(unknown());
            };
            text
        }
        // `(crontab -l; echo '...') | crontab -`: the table as it is, then what is added,
        // which is what is read.
        (None, Some(Producer::Group(parts))) => {
            let mut text = String::new();
            for (words, fed) in parts {
                let listing = words.first().is_some_and(|w| basename(&w.text) == program)
                    && words.iter().skip(1).any(|w| w.text == "-l");
                if listing {
                    continue;
                }
                let Some(part) = produced(words, fed.as_ref()) else {
                    return Some(unknown());
                };
                text.push_str(&part);
                text.push('\n');
            }
            text
        }
        (None, None) => return None,
    };
    Some(Ok(if program == "crontab" {
        crontab_commands(&text)
    } else {
        text
    }))
}

/// The commands of a crontab's lines, one a line: what follows the five time fields (or an
/// `@reboot`-style word); comments, blank lines and variable settings left out.
fn crontab_commands(table: &str) -> String {
    let mut out = String::new();
    for line in table.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or_default();
        if !line.starts_with('@') && first.contains('=') {
            continue;
        }
        let fields = if line.starts_with('@') { 1 } else { 5 };
        let mut rest = line;
        for _ in 0..fields {
            rest = rest.trim_start();
            rest = rest.find(char::is_whitespace).map_or("", |at| &rest[at..]);
        }
        out.push_str(rest.trim());
        out.push('\n');
    }
    out
}

/// The command `words` would be, with nothing known about its script.
pub(super) fn unknown_script(
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
pub(super) fn produced(words: &[Word], fed: Option<&Fed>) -> Option<String> {
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
        // `ls` prints the files it is given by the names given (a glob as the shell expands
        // it), one a line when piped; a folder given prints what it holds, read here as the
        // folder. Options that print more than names leave the output unknown.
        "ls" => {
            let mut names = Vec::new();
            for word in &words[1..] {
                match word.text.as_str() {
                    "-1" | "-a" | "-A" | "-d" | "-f" | "-U" | "--" => {}
                    text if text.starts_with('-') => return None,
                    text => names.push(text),
                }
            }
            (!names.is_empty()).then(|| names.join("\n"))
        }
        _ => None,
    }
}
