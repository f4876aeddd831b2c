//! A command line read as the shell reads it: the simple commands that would run, each with its
//! program, words, flags, subcommand, files and redirections, through wrappers (`sudo`, `env`,
//! `timeout`, `xargs`, `find -exec`, ...) and into shells given a script (`bash -lc '...'`, a
//! here-string, a heredoc or a pipe fed to a shell). Quoted text given to a program that does not
//! run it stays data. What cannot be known before the line runs (the program is a variable,
//! `eval "$v"`, a script that arrives from another program) is said, never guessed.

mod fields;
mod help;
mod options;
pub(crate) mod programs;
mod syntax;
mod walk;
mod wrappers;

use std::path::{Path, PathBuf};

/// The longest command line read, in bytes: past it the line is undecidable.
pub(crate) const TEXT_MAX: usize = 256 * 1024;
/// The most simple commands one line may give: past it the line is undecidable.
pub(crate) const COMMANDS_MAX: usize = 4096;
/// How deep brackets and compound commands may nest (`((((ls))))`, `if ... then if ...`): the
/// grammar reads them recursively, so a hostile line nested thousands deep would exhaust the
/// stack. Past it the line is undecidable. Real commands nest a few levels.
pub(crate) const NESTING_MAX: usize = 128;
/// How deep scripts may nest (`bash -c "sh -c '...'"`, `$(...)` inside `$(...)`): past it the
/// line is undecidable.
pub(crate) const DEPTH_MAX: usize = 12;

/// Where a command line runs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Context<'a> {
    /// The folder the command starts in, absolute.
    pub cwd: &'a Path,
    /// The home folder (`~`, `$HOME`, `${HOME}`), when known.
    pub home: Option<&'a Path>,
}

/// What a command line would run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reading {
    /// Every simple command, in the order the text gives them.
    pub commands: Vec<Command>,
    /// Why the line as a whole cannot be read (it does not parse, or is past a limit): then no
    /// list of commands can be trusted to be all that would run.
    pub undecidable: Option<String>,
}

/// One simple command, after the wrappers that run it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Command {
    /// The program's basename (`rm` for `/bin/rm`, `\rm` or `"rm"`); empty for a line that only
    /// redirects (`> file`).
    pub program: String,
    /// Every word after the program, quotes removed; `~`, `$HOME` and `${HOME}` put in, other
    /// expansions as written (`$DIR`, `$(pwd)`).
    pub args: Vec<String>,
    /// Options: short clusters split (`-fsSLo x` gives `-f -s -S -L -o`), `--long=value` as
    /// `--long`; an option followed by a value is also given as `OPTION=VALUE` (`-o=x`,
    /// `--output=x`).
    pub flags: Vec<String>,
    /// The first word that is not an option (nor the value of a global option this reader knows,
    /// as `git -C dir`), for programs with subcommands (`git push`, `kubectl delete`).
    pub subcommand: Option<String>,
    /// Each word that may name a file (not an option, not a URL), absolute against the folder the
    /// command runs in and without `.` or `..`; a path behind an unknown variable stays as written.
    pub paths: Vec<String>,
    /// Where the command writes when it copies, moves or links (`cp`, `mv`, `install`, `ln`,
    /// `rsync`, `scp`: `-t DIR`, else the last path), and for any other program its last path.
    pub target: Option<String>,
    /// Each redirection to or from a file: its operator then its target (`>/abs/file`,
    /// `>>/abs/log`, `</abs/in`), the target made absolute as `paths` are.
    pub redirects: Vec<String>,
    /// The text a here-string or heredoc gives the command on its standard input.
    pub input: Option<String>,
    /// The expansions in its words that are known only when it runs, as written (`$TOKEN`,
    /// `${#KEY}`, `$(pwd)`); text in single quotes is not one.
    pub expansions: Vec<String>,
    /// The command as one line: the program and its words, quoted where needed.
    pub line: String,
    /// The wrappers and shells the command ran through (`sudo`, `bash -c`, `find -exec`).
    pub through: Vec<String>,
    /// The folder it runs in: absolute, or as written where the line leaves it unknown (`cd
    /// "$X"`).
    pub folder: String,
    /// What cannot be known about this command before it runs.
    pub unknown: Option<Unknown>,
}

/// What about a command is only known when it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unknown {
    /// The program is an expansion (`$RM -rf ~`, `$(which rm) x`); its words are known.
    Program(String),
    /// The command runs text that is only known then (`eval "$v"`, `sh -c "$s"`, `curl ... |
    /// sh`): anything may run.
    Script(String),
}

