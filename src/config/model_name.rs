//! The name a config hook goes by wherever the model can read it: `<label>#<sha8>`, as the newest
//! Hermes names its shell hooks (`hook_display_name`, `agent/shell_hooks.py`). A hook's command
//! line may carry a token (`env TOKEN=... guard`, `curl https://user:secret@host`), so only a
//! plain file-name-shaped word from its front is shown, with a short hash of the whole command
//! that tells two hooks apart; the full command stays on stderr, in the audit log and in `list`.

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

/// Programs that run the hook rather than name it: the word after one names it better.
const LAUNCHERS: [&str; 20] = [
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "env",
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "deno",
    "bun",
    "uv",
    "uvx",
    "npx",
    "pwsh",
    "powershell",
];

/// `<label>#<first 8 hex digits of the command's sha256>`; the label is `hook` when no word at
/// the front of the command is safe to show.
pub(crate) fn model_name(command: &str) -> String {
    let digest = Sha256::digest(command.as_bytes());
    let mut short = String::with_capacity(8);
    for byte in &digest[..4] {
        let _ = write!(short, "{byte:02x}");
    }
    let words = shlex::split(command)
        .unwrap_or_else(|| command.split_whitespace().map(str::to_owned).collect());
    let mut label = "";
    for word in &words {
        // A flag: what follows may be a program's text (`-c 'export TOKEN=...'`).
        if word.starts_with('-') {
            break;
        }
        let base = word.rsplit('/').next().unwrap_or(word);
        if !is_plain(base) {
            break;
        }
        label = base;
        let stem = base.split('.').next().unwrap_or(base).to_ascii_lowercase();
        if !LAUNCHERS.contains(&stem.as_str()) {
            break;
        }
    }
    let label = if label.is_empty() { "hook" } else { label };
    format!("{label}#{short}")
}

/// A word shaped like a file name: an ASCII letter or digit, then letters, digits, `.`, `_`,
/// `+` and `-` only.
fn is_plain(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'))
}

#[cfg(test)]
mod tests {
    use std::fmt::Write as _;

    use super::model_name;

    /// The label part of `model_name(command)`.
    fn label(command: &str) -> String {
        model_name(command).split('#').next().unwrap().to_owned()
    }

    #[test]
    fn the_hash_is_the_first_eight_hex_digits_of_the_commands_sha256() {
        let name = model_name("/opt/hooks/guard.sh");
        let (label, hash) = name.split_once('#').unwrap();
        assert_eq!(label, "guard.sh");
        assert_eq!(hash.len(), 8);
        assert!(
            hash.chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
        );
        assert_ne!(
            model_name("/opt/hooks/guard.sh"),
            model_name("/srv/hooks/guard.sh")
        );
        assert_eq!(
            model_name("printf x"),
            format!("printf#{}", &sha256_hex("printf x")[..8])
        );
    }

    fn sha256_hex(text: &str) -> String {
        use sha2::{Digest, Sha256};
        let mut out = String::new();
        for byte in Sha256::digest(text.as_bytes()) {
            let _ = write!(out, "{byte:02x}");
        }
        out
    }

    #[test]
    fn a_launcher_gives_way_to_the_script_it_runs() {
        assert_eq!(
            label("/usr/bin/python3 /p/my-guard.py --strict"),
            "my-guard.py"
        );
        assert_eq!(label("bash ~/hooks/check.sh"), "check.sh");
        assert_eq!(label("bash -c 'echo x'"), "bash");
        assert_eq!(label("node"), "node");
        assert_eq!(label("uvx ruff-guard"), "ruff-guard");
    }

    #[test]
    fn nothing_that_could_hold_a_secret_is_shown() {
        for command in [
            "sh -c 'export TOKEN=s3cret; guard'",
            "env TOKEN=s3cret guard",
            "curl https://user:s3cret@example.com/check",
            "'unbalanced s3cret",
            "TOKEN=s3cret ./guard",
        ] {
            let name = model_name(command);
            assert!(!name.contains("s3cret"), "{command} -> {name}");
        }
        assert_eq!(label("sh -c 'export TOKEN=s3cret; guard'"), "sh");
        assert_eq!(label("env TOKEN=s3cret guard"), "env");
        assert_eq!(label("TOKEN=s3cret ./guard"), "hook");
        assert_eq!(label("'unbalanced s3cret"), "hook");
    }
}
