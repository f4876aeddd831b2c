//! A command's fields from its words: its program, flags, operands and subcommand, the paths it
//! names (and which of them it writes), as the rules read them.

use std::path::Path;

use super::help;
use super::options::{self, Spec};
use super::syntax::{Fed, Redirect, Word};
use super::{Command, Unknown, resolve};

/// A command's fields from its words.
pub(super) fn command(
    words: &[Word],
    redirects: &[Redirect],
    fed: Option<&Fed>,
    cwd: &str,
    home: Option<&Path>,
    through: Vec<String>,
    unknown: Option<Unknown>,
) -> Command {
    let mut texts: Vec<String> = words.iter().map(|w| w.text.clone()).collect();
    let program = texts.first().map_or("", |w| basename(w)).to_owned();
    // A request for help is read as what the program does with it: it prints its help.
    let asked_help = unknown.is_none() && help::asked(&program, &texts);
    if asked_help {
        texts.truncate(1);
        texts.push("--help".to_owned());
    }
    let words = if asked_help { &words[..1] } else { words };
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
    let mut flags: Vec<String> = flags
        .into_iter()
        .map(|flag| match flag.split_once('=') {
            Some((name, value)) if name.starts_with('-') && path_like(value) => {
                format!("{name}={}", resolve(value, cwd, home))
            }
            _ => flag,
        })
        .collect();
    flags.extend(written_by_name(&program, &texts, cwd, home));
    // A glob character that was quoted names itself: kept escaped in the path (`rm '*'`).
    let patterns: Vec<(&str, String)> = words
        .iter()
        .filter_map(|w| w.as_pattern().map(|pattern| (w.text.as_str(), pattern)))
        .collect();
    let paths: Vec<String> = operands
        .iter()
        .flat_map(|word| path_words(word))
        .map(|word| {
            let written = patterns
                .iter()
                .find(|(text, _)| *text == word)
                .map_or(word, |(_, pattern)| pattern.as_str());
            resolve(written, cwd, home)
        })
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
        folder: cwd.to_owned(),
        unknown,
    }
}

/// Where a program that spells its options its own way is told to write, as `name=path` flags
/// with the path resolved: `dd of=FILE` (`of=` relative to the folder it runs in), and find's
/// single-dash primaries that write a file (`-fprint FILE`, `-fprint0`, `-fprintf FILE FORMAT`,
/// `-fls`), which the usual reading splits into letters.
fn written_by_name(program: &str, texts: &[String], cwd: &str, home: Option<&Path>) -> Vec<String> {
    let resolved = |name: &str, value: &str| format!("{name}={}", resolve(value, cwd, home));
    match program {
        "dd" => texts
            .iter()
            .skip(1)
            .filter_map(|word| word.strip_prefix("of="))
            .filter(|value| !value.is_empty())
            .map(|value| resolved("of", value))
            .collect(),
        "find" | "gfind" | "bfs" => texts
            .windows(2)
            .skip(1)
            .filter(|pair| {
                matches!(
                    pair[0].as_str(),
                    "-fprint" | "-fprint0" | "-fprintf" | "-fls"
                )
            })
            .map(|pair| resolved(&pair[0], &pair[1]))
            .collect(),
        _ => Vec::new(),
    }
}

/// The options, the operands (with the values of `--long=value`) and the subcommand of a
/// command's words.
pub(super) fn split_args(
    program: &str,
    texts: &[String],
) -> (Vec<String>, Vec<String>, Option<String>) {
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
pub(super) const COPIERS: [&str; 8] = ["cp", "mv", "install", "ln", "rsync", "scp", "ditto", "gcp"];

/// Whether an option's value looks like a file: it has a `/` or starts with `~`.
pub(super) fn path_like(value: &str) -> bool {
    value.contains('/') || value.starts_with('~')
}

/// The parts of an operand that may name a file: the word (not a URL, not `host:path`), and the
/// value of `key=/path` (`dd of=/dev/sda`).
pub(super) fn path_words(word: &str) -> Vec<&str> {
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
pub(super) fn is_url(word: &str) -> bool {
    word.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'))
    })
}

/// Whether `word` names a file on another machine (`host:path`, `user@host:path`).
pub(super) fn is_remote(word: &str) -> bool {
    word.split_once(':').is_some_and(|(host, _)| {
        !host.is_empty()
            && !host.starts_with(['/', '.', '~', '$'])
            && host
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | '@'))
    })
}

/// The starting points of `find` (its words before the first expression).
pub(super) fn cmd_starts(texts: &[String]) -> Vec<String> {
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
pub(super) fn is_assignment(word: &str) -> bool {
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
pub(super) fn line(texts: &[String]) -> String {
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
