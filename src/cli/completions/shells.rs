//! Each shell's side of completion: the script `completions <shell>` prints, which calls this
//! binary back as `COMPLETE=<shell> hermes-hooks -- <words>`, and the answer in the form that
//! shell's script reads. Every shell gets only candidates it can insert as one word: one with a
//! control character is left out, and where the shell inserts a candidate as it is (bash,
//! PowerShell), one that is not a plain word is quoted, so a hook's name or command never becomes
//! shell syntax on the user's command line.

use std::ffi::{OsStr, OsString};
use std::io::{self, Write as _};
use std::path::Path;

use clap_complete::Shell;
use clap_complete::engine::CompletionCandidate;
use clap_complete::env::EnvCompleter as _;

use crate::ground::env;

/// The program the scripts complete and call back (found on `PATH`, as the user types it).
const BIN: &str = "hermes-hooks";

/// The bash script: candidates arrive separated by a vertical tab and are taken as they are
/// (filename expansion is off while they are read, so a `*` stays a `*`).
const BASH: &str = r#"
_hermes_hooks() {
    local IFS=$'\013'
    local words=("${COMP_WORDS[@]}")
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        words[COMP_CWORD]="$2"
    fi
    local space=true
    if compopt +o nospace 2> /dev/null; then
        space=false
    fi
    local reply
    reply=$(_CLAP_IFS="$IFS" _CLAP_COMPLETE_INDEX="$COMP_CWORD" COMPLETE=bash hermes-hooks -- "${words[@]}") || return
    local noglob=true
    if [[ $- != *f* ]]; then
        noglob=false
        set -f
    fi
    COMPREPLY=( $reply )
    if [[ $noglob == false ]]; then
        set +f
    fi
    if [[ $space == false && "${COMPREPLY-}" =~ [=/:]$ ]]; then
        compopt -o nospace
    fi
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -o nospace -o bashdefault -o nosort -F _hermes_hooks hermes-hooks
else
    complete -o nospace -o bashdefault -F _hermes_hooks hermes-hooks
fi
"#;

/// The script that registers completion for `shell`.
pub(super) fn registration(shell: Shell) -> Vec<u8> {
    let mut buf = Vec::new();
    let written = match shell {
        Shell::Bash => buf.write_all(BASH.as_bytes()),
        Shell::Zsh => {
            clap_complete::env::Zsh.write_registration(env::COMPLETE, BIN, BIN, BIN, &mut buf)
        }
        Shell::Fish => {
            clap_complete::env::Fish.write_registration(env::COMPLETE, BIN, BIN, BIN, &mut buf)
        }
        Shell::Elvish => {
            clap_complete::env::Elvish.write_registration(env::COMPLETE, BIN, BIN, BIN, &mut buf)
        }
        _ => clap_complete::env::Powershell.write_registration(
            env::COMPLETE,
            BIN,
            BIN,
            BIN,
            &mut buf,
        ),
    };
    written.expect("writing into memory does not fail");
    buf
}

/// The answer to `shell`'s script for `words` (the command line, program name first).
pub(super) fn answer(
    shell: Shell,
    mut words: Vec<OsString>,
    current_dir: Option<&Path>,
) -> io::Result<Vec<u8>> {
    let index = match shell {
        Shell::Bash | Shell::Zsh | Shell::Elvish => env::var_os(env::CLAP_COMPLETE_INDEX)
            .and_then(|index| index.to_str()?.parse().ok())
            .unwrap_or_default(),
        _ => words.len().saturating_sub(1),
    };
    if words.len() <= index {
        words.resize(index + 1, OsString::new());
    }
    if shell == Shell::Bash {
        // bash passes the word as typed, quotes and all.
        words[index] = unquote(&words[index].to_string_lossy()).into();
    }
    let current = words[index].clone();
    let mut cmd = super::completing(&words[..index]);
    cmd.build();
    let candidates = clap_complete::engine::complete(&mut cmd, words, index, current_dir)?;
    let offered = offered(candidates, &current);
    Ok(render(shell, &offered))
}

/// A candidate as offered: its value and its one line of help.
struct Offer {
    value: String,
    help: Option<String>,
}

/// The candidates to offer for `current`: flags only for a word that starts with `-` (or when
/// nothing else fits), and nothing that cannot be inserted as one word.
fn offered(candidates: Vec<CompletionCandidate>, current: &OsStr) -> Vec<Offer> {
    let is_flag =
        |candidate: &CompletionCandidate| candidate.get_value().to_string_lossy().starts_with('-');
    let typed_flag = current.to_string_lossy().starts_with('-');
    let values_fit = candidates.iter().any(|candidate| !is_flag(candidate));
    candidates
        .into_iter()
        .filter(|candidate| typed_flag || !values_fit || !is_flag(candidate))
        .filter_map(|candidate| {
            let value = candidate.get_value().to_str()?.to_owned();
            let help = candidate.get_help().map(|help| {
                help.to_string()
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            });
            (!value.chars().any(char::is_control)).then_some(Offer { value, help })
        })
        .collect()
}

fn render(shell: Shell, offered: &[Offer]) -> Vec<u8> {
    let lines: Vec<String> = match shell {
        Shell::Bash => offered
            .iter()
            .map(|offer| quoted(&offer.value, '\'', "'\\''"))
            .collect(),
        Shell::Zsh => offered
            .iter()
            .map(|offer| {
                let value = offer.value.replace('\\', "\\\\").replace(':', "\\:");
                match &offer.help {
                    Some(help) => format!("{value}:{}", help.replace('\\', "\\\\")),
                    None => value,
                }
            })
            .collect(),
        Shell::Elvish => offered.iter().map(|offer| offer.value.clone()).collect(),
        Shell::Fish => offered
            .iter()
            .map(|offer| with_help(&offer.value, offer))
            .collect(),
        _ => offered
            .iter()
            .map(|offer| with_help(&quoted(&offer.value, '\'', "''"), offer))
            .collect(),
    };
    let separator = match shell {
        Shell::Bash | Shell::Zsh | Shell::Elvish => env::var_os(env::CLAP_IFS)
            .and_then(|ifs| ifs.into_string().ok())
            .unwrap_or_else(|| "\n".to_owned()),
        _ => "\n".to_owned(),
    };
    let mut text = lines.join(&separator);
    if matches!(shell, Shell::Fish | Shell::PowerShell) && !text.is_empty() {
        text.push('\n');
    }
    text.into_bytes()
}

/// `value` and its help, tab-separated (fish and PowerShell read them so).
fn with_help(value: &str, offer: &Offer) -> String {
    match &offer.help {
        Some(help) => format!("{value}\t{help}"),
        None => value.to_owned(),
    }
}

/// `value` as one shell word: as it is when every character is plain, else between `quote`s,
/// each `quote` inside written as `escaped`.
fn quoted(value: &str, quote: char, escaped: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c);
    if !value.is_empty() && value.chars().all(plain) {
        return value.to_owned();
    }
    format!("{quote}{}{quote}", value.replace(quote, escaped))
}

