//! `${VAR}` in config values, replaced as Hermes's config loader replaces it: each `${NAME}` by
//! the variable's value; an unset one is kept as written (and reported). The variables are the
//! process environment, then `<home>/.env` (read only when a value names a variable the
//! environment lacks; `KEY=value` lines).

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Expands `${VAR}` references, reading `.env` at most once.
pub(crate) struct Expander {
    dotenv: Option<PathBuf>,
    /// `.env`'s variables, once read.
    file: Option<HashMap<String, String>>,
    /// Problems met reading `.env`, reported once by the caller.
    pub(crate) dotenv_problem: Option<String>,
}

impl Expander {
    /// An expander that falls back to `dotenv` (when given) for variables the environment lacks.
    pub(crate) fn new(dotenv: Option<&Path>) -> Self {
        Self {
            dotenv: dotenv.map(Path::to_path_buf),
            file: None,
            dotenv_problem: None,
        }
    }

    /// `text` with each `${NAME}` replaced (Python's `re.sub(r"\${([^}]+)}", ...)`), and the names
    /// that are set nowhere (kept as written).
    pub(crate) fn expand(&mut self, text: &str) -> (String, Vec<String>) {
        if !text.contains("${") {
            return (text.to_owned(), Vec::new());
        }
        let mut out = String::with_capacity(text.len());
        let mut unset = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find("${") {
            let after = &rest[start + 2..];
            let Some(len) = after.find('}') else { break };
            if len == 0 {
                // `${}` is no reference: go on after the `$`.
                out.push_str(&rest[..=start]);
                rest = &rest[start + 1..];
                continue;
            }
            let name = &after[..len];
            out.push_str(&rest[..start]);
            if let Some(value) = self.lookup(name) {
                out.push_str(&value);
            } else {
                out.push_str(&rest[start..start + 3 + len]);
                unset.push(name.to_owned());
            }
            rest = &after[len + 1..];
        }
        out.push_str(rest);
        (out, unset)
    }

    fn lookup(&mut self, name: &str) -> Option<String> {
        if let Some(value) = crate::ground::env::var_os(name) {
            return Some(lossy(value));
        }
        self.file().get(name).cloned()
    }

    fn file(&mut self) -> &HashMap<String, String> {
        if self.file.is_none() {
            let (vars, problem) = self
                .dotenv
                .as_deref()
                .map_or_else(|| (HashMap::new(), None), read_dotenv);
            self.dotenv_problem = problem;
            self.file = Some(vars);
        }
        self.file.get_or_insert_with(HashMap::new)
    }
}

fn lossy(value: OsString) -> String {
    value
        .into_string()
        .unwrap_or_else(|value| value.to_string_lossy().into_owned())
}

/// The variables of a `.env` file (a missing file has none), and what could not be read.
fn read_dotenv(path: &Path) -> (HashMap<String, String>, Option<String>) {
    let bytes = match crate::ground::limits::read(path, crate::ground::limits::CONFIG_MAX) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return (HashMap::new(), None);
        }
        Err(err) => return (HashMap::new(), Some(format!("cannot read it: {err}"))),
    };
    let mut vars = HashMap::new();
    let mut skipped = 0;
    for item in dotenvy::from_read_iter(bytes.as_slice()) {
        match item {
            Ok((key, value)) => {
                vars.insert(key, value);
            }
            Err(_) => skipped += 1,
        }
    }
    let problem =
        (skipped > 0).then(|| format!("{skipped} line(s) are not KEY=value and were skipped"));
    (vars, problem)
}

#[cfg(test)]
mod tests {
    use super::Expander;

    #[test]
    fn references_follow_pythons_pattern() {
        let mut e = Expander::new(None);
        // PATH is set for any test process; the others are set nowhere.
        let path = crate::ground::env::var_os("PATH")
            .unwrap()
            .into_string()
            .unwrap();
        let (text, unset) =
            e.expand("a ${PATH} b ${HERMES_HOOKS_NOT_SET_ANYWHERE} ${} $x ${A${B}}");
        assert_eq!(
            text,
            format!("a {path} b ${{HERMES_HOOKS_NOT_SET_ANYWHERE}} ${{}} $x ${{A${{B}}}}")
        );
        assert_eq!(unset, ["HERMES_HOOKS_NOT_SET_ANYWHERE", "A${B"]);
    }

    #[test]
    fn the_dotenv_file_fills_in_what_the_environment_lacks() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(".env");
        std::fs::write(
            &file,
            "# a comment\nHERMES_HOOKS_TEST_GUARD=/opt/guard.sh\nexport QUOTED=\"a b\"\nPATH=/not/used\n",
        )
        .unwrap();
        let mut e = Expander::new(Some(&file));
        let (text, unset) = e.expand("${HERMES_HOOKS_TEST_GUARD} ${QUOTED} ${PATH}");
        let path = crate::ground::env::var_os("PATH")
            .unwrap()
            .into_string()
            .unwrap();
        assert_eq!(text, format!("/opt/guard.sh a b {path}"));
        assert!(unset.is_empty());
        assert!(e.dotenv_problem.is_none());
    }
}
