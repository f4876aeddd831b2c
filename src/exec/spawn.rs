//! From a command line to a started process: POSIX word splitting (no shell, ever), `~` expansion
//! of each word, the program resolved the way exec would, and a process group of its own.

use std::io;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::ground::paths::expand_tilde;

/// Prepares `words` (program first) to run in `cwd` with `env` added. The error is the
/// `spawn_failed` message ("command not found: X", "command not executable: X", ...).
pub(crate) fn build(words: &[String], cwd: &Path, env: &[(&str, &str)]) -> Result<Command, String> {
    let program = &words[0];
    let resolved = if program.contains('/') {
        let path = cwd.join(program);
        let meta = std::fs::metadata(&path).map_err(|_| format!("command not found: {program}"))?;
        if !meta.is_file() {
            return Err(format!("command not executable: {program} is not a file"));
        }
        if meta.permissions().mode() & 0o111 == 0 {
            let quoted = shlex::try_quote(program).unwrap_or(std::borrow::Cow::Borrowed(program));
            return Err(format!(
                "command not executable: {program} (make it executable: chmod +x {quoted})"
            ));
        }
        path
    } else {
        which::which(program).map_err(|_| format!("command not found: {program}"))?
    };
    let mut cmd = Command::new(resolved);
    cmd.arg0(program)
        .args(&words[1..])
        .current_dir(cwd)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    Ok(cmd)
}

/// The command's words with a leading `~` of each expanded. Errors: unbalanced quotes, or nothing
/// to run.
pub(crate) fn split(command: &str) -> Result<Vec<String>, String> {
    let words = shlex::split(command).ok_or_else(|| {
        format!("command cannot be parsed (unbalanced quotes or trailing backslash): {command}")
    })?;
    if words.is_empty() {
        return Err("empty command".to_owned());
    }
    Ok(words.iter().map(|w| expand_tilde(w).into_owned()).collect())
}

/// Starts the prepared command, turning exec errors into `spawn_failed` messages.
pub(crate) fn start(mut cmd: Command) -> Result<Child, String> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    cmd.spawn().map_err(|err| match err.kind() {
        io::ErrorKind::NotFound => format!("command not found: {program} (or its interpreter)"),
        io::ErrorKind::PermissionDenied => format!("command not executable: {program}"),
        _ => format!("cannot start {program}: {err}"),
    })
}

#[cfg(test)]
mod tests {
    use super::{build, split};
    use std::path::Path;

    #[test]
    fn splits_like_a_shell_without_one() {
        assert_eq!(
            split(r#"guard.sh --msg "a b" 'c;d' e\ f $HOME"#).unwrap(),
            ["guard.sh", "--msg", "a b", "c;d", "e f", "$HOME"]
        );
        assert!(split("a 'b").unwrap_err().contains("cannot be parsed"));
        assert_eq!(split("   ").unwrap_err(), "empty command");
    }

    #[test]
    fn tilde_expands_in_every_word() {
        let words = split("~/a.sh ~/b x~").unwrap();
        assert!(!words[0].starts_with('~') && !words[1].starts_with('~'));
        assert_eq!(words[2], "x~");
    }

    #[test]
    fn missing_and_non_executable_programs() {
        let dir = tempfile::tempdir().unwrap();
        let build = |command: &str, cwd: &Path, env: &[(&str, &str)]| {
            build(&split(command).unwrap(), cwd, env)
        };
        let err = build("./nope.sh", dir.path(), &[]).unwrap_err();
        assert_eq!(err, "command not found: ./nope.sh");
        std::fs::write(dir.path().join("plain.sh"), "echo").unwrap();
        assert_eq!(
            build("./plain.sh", dir.path(), &[]).unwrap_err(),
            "command not executable: ./plain.sh (make it executable: chmod +x ./plain.sh)"
        );
        assert_eq!(
            build("no-such-program-xyz", Path::new("/"), &[]).unwrap_err(),
            "command not found: no-such-program-xyz"
        );
    }
}
