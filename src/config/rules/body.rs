//! A rule's body (its `when` and `unless` conditions and its message), read from a memo only
//! when a call needs it. With every pack approved a rules file holds hundreds of rules, and a
//! call runs the programs of a few: the rest are passed over by their program bits before a
//! condition is read, so a `run` that read every body back (the conditions' words, literals and
//! needed texts, the messages) paid for hundreds of rules it never asked. A memo keeps each
//! rule's body as one run of bytes, read the first time it is asked for. Read back from a memo,
//! a body is a range of the memo's own bytes, kept whole and shared by every rule of the file:
//! copying each body out cost a `run` as many allocations and the fresh pages they filled.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Condition;
use super::recall::Patterns;

/// `when`, `unless`, the message.
type Parts = (Vec<Condition>, Vec<Condition>, String);

/// The body of one rule: in hand, or as its memo's bytes until first asked for.
pub struct Body {
    /// Boxed: most bodies are never read, and a rule's size is paid for every rule of a file.
    read: OnceLock<Box<Parts>>,
    /// Their bytes as a memo keeps them, while they are not read yet.
    bytes: Option<Stored>,
    /// Their file's patterns, given to each condition as it is read.
    patterns: Option<Arc<Patterns>>,
}

/// Where a body's bytes are.
#[derive(Clone)]
enum Stored {
    /// A copy of their own.
    Copied(Box<[u8]>),
    /// Just read back: where they lie in the memo's bytes (an address and a length), until
    /// [`Body::keep_in`] is given those bytes. Never read from.
    At(usize, usize),
    /// A range of the memo's bytes, shared by the file's rules.
    Kept(Arc<Vec<u8>>, Range<usize>),
}

impl Stored {
    fn bytes(&self) -> Option<&[u8]> {
        match self {
            Self::Copied(bytes) => Some(bytes),
            Self::At(..) => None,
            Self::Kept(buffer, range) => buffer.get(range.clone()),
        }
    }
}

impl Body {
    /// A body in hand.
    pub(crate) fn new(when: Vec<Condition>, unless: Vec<Condition>, message: String) -> Self {
        Self {
            read: OnceLock::from(Box::new((when, unless, message))),
            bytes: None,
            patterns: None,
        }
    }

    /// Every one must match for the rule to apply.
    pub fn when(&self) -> &[Condition] {
        &self.parts().0
    }

    /// When every one matches (and there is one), the rule does not apply.
    pub fn unless(&self) -> &[Condition] {
        &self.parts().1
    }

    /// What the model (or the person, for `ask`) reads.
    pub fn message(&self) -> &str {
        &self.parts().2
    }

    /// Whether they are still bytes (for tests).
    #[cfg(test)]
    pub(crate) fn unread(&self) -> bool {
        self.read.get().is_none()
    }

    /// Takes its bytes as a range of `buffer`, the memo it was just read back from (which holds
    /// them, as it does when the body was read from those very bytes).
    pub(super) fn keep_in(&mut self, buffer: &Arc<Vec<u8>>) {
        if let Some(Stored::At(address, len)) = self.bytes {
            self.bytes = (address.checked_sub(buffer.as_ptr() as usize))
                .and_then(|start| Some(start..start.checked_add(len)?))
                .filter(|range| range.end <= buffer.len())
                .map(|range| Stored::Kept(Arc::clone(buffer), range));
        }
    }

    /// Gives every condition its file's patterns, now or as it is read.
    pub(super) fn set_patterns(&mut self, patterns: &Arc<Patterns>) {
        if let Some(parts) = self.read.get_mut() {
            let (when, unless, _) = &mut **parts;
            for condition in when.iter_mut().chain(unless) {
                condition.patterns = Some(Arc::clone(patterns));
            }
        }
        self.patterns = Some(Arc::clone(patterns));
    }

    fn parts(&self) -> &Parts {
        self.read.get_or_init(|| {
            // The bytes were written by this binary and came back under the memo's keyed check,
            // so they read. Should they not, no condition is left: the rule applies to every call
            // of its tool, and a guard that blocks then blocks too much rather than nothing.
            let (mut when, mut unless, message): Parts = self
                .bytes
                .as_ref()
                .and_then(Stored::bytes)
                .and_then(|bytes| postcard::from_bytes(bytes).ok())
                .unwrap_or_default();
            if let Some(patterns) = &self.patterns {
                for condition in when.iter_mut().chain(&mut unless) {
                    condition.patterns = Some(Arc::clone(patterns));
                }
            }
            Box::new((when, unless, message))
        })
    }
}

