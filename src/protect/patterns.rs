//! Paths the shell expands before the program sees them, read as the shell would expand them:
//! globs (`*`, `?`, `[...]`, and `**`, which zsh and bash's `globstar` take across folders),
//! brace lists (`{yaml,json}`) and variables this process knows (`$HERMES_HOME`). A call that
//! names a guard's file through one of them (`rm ~/.hermes/*`, `mv ~/.hermes/config.y?ml x`)
//! names it as surely as by its name.
//!
//! A pattern is matched against each of the guard's own paths one component at a time. What the
//! command quoted comes escaped with a backslash and names itself, as the shell leaves it (`rm
//! '*'` removes a file called `*`; `curl -d '{"q": "{ a(b: $c) }"}'` names no pattern), and so
//! does a bracket or brace that is never closed (`a{`); a glob that cannot be read otherwise
//! stands for any name, so a guard's file is never let through for it.
//! A variable this process does not know stands for any run of folders, but only where a name
//! is written after it, and only to name a guard's path itself (`rm $dir/config.yaml`); a
//! delete of a whole unknown folder (`rm -rf "$dir"`, `rm -rf "$dir/build"`) is left to the
//! rules.

use std::path::{Path, PathBuf};

/// One component of a pattern.
enum Part {
    /// A name with nothing to expand.
    Name(String),
    /// A name the shell expands within one folder: its glob, built the first time a name is
    /// matched against it (most patterns are told apart by their written folders first).
    Glob(String, std::sync::OnceLock<Option<globset::GlobMatcher>>),
    /// Any one name: a glob that could not be read.
    AnyName,
    /// Any run of folders, none included: `**`, or an unknown variable.
    AnyDepth,
}

/// A path as a pattern of components.
pub(super) struct Pattern {
    parts: Vec<Part>,
    /// It holds a variable this process does not know: it counts only where it can name a
    /// guard's path itself (`$d/config.yaml`), never a folder above or a file below one by
    /// the chance of a folder's name.
    loose: bool,
    /// The folders written before the first expansion (`/` when it starts with one; empty
    /// when it starts with an unknown variable).
    fixed: PathBuf,
}

/// Where a pattern's matches lie against one path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Reach {
    /// It can name the path itself.
    pub same: bool,
    /// It can name something inside it.
    pub inside: bool,
    /// It can name a folder above it.
    pub above: bool,
}

/// What a written path comes to: a plain path (variables this process knows put in), or a
/// pattern.
pub(super) enum Target {
    Path(PathBuf),
    Pattern(Pattern),
}

/// How many steps a match may take before it is taken as a match (a hostile pattern of many
/// `**` cannot make it run long).
const STEPS_MAX: u32 = 10_000;

/// `path` as the shell would read it: a plain path when nothing in it expands, else a pattern.
/// A character escaped with a backslash (one the command quoted) names itself.
pub(super) fn target(path: &Path) -> Target {
    let Some(text) = path.to_str() else {
        return Target::Path(path.to_path_buf());
    };
    if !text.contains(['*', '?', '[', '{', '$', '\\']) {
        return Target::Path(path.to_path_buf());
    }
    let (text, unknown) = known_variables(text);
    let parts: Vec<Part> = text
        .split('/')
        .filter(|name| !name.is_empty() && *name != ".")
        .map(part)
        .collect();
    let absolute = text.starts_with('/');
    let plain = |p: &Part| matches!(p, Part::Name(_));
    if parts.iter().all(plain) {
        let written: PathBuf = std::iter::once(if absolute { "/" } else { "" })
            .chain(parts.iter().map(|p| match p {
                Part::Name(name) => name.as_str(),
                _ => "",
            }))
            .collect();
        return Target::Path(crate::ground::paths::normalized(&written));
    }
    // Behind an unknown variable with no name written after it, nothing can be told.
    if unknown && !parts.last().is_some_and(plain) {
        return Target::Path(path.to_path_buf());
    }
    let mut parts = parts;
    if !absolute {
        parts.insert(0, Part::AnyDepth);
    }
    let fixed = fixed_of(&parts, absolute);
    Target::Pattern(Pattern {
        parts,
        loose: unknown,
        fixed,
    })
}

