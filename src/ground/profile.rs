//! The Hermes profile a payload names when its input names none: derived from the Hermes home
//! as Hermes's `get_active_profile_name` does (`hermes_cli/profiles.py`).

use std::path::{Path, PathBuf};

/// A profile name Hermes takes (`_PROFILE_ID_RE`: `^[a-z0-9][a-z0-9_-]{0,63}$`).
fn is_profile_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && name.len() <= 64
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

/// The folder as Hermes compares it (`Path.resolve()`): symlinks followed where it exists.
fn resolved(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// [`active`], worked out once per process for a home (and user home): a `serve` answering
/// many calls follows the home's symlinks for the first of them only. A home moved under a
/// running `serve` keeps the profile name it had, as a running agent keeps its own.
pub(crate) fn active_once(home: &Path, user_home: Option<&Path>) -> String {
    type Known = Option<(PathBuf, Option<PathBuf>, String)>;
    static KNOWN: std::sync::Mutex<Known> = std::sync::Mutex::new(None);
    let mut known = KNOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((h, u, name)) = known.as_ref()
        && h == home
        && u.as_deref() == user_home
    {
        return name.clone();
    }
    let name = active(home, user_home);
    *known = Some((
        home.to_path_buf(),
        user_home.map(Path::to_path_buf),
        name.clone(),
    ));
    name
}

/// The active profile for Hermes home `home`, with the user's home folder `user_home`:
/// `<anything>/profiles/<name>` is `<name>` (a name Hermes takes); the default home
/// (`~/.hermes`) is `default`; another folder under it is `custom`; a home elsewhere (a Docker
/// or CI deployment, where that home is the default one) is `default`.
pub(crate) fn active(home: &Path, user_home: Option<&Path>) -> String {
    let home = resolved(home);
    if let (Some(parent), Some(name)) = (home.parent(), home.file_name().and_then(|n| n.to_str()))
        && parent.file_name().and_then(|n| n.to_str()) == Some("profiles")
        && is_profile_name(name)
    {
        return name.to_owned();
    }
    match user_home.map(|dir| resolved(&dir.join(".hermes"))) {
        Some(default) if home != default && home.starts_with(&default) => "custom".to_owned(),
        _ => "default".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::active;
    use std::path::Path;

    /// `hermes_cli/profiles.py` `get_active_profile_name`, as the newest Hermes source has it.
    #[test]
    fn a_profile_is_named_as_hermes_names_it() {
        let user = Path::new("/nonexistent-user");
        for (home, profile) in [
            ("/nonexistent-user/.hermes", "default"),
            ("/nonexistent-user/.hermes/profiles/work", "work"),
            ("/x/profiles/ci", "ci"),
            ("/nonexistent-user/.hermes/sandbox", "custom"),
            ("/nonexistent-user/.hermes/profiles/Work", "custom"),
            ("/opt/data", "default"),
            ("/x/profiles/-bad", "default"),
        ] {
            assert_eq!(active(Path::new(home), Some(user)), profile, "{home}");
        }
        assert_eq!(active(Path::new("/srv/hermes"), None), "default");
    }
}