/// The text a word typed in bash stands for: quotes removed, backslash escapes read; a quote
/// left open reads to the end.
fn unquote(word: &str) -> String {
    let mut text = String::with_capacity(word.len());
    let mut chars = word.chars();
    let mut open: Option<char> = None;
    while let Some(c) = chars.next() {
        match (open, c) {
            (None, '\'' | '"') => open = Some(c),
            (Some(quote), _) if c == quote => open = None,
            (None, '\\') => text.extend(chars.next()),
            (Some('"'), '\\') => match chars.next() {
                Some(next @ ('"' | '\\' | '$' | '`')) => text.push(next),
                Some(next) => {
                    text.push('\\');
                    text.push(next);
                }
                None => text.push('\\'),
            },
            _ => text.push(c),
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::{quoted, unquote};

    #[test]
    fn a_word_bash_is_offered_reads_back_as_the_value() {
        for value in [
            "plain",
            "a b",
            "it's",
            "$(touch x)",
            "a;b",
            "*",
            "",
            "\"q\"",
            "back\\slash",
        ] {
            let word = quoted(value, '\'', "'\\''");
            assert_eq!(unquote(&word), value, "{word}");
        }
        assert_eq!(quoted("pre_tool_call", '\'', "'\\''"), "pre_tool_call");
        assert_eq!(unquote("'my ho"), "my ho");
        assert_eq!(unquote("my\\ ho"), "my ho");
        assert_eq!(unquote("\"a\\\"b"), "a\"b");
    }
}
