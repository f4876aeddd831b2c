//! Which word of a hook command names its script, as Hermes picks it (`_command_script_path`):
//! shared by the config (a hook's short name) and consent (the file the pin covers).

/// Extensions that mark a word as the script (case-insensitive), as Hermes reads them.
pub(crate) const SCRIPT_EXTENSIONS: [&str; 13] = [
    ".sh", ".bash", ".zsh", ".fish", ".py", ".pyw", ".rb", ".pl", ".lua", ".js", ".mjs", ".cjs",
    ".ts",
];

/// The word of `command` that names its script: the first word with a script extension, else the
/// first word containing `/` or starting with `~`, else the first word. `None` when the command
/// does not split (unbalanced quotes) or is empty.
pub(crate) fn script_word(command: &str) -> Option<String> {
    script_word_at(&shlex::split(command)?).map(|(_, word)| word.to_owned())
}

pub(crate) fn script_word_at(words: &[String]) -> Option<(usize, &str)> {
    let has_extension = |word: &String| {
        let lower = word.to_ascii_lowercase();
        SCRIPT_EXTENSIONS.iter().any(|ext| lower.ends_with(ext))
    };
    words
        .iter()
        .position(has_extension)
        .or_else(|| {
            words
                .iter()
                .position(|w| w.contains('/') || w.starts_with('~'))
        })
        .or(if words.is_empty() { None } else { Some(0) })
        .map(|index| (index, words[index].as_str()))
}