impl Unknown {
    /// Why, in words.
    pub(crate) fn why(&self) -> &str {
        match self {
            Self::Program(why) | Self::Script(why) => why,
        }
    }
}

impl Reading {
    /// A reading that could not be made.
    pub(crate) fn undecidable(why: impl Into<String>) -> Self {
        Self {
            commands: Vec::new(),
            undecidable: Some(why.into()),
        }
    }
}

/// A call's reading, made when a rule first needs it and kept for the other rules of the call,
/// with what is asked of it for every rule (see [`Kept::programs`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Kept(
    std::sync::OnceLock<Reading>,
    std::sync::OnceLock<Option<programs::Masks>>,
);

impl Kept {
    /// The reading, made by `make` the first time.
    pub(crate) fn get_or_init(&self, make: impl FnOnce() -> Reading) -> &Reading {
        self.0.get_or_init(make)
    }

    /// What this call runs, as masks, once worked out (by [`Self::programs`]).
    pub(crate) fn known_programs(&self) -> Option<&Option<programs::Masks>> {
        self.1.get()
    }

    /// The programs `reading` (this call's) runs, as a mask, worked out once
    /// ([`programs::of_reading`]).
    pub(crate) fn programs(&self, reading: &Reading) -> Option<programs::Masks> {
        *self.1.get_or_init(|| programs::of_reading(reading))
    }
}

/// Two calls are equal whatever either has read so far.
impl PartialEq for Kept {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

/// Reads `text` as a shell command line run in `context`.
pub(crate) fn read(text: &str, context: Context<'_>) -> Reading {
    if text.len() > TEXT_MAX {
        return Reading::undecidable(format!(
            "the command is {} KB long, more than the {} KB it is read up to",
            text.len() / 1024,
            TEXT_MAX / 1024
        ));
    }
    let mut walker = walk::Walker::new(context);
    walker.script(text, 0);
    walker.finish()
}

/// How deep `text` may nest, counted without reading it: brackets, braces, backticks and the
/// words that open and close compound commands, quoted or not (a bound, never less than what
/// the grammar would meet).
pub(crate) fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0_usize, 0_usize);
    let mut word = String::new();
    let close_word = |word: &mut String, depth: &mut usize, deepest: &mut usize| {
        match word.as_str() {
            "if" | "case" | "for" | "while" | "until" | "select" => {
                *depth += 1;
                *deepest = (*deepest).max(*depth);
            }
            "fi" | "esac" | "done" => *depth = depth.saturating_sub(1),
            _ => {}
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        close_word(&mut word, &mut depth, &mut deepest);
        match c {
            '(' | '{' | '`' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    close_word(&mut word, &mut depth, &mut deepest);
    deepest
}

/// Reads an argument list (Codex's `["bash", "-lc", "..."]`) as the words of one command: no
/// shell splits or unquotes them.
pub(crate) fn read_argv(words: &[String], context: Context<'_>) -> Reading {
    let total: usize = words.iter().map(String::len).sum();
    if total > TEXT_MAX {
        return Reading::undecidable(format!(
            "the command is {} KB long, more than the {} KB it is read up to",
            total / 1024,
            TEXT_MAX / 1024
        ));
    }
    let mut walker = walk::Walker::new(context);
    walker.argv(words);
    walker.finish()
}

/// `path` made absolute against `cwd` (an unknown folder such as `$DIR` stays a prefix) and
/// normalised; `~` and `~/...` are the home folder.
pub(crate) fn resolve(word: &str, cwd: &str, home: Option<&Path>) -> String {
    let joined: PathBuf = if let Some(rest) = word
        .strip_prefix('~')
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    {
        match home {
            Some(home) => home.join(rest.trim_start_matches('/')),
            None => return word.to_owned(),
        }
    } else if word.starts_with('/') {
        PathBuf::from(word)
    } else if let Some(rest) = ["$PWD", "${PWD}", "$(pwd)", "`pwd`"]
        .iter()
        .find_map(|cwd_word| word.strip_prefix(cwd_word))
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    {
        return resolve(&format!(".{rest}"), cwd, home);
    } else if word.starts_with('$') || word.starts_with('~') || word.starts_with('`') {
        // An unknown variable or another user's home: only known when it runs.
        return word.to_owned();
    } else if cwd.starts_with('/') {
        Path::new(cwd).join(word)
    } else {
        // The folder is itself unknown (`cd "$X" && rm -rf y`).
        return format!("{cwd}/{word}");
    };
    let normal = crate::ground::paths::normalized(&joined);
    let text = normal.to_string_lossy();
    if text.is_empty() {
        "/".to_owned()
    } else {
        text.into_owned()
    }
}

#[cfg(test)]
mod tests;
