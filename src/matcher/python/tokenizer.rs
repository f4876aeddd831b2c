//! Python's `re._parser.Tokenizer`: a pattern as tokens (a character, or a backslash and the
//! character after it), with positions counted in characters for Python's error messages.

use super::PyError;

/// A token: one character, or a backslash and the character after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tk {
    Char(char),
    Esc(char),
}

impl Tk {
    pub(super) const fn len(self) -> usize {
        match self {
            Self::Char(_) => 1,
            Self::Esc(_) => 2,
        }
    }
}

/// `re._parser.Tokenizer`.
pub(super) struct Tokenizer<'a> {
    chars: &'a [char],
    index: usize,
    /// The token about to be read, as Python's `source.next`.
    pub(super) next: Option<Tk>,
}

impl<'a> Tokenizer<'a> {
    pub(super) fn new(chars: &'a [char]) -> Result<Self, PyError> {
        let mut tokenizer = Self {
            chars,
            index: 0,
            next: None,
        };
        tokenizer.advance()?;
        Ok(tokenizer)
    }

    pub(super) fn advance(&mut self) -> Result<(), PyError> {
        let Some(&c) = self.chars.get(self.index) else {
            self.next = None;
            return Ok(());
        };
        if c == '\\' {
            let Some(&escaped) = self.chars.get(self.index + 1) else {
                return Err(self.error_at("bad escape (end of pattern)", self.chars.len() - 1));
            };
            self.index += 2;
            self.next = Some(Tk::Esc(escaped));
        } else {
            self.index += 1;
            self.next = Some(Tk::Char(c));
        }
        Ok(())
    }

    pub(super) fn matches(&mut self, c: char) -> Result<bool, PyError> {
        if self.next == Some(Tk::Char(c)) {
            self.advance()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    pub(super) fn get(&mut self) -> Result<Option<Tk>, PyError> {
        let this = self.next;
        self.advance()?;
        Ok(this)
    }

    pub(super) fn next_char(&self) -> Option<char> {
        match self.next {
            Some(Tk::Char(c)) => Some(c),
            _ => None,
        }
    }

    /// Up to `n` characters from `set` (escapes never qualify).
    pub(super) fn get_while(
        &mut self,
        n: usize,
        set: impl Fn(char) -> bool,
    ) -> Result<String, PyError> {
        let mut out = String::new();
        for _ in 0..n {
            match self.next_char() {
                Some(c) if set(c) => {
                    out.push(c);
                    self.advance()?;
                }
                _ => break,
            }
        }
        Ok(out)
    }

    /// Characters up to `terminator` (consumed), as `getuntil` reads a group name.
    pub(super) fn get_until(&mut self, terminator: char, name: &str) -> Result<String, PyError> {
        let mut out = String::new();
        let mut len = 0;
        loop {
            let c = self.next;
            self.advance()?;
            match c {
                None => {
                    if out.is_empty() {
                        return Err(self.error(&format!("missing {name}"), 0));
                    }
                    return Err(
                        self.error(&format!("missing {terminator}, unterminated name"), len)
                    );
                }
                Some(Tk::Char(c)) if c == terminator => {
                    if out.is_empty() {
                        return Err(self.error(&format!("missing {name}"), 1));
                    }
                    return Ok(out);
                }
                Some(Tk::Char(c)) => {
                    out.push(c);
                    len += 1;
                }
                Some(Tk::Esc(c)) => {
                    out.push('\\');
                    out.push(c);
                    len += 2;
                }
            }
        }
    }

    pub(super) fn tell(&self) -> usize {
        self.index - self.next.map_or(0, Tk::len)
    }

    pub(super) fn seek(&mut self, index: usize) -> Result<(), PyError> {
        self.index = index;
        self.advance()
    }

    pub(super) fn error(&self, message: &str, offset: usize) -> PyError {
        self.error_at(message, self.tell().saturating_sub(offset))
    }

    pub(super) fn error_at(&self, message: &str, position: usize) -> PyError {
        let pattern_lines = self.chars.contains(&'\n').then(|| {
            let before = &self.chars[..position.min(self.chars.len())];
            let line = before.iter().filter(|c| **c == '\n').count() + 1;
            let column = before.iter().rev().take_while(|c| **c != '\n').count() + 1;
            (line, column)
        });
        PyError {
            message: message.to_owned(),
            position: Some(position),
            pattern_lines,
        }
    }

    pub(super) fn check_group_name(&self, name: &str, offset: usize) -> Result<(), PyError> {
        if is_identifier(name) {
            Ok(())
        } else {
            Err(self.error(
                &format!("bad character in group name {}", py_repr(name)),
                name.chars().count() + offset,
            ))
        }
    }
}

/// `str.isidentifier()`, for ASCII exactly and otherwise by Unicode's alphabetic and numeric
/// properties (close to Unicode's identifier start and continue classes).
pub(super) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c.is_alphanumeric())
}

/// Python's `repr` of a string, as its error messages quote names.
pub(super) fn py_repr(text: &str) -> String {
    if text.contains('\'') && !text.contains('"') {
        format!("\"{text}\"")
    } else {
        format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
    }
}
