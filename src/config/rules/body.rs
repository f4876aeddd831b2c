//! A rule's body (its `when` and `unless` conditions and its message), read from a memo only
//! when a call needs it. With every pack approved a rules file holds hundreds of rules, and a
//! call runs the programs of a few: the rest are passed over by their program bits before a
//! condition is read, so a `run` that read every body back (the conditions' words, literals and
//! needed texts, the messages) paid for hundreds of rules it never asked. A memo keeps each
//! rule's body as one run of bytes, copied as they are and read the first time it is asked for.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::Condition;
use super::recall::Patterns;

/// `when`, `unless`, the message.
type Parts = (Vec<Condition>, Vec<Condition>, String);

/// The body of one rule: in hand, or as its memo's bytes until first asked for.
pub struct Body {
    read: OnceLock<Parts>,
    /// Their bytes as a memo keeps them, while they are not read yet.
    bytes: Option<Box<[u8]>>,
    /// Their file's patterns, given to each condition as it is read.
    patterns: Option<Arc<Patterns>>,
}

impl Body {
    /// A body in hand.
    pub(crate) fn new(when: Vec<Condition>, unless: Vec<Condition>, message: String) -> Self {
        Self {
            read: OnceLock::from((when, unless, message)),
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

    /// Gives every condition its file's patterns, now or as it is read.
    pub(super) fn set_patterns(&mut self, patterns: &Arc<Patterns>) {
        if let Some((when, unless, _)) = self.read.get_mut() {
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
                .as_deref()
                .and_then(|bytes| postcard::from_bytes(bytes).ok())
                .unwrap_or_default();
            if let Some(patterns) = &self.patterns {
                for condition in when.iter_mut().chain(&mut unless) {
                    condition.patterns = Some(Arc::clone(patterns));
                }
            }
            (when, unless, message)
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
        if let (None, Some(bytes)) = (self.read.get(), &self.bytes) {
            return s.serialize_bytes(bytes);
        }
        let bytes = postcard::to_stdvec(self.parts()).map_err(serde::ser::Error::custom)?;
        s.serialize_bytes(&bytes)
    }
}

impl<'de> Deserialize<'de> for Body {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let bytes: crate::ground::bytes::Bytes = Deserialize::deserialize(d)?;
        Ok(Self {
            read: OnceLock::new(),
            bytes: Some(bytes.0),
            patterns: None,
        })
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
        let back: read::Read = postcard::from_bytes(&bytes).unwrap();
        let kept = &back.rules[0].body;
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
            bytes: Some(vec![0xFF, 0xFF, 0xFF].into()),
            patterns: None,
        };
        assert!(kept.when().is_empty() && kept.unless().is_empty() && kept.message().is_empty());
    }
}