/// Each character of `text` with whether a backslash escapes it (the backslash left out).
fn chars(text: &str) -> impl Iterator<Item = (char, bool)> + '_ {
    let mut rest = text.chars();
    std::iter::from_fn(move || match rest.next()? {
        '\\' => Some(rest.next().map_or(('\\', false), |c| (c, true))),
        c => Some((c, false)),
    })
}

/// Whether `text` holds one of `set` that no backslash escapes.
fn holds_bare(text: &str, set: &[char]) -> bool {
    chars(text).any(|(c, escaped)| !escaped && set.contains(&c))
}

/// The path of the plain names `parts` start with.
fn fixed_of(parts: &[Part], absolute: bool) -> PathBuf {
    let mut fixed = PathBuf::from(if absolute { "/" } else { "" });
    for part in parts {
        match part {
            Part::Name(name) => fixed.push(name),
            _ => break,
        }
    }
    fixed
}

/// `text` with each variable this process has set put in (`$NAME`, `${NAME}`); each one that
/// is not set becomes `$`, which [`part`] reads as any run of folders. Whether one was not set.
fn known_variables(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut unknown = false;
    let mut rest = text;
    while let Some(at) = bare_dollar(rest) {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, len) = if let Some(inner) = after.strip_prefix('{') {
            match inner.find('}') {
                Some(end) => (&inner[..end], end + 2),
                None => (inner, after.len()),
            }
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            (&after[..end], end)
        };
        let simple = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        match simple.then(|| crate::ground::env::var_os(name)).flatten() {
            Some(value) if !value.is_empty() => out.push_str(&value.to_string_lossy()),
            _ => {
                unknown = true;
                out.push('$');
            }
        }
        rest = &after[len.min(after.len())..];
    }
    out.push_str(rest);
    (out, unknown)
}

/// Where the first `$` that no backslash escapes is in `text`.
fn bare_dollar(text: &str) -> Option<usize> {
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        match c {
            '$' if !escaped => return Some(at),
            '\\' if !escaped => escaped = true,
            _ => escaped = false,
        }
    }
    None
}

/// One component read.
fn part(name: &str) -> Part {
    let mut star = false;
    let any_depth = chars(name).any(|(c, escaped)| {
        let doubled = star && c == '*' && !escaped;
        star = c == '*' && !escaped;
        doubled || (c == '$' && !escaped)
    });
    if any_depth {
        return Part::AnyDepth;
    }
    if !holds_bare(name, &['*', '?', '[', '{', '(']) {
        return Part::Name(chars(name).map(|(c, _)| c).collect());
    }
    // A ksh or zsh extended glob (`@(a|b)`, `!(x)`) is taken as any name, as is `*`.
    if holds_bare(name, &['(']) || name == "*" {
        return Part::AnyName;
    }
    Part::Glob(name.to_owned(), std::sync::OnceLock::new())
}

/// `written` as a glob; a bracket or brace the shell would leave as it is because it is never
/// closed (or never opened) names itself. `None`: it cannot be read.
fn glob(written: &str) -> Option<globset::GlobMatcher> {
    let build = |text: &str| {
        globset::GlobBuilder::new(text)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .ok()
            .map(|glob| glob.compile_matcher())
    };
    build(written).or_else(|| {
        let count = |c: char| chars(written).filter(|&(x, e)| x == c && !e).count();
        let lone: Vec<char> = [('[', ']'), ('{', '}')]
            .into_iter()
            .filter(|&(open, close)| count(open) != count(close))
            .flat_map(|(open, close)| [open, close])
            .collect();
        if lone.is_empty() {
            return None;
        }
        let mut text = String::with_capacity(written.len() + 4);
        for (c, escaped) in chars(written) {
            if escaped || lone.contains(&c) {
                text.push('\\');
            }
            text.push(c);
        }
        build(&text)
    })
}

