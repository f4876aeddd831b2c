//! Paths as a person reads them: `~/...` under the home (`$HOME`), relative under the project
//! root when that is the current directory, whole otherwise. A shortened path names the same file
//! when pasted into `approve` or `revoke`, which expand `~` and read a relative path from the
//! current directory. A path whose short form could mislead is shown whole: one with `.` or `..`
//! parts, one that a symlink leads out of the folder it is shown under, and a relative form
//! that would start with `~` (it would read as the home) or `-` (it would read as an option).
//! Shortening works on the raw text, before it is sanitised for the terminal, so it never undoes
//! an escape.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Shortens paths against the home and the project root.
#[derive(Debug, Default)]
pub(crate) struct Shortener {
    home: Option<PathBuf>,
    /// The project root, only when it is the current directory (a relative path is read from
    /// there).
    project: Option<PathBuf>,
}

/// Characters that may stand before a path in a word of text (quotes, brackets).
const OPENERS: &[char] = &['`', '\'', '"', '('];
/// Characters that may follow a path in a word of text (quotes, brackets, punctuation).
const CLOSERS: &[char] = &['`', '\'', '"', ')', ',', ';', ':', '.'];

impl Shortener {
    /// Against `$HOME` and, when it is the current directory, the project root `project`.
    pub(crate) fn new(project: Option<&Path>) -> Self {
        let cwd = std::env::current_dir().ok();
        Self::with(
            crate::ground::paths::home_dir(),
            project.filter(|root| cwd.as_deref() == Some(*root)),
        )
    }

    /// Against `home` and `project` (a root taken as the current directory).
    fn with(home: Option<PathBuf>, project: Option<&Path>) -> Self {
        // A home of `/` would make every path a home path.
        let home = home.filter(|home| home.is_absolute() && home.parent().is_some());
        let project = project
            .filter(|root| root.is_absolute())
            .map(Path::to_path_buf);
        Self { home, project }
    }

    /// `path` (an absolute path, as a whole) as a person reads it, or as it is.
    pub(crate) fn path<'t>(&self, path: &'t str) -> Cow<'t, str> {
        self.shorten(path).map_or(Cow::Borrowed(path), Cow::Owned)
    }

    /// `text` with the absolute path that starts each word (after an opening quote or bracket,
    /// before closing punctuation or a `:line`) shortened. A word inside a quotation that
    /// spans words is left as it is: the quotation is something to paste whole.
    pub(crate) fn text(&self, text: &str) -> String {
        let mut quoted = false;
        let words: Vec<Cow<'_, str>> = text
            .split(' ')
            .map(|word| {
                let opens_or_closes = word.matches('\'').count() % 2 == 1;
                let shown = if quoted || opens_or_closes {
                    Cow::Borrowed(word)
                } else {
                    self.word(word)
                };
                quoted ^= opens_or_closes;
                shown
            })
            .collect();
        words.join(" ")
    }

    /// One word with its leading path shortened.
    fn word<'t>(&self, word: &'t str) -> Cow<'t, str> {
        let start = word.trim_start_matches(OPENERS).len();
        let (open, rest) = word.split_at(word.len() - start);
        if !rest.starts_with('/') {
            return Cow::Borrowed(word);
        }
        let mut path = rest.trim_end_matches(CLOSERS);
        if let Some((before, line)) = path.rsplit_once(':')
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
        {
            path = before;
        }
        match self.shorten(path) {
            Some(short) => Cow::Owned(format!("{open}{short}{}", &rest[path.len()..])),
            None => Cow::Borrowed(word),
        }
    }

    /// The short form of `path`, when it has one that does not mislead.
    fn shorten(&self, path: &str) -> Option<String> {
        if !path.starts_with('/') || path[1..].split('/').any(|p| matches!(p, "" | "." | "..")) {
            return None;
        }
        let full = Path::new(path);
        let relative = self.project.as_deref().and_then(|root| {
            let rest = full.strip_prefix(root).ok()?.to_str()?;
            let plain = !rest.is_empty() && !rest.starts_with(['~', '-']);
            (plain && stays_inside(full, root)).then(|| rest.to_owned())
        });
        relative.or_else(|| {
            let home = self.home.as_deref()?;
            let rest = full.strip_prefix(home).ok()?.to_str()?;
            stays_inside(full, home).then(|| match rest {
                "" => "~".to_owned(),
                rest => format!("~/{rest}"),
            })
        })
    }
}

/// Whether `path`, as far as it exists, resolves to a place inside `folder` (a symlink on the
/// way may lead elsewhere). A path that does not exist is judged by its nearest existing folder.
fn stays_inside(path: &Path, folder: &Path) -> bool {
    let Ok(folder) = folder.canonicalize() else {
        return false;
    };
    path.ancestors()
        .find_map(|part| part.canonicalize().ok())
        .is_some_and(|real| real.starts_with(folder))
}

#[cfg(test)]
mod tests {
    use super::Shortener;
    use std::path::Path;

    #[test]
    fn paths_are_shortened_only_where_the_short_form_is_true() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home/alice");
        let root = home.join("src/app");
        std::fs::create_dir_all(root.join(".agents/hooks/guard")).unwrap();
        std::fs::create_dir_all(root.join("~")).unwrap();
        std::fs::create_dir_all(dir.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("elsewhere"), root.join("out")).unwrap();
        let short = Shortener::with(Some(home.clone()), Some(&root));
        let shown = |path: &Path| short.path(path.to_str().unwrap()).into_owned();
        let home_text = home.to_str().unwrap();

        assert_eq!(
            shown(&root.join(".agents/hooks/guard")),
            ".agents/hooks/guard"
        );
        assert_eq!(shown(&home.join(".hermes/x.sh")), "~/.hermes/x.sh");
        assert_eq!(shown(&home), "~");
        // A folder named `~` in the project is not the home.
        assert_eq!(shown(&root.join("~/x")), "~/src/app/~/x");
        // A symlink out of the project: the short form would be a lie, the whole path is not.
        let through_link = root.join("out/run.sh");
        assert_eq!(shown(&through_link), through_link.to_str().unwrap());
        // `..` parts and a name that only starts like the home stay whole.
        let climbing = format!("{home_text}/src/../../bob/x");
        assert_eq!(short.path(&climbing), climbing);
        let sibling = format!("{home_text}ce/x");
        assert_eq!(short.path(&sibling), sibling);

        let text = format!(
            "ok ({home_text}/.hermes/config.yaml:3) `hermes-hooks approve '{home_text}/a b.sh'`"
        );
        assert_eq!(
            short.text(&format!("run `approve '{home_text}/guard.sh'`.")),
            "run `approve '~/guard.sh'`."
        );
        assert_eq!(
            short.text(&text),
            format!("ok (~/.hermes/config.yaml:3) `hermes-hooks approve '{home_text}/a b.sh'`"),
            "a quotation that spans words is left whole"
        );
        // A home of `/` shortens nothing.
        let root_home = Shortener::with(Some("/".into()), None);
        assert_eq!(root_home.path("/etc/passwd"), "/etc/passwd");
    }
}
