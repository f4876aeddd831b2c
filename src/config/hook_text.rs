//! The texts a hook is known by (its name, its command), shared rather than copied: the hundreds
//! of rules of one file share the file as their command, and their names are slices of one text
//! read with the file, so a `run` makes none of them one by one.

use std::fmt;
use std::ops::{Deref, Range};
use std::sync::Arc;

/// A hook's name or command: a text of its own, or a slice of a text several hooks share.
#[derive(Clone)]
pub struct HookText {
    text: Arc<str>,
    start: u32,
    end: u32,
}

impl HookText {
    /// The whole of `text`, shared with whoever else holds it.
    pub fn shared(text: &Arc<str>) -> Self {
        Self::slice(text, 0..text.len())
    }

    /// `range` of `text`, where it lies inside it on character boundaries; else an empty text
    /// (never another part of `text`).
    pub fn slice(text: &Arc<str>, range: Range<usize>) -> Self {
        let fits = text.get(range.clone()).is_some();
        match (u32::try_from(range.start), u32::try_from(range.end)) {
            (Ok(start), Ok(end)) if fits => Self {
                text: Arc::clone(text),
                start,
                end,
            },
            _ => Self {
                text: Arc::clone(text),
                start: 0,
                end: 0,
            },
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Both ends were checked against the text when the slice was made.
        self.text
            .get(self.start as usize..self.end as usize)
            .unwrap_or_default()
    }
}

impl Deref for HookText {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<std::ffi::OsStr> for HookText {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.as_str().as_ref()
    }
}

impl From<String> for HookText {
    fn from(text: String) -> Self {
        Self::shared(&Arc::from(text))
    }
}

impl From<&str> for HookText {
    fn from(text: &str) -> Self {
        Self::shared(&Arc::from(text))
    }
}

impl From<HookText> for String {
    fn from(text: HookText) -> Self {
        text.as_str().to_owned()
    }
}

impl fmt::Display for HookText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for HookText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq for HookText {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for HookText {}

impl std::hash::Hash for HookText {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for HookText {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for HookText {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for HookText {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<HookText> for &str {
    fn eq(&self, other: &HookText) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<HookText> for String {
    fn eq(&self, other: &HookText) -> bool {
        self == other.as_str()
    }
}

impl serde::Serialize for HookText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::HookText;

    #[test]
    fn a_slice_is_its_part_of_the_shared_text_and_a_bad_range_is_empty() {
        let names: Arc<str> = Arc::from("rm-rootgit-push");
        assert_eq!(HookText::slice(&names, 0..7), "rm-root");
        assert_eq!(HookText::slice(&names, 7..15).as_str(), "git-push");
        assert_eq!(HookText::slice(&names, 7..99), "");
        let accents: Arc<str> = Arc::from("é");
        assert_eq!(HookText::slice(&accents, 0..1), "");
        assert_eq!(
            HookText::from("own".to_owned()),
            HookText::shared(&Arc::from("own"))
        );
    }
}