impl Part {
    fn matches(&self, name: &str) -> bool {
        match self {
            Self::Name(own) => own == name,
            Self::Glob(written, compiled) => compiled
                .get_or_init(|| glob(written))
                .as_ref()
                // A glob that cannot be read is taken as any name.
                .is_none_or(|glob| glob.is_match(name)),
            Self::AnyName | Self::AnyDepth => true,
        }
    }
}

impl Pattern {
    /// Where the pattern's matches lie against `path` (absolute, normalized).
    pub(super) fn reach(&self, path: &Path) -> Reach {
        let names: Vec<&str> = path
            .components()
            .filter_map(|c| match c {
                std::path::Component::Normal(name) => Some(name.to_str().unwrap_or("\u{fffd}")),
                _ => None,
            })
            .collect();
        let mut reach = Reach::default();
        let mut steps = 0;
        walk(&self.parts, &names, &mut reach, &mut steps);
        if steps > STEPS_MAX {
            // Too many ways to match to try them all: taken as reaching it every way.
            reach = Reach {
                same: true,
                inside: true,
                above: true,
            };
        }
        if self.loose {
            reach.inside = false;
            reach.above = false;
        }
        reach
    }

    /// The pattern with the folders written before its first expansion followed to where they
    /// really are, when that differs.
    pub(super) fn real(&self) -> Option<Self> {
        let fixed = self
            .parts
            .iter()
            .take_while(|p| matches!(p, Part::Name(_)))
            .count();
        if fixed == 0 {
            return None;
        }
        let named: PathBuf = std::iter::once("/".to_owned())
            .chain(self.parts[..fixed].iter().filter_map(|p| match p {
                Part::Name(name) => Some(name.clone()),
                _ => None,
            }))
            .collect();
        let real = crate::ground::paths::real(&named).ok()?;
        if real == named {
            return None;
        }
        let mut parts: Vec<Part> = real
            .components()
            .filter_map(|c| match c {
                std::path::Component::Normal(name) => {
                    Some(Part::Name(name.to_string_lossy().into_owned()))
                }
                _ => None,
            })
            .collect();
        parts.extend(self.parts[fixed..].iter().map(Part::copy));
        let fixed = fixed_of(&parts, true);
        Some(Self {
            parts,
            loose: self.loose,
            fixed,
        })
    }

    /// The folders written before the first expansion.
    pub(super) fn fixed(&self) -> &Path {
        &self.fixed
    }

    /// Whether the last component is an expansion (it may name files beside a path, such as
    /// the allowlist's copies).
    pub(super) fn ends_open(&self) -> bool {
        !matches!(self.parts.last(), Some(Part::Name(_)) | None)
    }
}

impl Part {
    fn copy(&self) -> Self {
        match self {
            Self::Name(name) => Self::Name(name.clone()),
            Self::Glob(written, glob) => Self::Glob(written.clone(), glob.clone()),
            Self::AnyName => Self::AnyName,
            Self::AnyDepth => Self::AnyDepth,
        }
    }
}