impl Clone for Body {
    fn clone(&self) -> Self {
        Self {
            read: self.read.clone(),
            bytes: self.bytes.clone(),
            patterns: self.patterns.clone(),
        }
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Body")
            .field("when", &self.when())
            .field("unless", &self.unless())
            .field("message", &self.message())
            .finish()
    }
}

impl Serialize for Body {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.read.get().is_none() {
            match &self.bytes {
                Some(Stored::At(..)) => {
                    return Err(serde::ser::Error::custom(
                        "a body not given its memo's bytes",
                    ));
                }
                Some(stored) => {
                    if let Some(bytes) = stored.bytes() {
                        return s.serialize_bytes(bytes);
                    }
                }
                None => {}
            }
        }
        let bytes = postcard::to_stdvec(self.parts()).map_err(serde::ser::Error::custom)?;
        s.serialize_bytes(&bytes)
    }
}

impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Self {
            read: OnceLock::new(),
            bytes: Some(d.deserialize_bytes(Visit)?),
            patterns: None,
        })
    }
}

/// Reads a body's bytes: where they lie when the reader lends them (a memo read whole), else
/// a copy.
struct Visit;

impl<'de> serde::de::Visitor<'de> for Visit {
    type Value = Stored;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a rule's body")
    }

    fn visit_borrowed_bytes<E: serde::de::Error>(self, bytes: &'de [u8]) -> Result<Stored, E> {
        Ok(Stored::At(bytes.as_ptr() as usize, bytes.len()))
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Stored, E> {
        Ok(Stored::Copied(bytes.into()))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Stored, A::Error> {
        let bytes = crate::ground::bytes::Visit.visit_seq(seq)?;
        Ok(Stored::Copied(bytes.0))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Vars, read};

    #[test]
    fn a_body_kept_in_a_memo_is_read_only_when_asked_for_and_reads_the_same() {
        let text = concat!(
            "rules:\n- name: no-rm\n",
            "  when: {program: '^(rm|unlink)$', paths: '^/etc'}\n",
            "  unless: {command: 'dry'}\n  message: stop\n",
        );
        let read = read::read(text.as_bytes(), Vars::default());
        assert!(read.skipped.is_empty(), "{:?}", read.skipped);
        let fresh = &read.rules[0].body;
        let bytes = postcard::to_stdvec(&read).unwrap();
        let memo = bytes.clone();
        let mut back: read::Read = postcard::from_bytes(&memo).unwrap();
        // Lent by the reader, the body is where it lies in those bytes, and is read from them.
        assert!(matches!(
            back.rules[0].body.bytes,
            Some(super::Stored::At(..))
        ));
        // Other bytes do not hold it: nothing is read from them.
        let mut elsewhere = postcard::from_bytes::<read::Read>(&memo).unwrap();
        elsewhere.keep_bodies_in(&std::sync::Arc::new(bytes.clone()));
        assert!(elsewhere.rules[0].body.bytes.is_none());
        let buffer = std::sync::Arc::new(memo);
        back.keep_bodies_in(&buffer);
        let kept = &back.rules[0].body;
        assert!(matches!(kept.bytes, Some(super::Stored::Kept(..))));
        assert!(kept.unread());
        // Written again before it is read, it is the same bytes.
        assert_eq!(postcard::to_stdvec(&back).unwrap(), bytes);
        let fields = |list: &[super::Condition]| -> Vec<String> {
            list.iter().map(|c| c.field.to_string()).collect()
        };
        assert_eq!(fields(kept.when()), fields(fresh.when()));
        assert_eq!(fields(kept.unless()), fields(fresh.unless()));
        assert_eq!(kept.when()[0].words(), Some("rm|unlink"));
        assert_eq!(kept.message(), "stop");
        assert!(!kept.unread());
        assert_eq!(postcard::to_stdvec(&back).unwrap(), bytes);
    }

    #[test]
    fn bytes_that_do_not_read_leave_no_condition_so_the_rule_applies_to_every_call() {
        let kept = super::Body {
            read: std::sync::OnceLock::new(),
            bytes: Some(super::Stored::Copied(vec![0xFF, 0xFF, 0xFF].into())),
            patterns: None,
        };
        assert!(kept.when().is_empty() && kept.unless().is_empty() && kept.message().is_empty());
    }
}