/// Matches `parts` against `names`, noting in `reach` each way they meet.
fn walk(parts: &[Part], names: &[&str], reach: &mut Reach, steps: &mut u32) {
    *steps += 1;
    if *steps > STEPS_MAX {
        return;
    }
    match (parts.split_first(), names.split_first()) {
        (None, None) => reach.same = true,
        (None, Some(_)) => reach.above = true,
        (Some((Part::AnyDepth, rest)), _) => {
            // None of the folders, or one more.
            walk(rest, names, reach, steps);
            if let Some((_, after)) = names.split_first() {
                walk(parts, after, reach, steps);
            } else {
                reach.inside = true;
            }
        }
        (Some(_), None) => reach.inside = true,
        (Some((part, rest)), Some((name, after))) => {
            if part.matches(name) {
                walk(rest, after, reach, steps);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Reach, Target, target};
    use std::path::Path;

    fn reach(pattern: &str, path: &str) -> Reach {
        match target(Path::new(pattern)) {
            Target::Pattern(p) => p.reach(Path::new(path)),
            Target::Path(p) => panic!("{pattern} read as the path {}", p.display()),
        }
    }

    #[test]
    fn globs_and_brace_lists_reach_the_files_they_would_name() {
        let own = "/h/.hermes/config.yaml";
        for pattern in [
            "/h/.hermes/*",
            "/h/.hermes/config.y?ml",
            "/h/.hermes/config.{yaml,json}",
            "/h/.hermes/[c]onfig.yaml",
            "/h/.hermes/c*",
            "/h/**/config.yaml",
            "/h/**",
            "/*/.hermes/config.yaml",
        ] {
            let r = reach(pattern, own);
            assert!(r.same, "{pattern}: {r:?}");
        }
        assert!(reach("/h/.h*", own).above);
        assert!(reach("/*", own).above);
        assert!(reach("/h/.hermes/config.yaml/*", own).inside);
        for pattern in [
            "/h/.hermes/x*",
            "/h/.hermes/config.{yml,json}",
            "/h/other/*",
            "/tmp/*",
        ] {
            assert_eq!(reach(pattern, own), Reach::default(), "{pattern}");
        }
    }

    #[test]
    fn variables_are_put_in_or_stand_for_any_folders() {
        let home = crate::ground::env::var_os("HOME").unwrap();
        match target(Path::new("$HOME/x")) {
            Target::Path(p) => assert_eq!(p, Path::new(&home).join("x")),
            Target::Pattern(_) => panic!("a known variable is put in"),
        }
        let r = reach(
            "$NO_SUCH_VARIABLE_HERE/config.yaml",
            "/h/.hermes/config.yaml",
        );
        assert!(r.same);
        // Only the path itself: not a file below a guard's file, nor a folder above one that
        // happens to share a name.
        for pattern in [
            "$NO_SUCH_VARIABLE_HERE/test-dir",
            "$NO_SUCH_VARIABLE_HERE/.hermes",
        ] {
            assert_eq!(reach(pattern, "/h/.hermes/config.yaml"), Reach::default());
        }
        assert!(matches!(
            target(Path::new("$NO_SUCH_VARIABLE_HERE")),
            Target::Path(_)
        ));
        assert!(matches!(
            target(Path::new("/p/${NO_SUCH_VARIABLE_HERE}/*")),
            Target::Path(_)
        ));
    }

    #[test]
    fn an_escaped_character_names_itself() {
        for (written, path) in [
            ("/p/\\{a,b\\}", "/p/{a,b}"),
            ("/p/\\$HOME/x", "/p/$HOME/x"),
            ("/p/a\\*b/\\[c\\]", "/p/a*b/[c]"),
            ("/p/a\\\\b", "/p/a\\b"),
            (
                "/p/m \\{ f\\(k: \\{v: \"redis:/prod\"\\}\\) \\}",
                "/p/m { f(k: {v: \"redis:/prod\"}) }",
            ),
        ] {
            match target(Path::new(written)) {
                Target::Path(p) => assert_eq!(p, Path::new(path), "{written}"),
                Target::Pattern(_) => panic!("{written} read as a pattern"),
            }
        }
        let own = "/p/.agents/rules.yaml";
        assert!(reach("/p/.agents/\\{x\\}*", "/p/.agents/{x}.yaml").same);
        assert_eq!(reach("/p/.agents/\\{x\\}*", own), Reach::default());
        assert_eq!(reach("/p/.agents/\\$x*", own), Reach::default());
    }

    #[test]
    fn a_bracket_or_brace_never_closed_names_itself() {
        let own = "/p/.agents/rules.yaml";
        assert_eq!(reach("/p/.agents/rules.yaml{*", own), Reach::default());
        assert_eq!(reach("/p/*/[rules.yaml", own), Reach::default());
        assert!(reach("/p/*/[rules.yaml", "/p/x/[rules.yaml").same);
        assert!(reach("/p/.agents/rul}es*", "/p/.agents/rul}es.yaml").same);
        // Read but not closed the way globs close them: any name, never let through.
        assert!(reach("/p/.agents/[z-a]*", own).same);
    }

    #[test]
    fn a_pattern_of_many_stars_is_cut_short_as_a_match() {
        let pattern = "/**".repeat(200) + "/x";
        let path = "/a".repeat(60);
        let r = reach(&pattern, &path);
        assert!(r.same || r.above || r.inside);
    }
}
