//! `PyYAML`'s reader and scanner (`yaml/reader.py`, `yaml/scanner.py`), ported line for line,
//! with the rules of libyaml (`src/scanner.c`, 0.2.5: `PyYAML`'s C loader, the one Hermes reads
//! config.yaml with) where the two differ: config.yaml's characters become the tokens Hermes's
//! loader makes of them. A line break is `\r\n`, `\r`, `\n`, U+0085, U+2028 or U+2029
//! everywhere (comments, scalars, line counts), a tab separates where libyaml lets it, and what
//! libyaml refuses is refused.

use std::collections::{BTreeMap, VecDeque};

use super::marked;
use crate::config::yaml::YamlError;

/// How far (in characters) a simple key may run before its `:`.
const SIMPLE_KEY_LENGTH: usize = 1024;

/// A place in the text, counted from 0 as libyaml counts it: a byte-order mark that starts
/// the text is no character, any other takes a column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Mark {
    pub(super) index: usize,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// How a scalar is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    Plain,
    Single,
    Double,
    Literal,
    Folded,
}

/// A `%` directive.
#[derive(Debug)]
pub(super) enum Directive {
    /// `%YAML major.minor`.
    Yaml { major: u32, minor: u32 },
    /// `%TAG handle prefix`.
    Tag { handle: String, prefix: String },
}

/// What a token is.
#[derive(Debug)]
pub(super) enum Kind {
    StreamStart,
    StreamEnd,
    Directive(Directive),
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    BlockEntry,
    FlowEntry,
    Key,
    Value,
    Alias(String),
    Anchor(String),
    /// The handle (none for `!<verbatim>` and a lone `!`) and the suffix.
    Tag(Option<String>, String),
    Scalar(String, Style),
}

impl Kind {
    /// The name `PyYAML`'s messages give the token.
    pub(super) const fn id(&self) -> &'static str {
        match self {
            Self::StreamStart => "<stream start>",
            Self::StreamEnd => "<stream end>",
            Self::Directive(_) => "<directive>",
            Self::DocumentStart => "<document start>",
            Self::DocumentEnd => "<document end>",
            Self::BlockSequenceStart => "<block sequence start>",
            Self::BlockMappingStart => "<block mapping start>",
            Self::BlockEnd => "<block end>",
            Self::FlowSequenceStart => "[",
            Self::FlowMappingStart => "{",
            Self::FlowSequenceEnd => "]",
            Self::FlowMappingEnd => "}",
            Self::BlockEntry => "-",
            Self::FlowEntry => ",",
            Self::Key => "?",
            Self::Value => ":",
            Self::Alias(_) => "<alias>",
            Self::Anchor(_) => "<anchor>",
            Self::Tag(..) => "<tag>",
            Self::Scalar(..) => "<scalar>",
        }
    }
}

/// One token, with where it starts and ends.
#[derive(Debug)]
pub(super) struct Token {
    pub(super) kind: Kind,
    pub(super) start: Mark,
    pub(super) end: Mark,
}

impl Token {
    const fn new(kind: Kind, start: Mark, end: Mark) -> Self {
        Self { kind, start, end }
    }
}

/// A place where a simple key (one without `?`) may start.
#[derive(Clone, Copy, Debug)]
struct SimpleKey {
    token_number: usize,
    required: bool,
    index: usize,
    line: usize,
    column: usize,
    mark: Mark,
}

/// `\0` (the end), a line break, a space or a tab.
const fn is_blankz(c: char) -> bool {
    matches!(c, ' ' | '\t') || is_breakz(c)
}

/// A space or a tab.
const fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t')
}

/// `\0` (the end) or a line break.
const fn is_breakz(c: char) -> bool {
    c == '\0' || is_break(c)
}

/// A line break as `PyYAML` knows them.
const fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// A character of an anchor, a directive name or a tag handle.
const fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_')
}

/// What `PyYAML`'s reader accepts (`Reader.NON_PRINTABLE` is the rest).
const fn is_printable(c: char) -> bool {
    matches!(c,
        '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}'
        | '\u{10000}'..='\u{10FFFF}')
}

/// A character as Python's `repr` writes it, for messages.
pub(super) fn repr(c: char) -> String {
    match c {
        '\0' => "'\\x00'".to_owned(),
        '\t' => "'\\t'".to_owned(),
        '\n' => "'\\n'".to_owned(),
        '\r' => "'\\r'".to_owned(),
        '\\' => "'\\\\'".to_owned(),
        '\'' => "\"'\"".to_owned(),
        c if u32::from(c) < 0x100 && (c.is_control() || c == '\u{A0}') => {
            format!("'\\x{:02x}'", u32::from(c))
        }
        c if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}') => {
            format!("'\\u{:04x}'", u32::from(c))
        }
        c => format!("'{c}'"),
    }
}

/// The scanner, with the reader's buffer: the text, then `\0`.
pub(super) struct Scanner {
    text: Vec<char>,
    pointer: usize,
    line: usize,
    column: usize,
    done: bool,
    flow_level: usize,
    tokens: VecDeque<Token>,
    tokens_taken: usize,
    indent: isize,
    indents: Vec<isize>,
    allow_simple_key: bool,
    possible_simple_keys: BTreeMap<usize, SimpleKey>,
}

type Scan<T> = Result<T, YamlError>;

fn error(context: &str, context_mark: Mark, problem: impl Into<String>, at: Mark) -> YamlError {
    marked(Some((context, context_mark)), problem, at)
}

impl Scanner {
    /// A scanner of `text`; refused as `PyYAML`'s reader refuses it (a character it does not
    /// accept). A byte-order mark that starts the text is skipped, as both readers skip it.
    pub(super) fn new(text: &str) -> Scan<Self> {
        let mut chars: Vec<char> = text.chars().collect();
        chars.push('\0');
        let mut scanner = Self {
            text: chars,
            pointer: 0,
            line: 0,
            column: 0,
            done: false,
            flow_level: 0,
            tokens: VecDeque::new(),
            tokens_taken: 0,
            indent: -1,
            indents: Vec::new(),
            allow_simple_key: true,
            possible_simple_keys: BTreeMap::new(),
        };
        if let Some(at) = text.chars().position(|c| !is_printable(c)) {
            let c = scanner.text[at];
            scanner.forward(at);
            return Err(marked(
                None,
                format!(
                    "unacceptable character #x{:04x}: special characters are not allowed",
                    u32::from(c)
                ),
                scanner.mark(),
            ));
        }
        if scanner.peek(0) == '\u{FEFF}' {
            scanner.pointer = 1;
        }
        let mark = scanner.mark();
        scanner
            .tokens
            .push_back(Token::new(Kind::StreamStart, mark, mark));
        Ok(scanner)
    }

    // The reader.

    fn peek(&self, offset: usize) -> char {
        self.text
            .get(self.pointer + offset)
            .copied()
            .unwrap_or('\0')
    }

    fn prefix(&self, length: usize) -> String {
        let end = (self.pointer + length).min(self.text.len());
        self.text[self.pointer..end].iter().collect()
    }

    /// Whether the next three characters are `---` or `...` followed by a blank or the end.
    fn at_document_indicator(&self) -> bool {
        let first = self.peek(0);
        matches!(first, '-' | '.')
            && self.peek(1) == first
            && self.peek(2) == first
            && is_blankz(self.peek(3))
    }

    fn forward(&mut self, length: usize) {
        for _ in 0..length {
            let Some(&c) = self.text.get(self.pointer) else {
                return;
            };
            self.pointer += 1;
            if matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
                || (c == '\r' && self.peek(0) != '\n')
            {
                self.line += 1;
                self.column = 0;
            } else {
                // libyaml counts a byte-order mark as a column (the Python reader does not).
                self.column += 1;
            }
        }
    }

    const fn mark(&self) -> Mark {
        Mark {
            index: self.pointer,
            line: self.line,
            column: self.column,
        }
    }

    #[allow(clippy::cast_possible_wrap)] // a column fits an isize
    const fn column(&self) -> isize {
        self.column as isize
    }

    // Tokens out.

    /// The next token, left in place.
    pub(super) fn peek_token(&mut self) -> Scan<&Token> {
        self.fill()?;
        let at = self.mark();
        self.tokens
            .front()
            .ok_or_else(|| marked(None, "read past the end of the stream", at))
    }

    /// The next token, taken.
    pub(super) fn next_token(&mut self) -> Scan<Token> {
        self.fill()?;
        let at = self.mark();
        let token = self
            .tokens
            .pop_front()
            .ok_or_else(|| marked(None, "read past the end of the stream", at))?;
        self.tokens_taken += 1;
        Ok(token)
    }

    fn fill(&mut self) -> Scan<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    fn need_more_tokens(&mut self) -> Scan<bool> {
        if self.done {
            return Ok(false);
        }
        if self.tokens.is_empty() {
            return Ok(true);
        }
        // The next token may be a simple key: look further, to its `:`.
        self.stale_possible_simple_keys()?;
        Ok(self.next_possible_simple_key() == Some(self.tokens_taken))
    }

    fn fetch_more_tokens(&mut self) -> Scan<()> {
        self.scan_to_next_token();
        self.stale_possible_simple_keys()?;
        self.unwind_indent(self.column());
        let c = self.peek(0);
        match c {
            '\0' => self.fetch_stream_end(),
            '%' if self.column == 0 => self.fetch_directive(),
            '-' | '.' if self.column == 0 && self.at_document_indicator() => {
                let kind = if c == '-' {
                    Kind::DocumentStart
                } else {
                    Kind::DocumentEnd
                };
                self.fetch_document_indicator(kind)
            }
            '[' => self.fetch_flow_collection_start(Kind::FlowSequenceStart),
            '{' => self.fetch_flow_collection_start(Kind::FlowMappingStart),
            ']' => self.fetch_flow_collection_end(Kind::FlowSequenceEnd),
            '}' => self.fetch_flow_collection_end(Kind::FlowMappingEnd),
            ',' => self.fetch_flow_entry(),
            '-' if is_blankz(self.peek(1)) => self.fetch_block_entry(),
            '?' if self.flow_level > 0 || is_blankz(self.peek(1)) => self.fetch_key(),
            ':' if self.flow_level > 0 || is_blankz(self.peek(1)) => self.fetch_value(),
            '*' => self.fetch_anchor(true),
            '&' => self.fetch_anchor(false),
            '!' => self.fetch_tag(),
            '|' if self.flow_level == 0 => self.fetch_block_scalar(false),
            '>' if self.flow_level == 0 => self.fetch_block_scalar(true),
            '\'' => self.fetch_flow_scalar(false),
            '"' => self.fetch_flow_scalar(true),
            _ if self.check_plain() => self.fetch_plain(),
            _ => {
                // A tab here indents a line, or follows `-`, `?` or a `:` after `?`.
                let hint = if c == '\t' {
                    " (write spaces: a tab cannot indent a line or follow '-' or '?')"
                } else {
                    ""
                };
                Err(error(
                    "while scanning for the next token",
                    self.mark(),
                    format!(
                        "found character {} that cannot start any token{hint}",
                        repr(c)
                    ),
                    self.mark(),
                ))
            }
        }
    }

    // Simple keys.

    fn next_possible_simple_key(&self) -> Option<usize> {
        self.possible_simple_keys
            .values()
            .map(|key| key.token_number)
            .min()
    }

    /// Drops the possible simple keys that can no longer be: on an earlier line, or too far
    /// back.
    fn stale_possible_simple_keys(&mut self) -> Scan<()> {
        let (line, index) = (self.line, self.pointer);
        let stale = |key: &SimpleKey| key.line != line || index - key.index > SIMPLE_KEY_LENGTH;
        if let Some(key) = self
            .possible_simple_keys
            .values()
            .find(|key| key.required && stale(key))
        {
            return Err(error(
                "while scanning a simple key",
                key.mark,
                "could not find expected ':'",
                self.mark(),
            ));
        }
        self.possible_simple_keys.retain(|_, key| !stale(key));
        Ok(())
    }

    fn save_possible_simple_key(&mut self) -> Scan<()> {
        let required = self.flow_level == 0 && self.indent == self.column();
        if self.allow_simple_key {
            self.remove_possible_simple_key()?;
            let key = SimpleKey {
                token_number: self.tokens_taken + self.tokens.len(),
                required,
                index: self.pointer,
                line: self.line,
                column: self.column,
                mark: self.mark(),
            };
            self.possible_simple_keys.insert(self.flow_level, key);
        }
        Ok(())
    }

    fn remove_possible_simple_key(&mut self) -> Scan<()> {
        if let Some(key) = self.possible_simple_keys.remove(&self.flow_level)
            && key.required
        {
            return Err(error(
                "while scanning a simple key",
                key.mark,
                "could not find expected ':'",
                self.mark(),
            ));
        }
        Ok(())
    }

    // Indentation.

    fn unwind_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            let mark = self.mark();
            self.indent = self.indents.pop().unwrap_or(-1);
            self.tokens
                .push_back(Token::new(Kind::BlockEnd, mark, mark));
        }
    }

    fn add_indent(&mut self, column: isize) -> bool {
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            return true;
        }
        false
    }

    // Fetchers.

    fn fetch_stream_end(&mut self) -> Scan<()> {
        // libyaml ends the stream on a line of its own (`yaml_parser_fetch_stream_end`), so an
        // empty value at the end of a last line without a line break is on the next line.
        if self.column != 0 {
            self.column = 0;
            self.line += 1;
        }
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.possible_simple_keys.clear();
        let mark = self.mark();
        self.tokens
            .push_back(Token::new(Kind::StreamEnd, mark, mark));
        self.done = true;
        Ok(())
    }

    fn fetch_directive(&mut self) -> Scan<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_document_indicator(&mut self, kind: Kind) -> Scan<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let start = self.mark();
        self.forward(3);
        self.tokens.push_back(Token::new(kind, start, self.mark()));
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, kind: Kind) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.flow_level += 1;
        self.allow_simple_key = true;
        self.push_indicator(kind);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, kind: Kind) -> Scan<()> {
        self.remove_possible_simple_key()?;
        // An unbalanced `]` is the parser's error; the level only stays at zero here.
        self.flow_level = self.flow_level.saturating_sub(1);
        self.allow_simple_key = false;
        self.push_indicator(kind);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Scan<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_indicator(Kind::FlowEntry);
        Ok(())
    }

    /// Adds a one-character token and moves past it.
    fn push_indicator(&mut self, kind: Kind) {
        let start = self.mark();
        self.forward(1);
        self.tokens.push_back(Token::new(kind, start, self.mark()));
    }

    fn fetch_block_entry(&mut self) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(marked(
                    None,
                    "sequence entries are not allowed here",
                    self.mark(),
                ));
            }
            if self.add_indent(self.column()) {
                let mark = self.mark();
                self.tokens
                    .push_back(Token::new(Kind::BlockSequenceStart, mark, mark));
            }
        }
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.push_indicator(Kind::BlockEntry);
        Ok(())
    }

    fn fetch_key(&mut self) -> Scan<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(marked(
                    None,
                    "mapping keys are not allowed here",
                    self.mark(),
                ));
            }
            if self.add_indent(self.column()) {
                let mark = self.mark();
                self.tokens
                    .push_back(Token::new(Kind::BlockMappingStart, mark, mark));
            }
        }
        self.allow_simple_key = self.flow_level == 0;
        self.remove_possible_simple_key()?;
        self.push_indicator(Kind::Key);
        Ok(())
    }

    #[allow(clippy::cast_possible_wrap)] // a column fits an isize
    fn fetch_value(&mut self) -> Scan<()> {
        if let Some(key) = self.possible_simple_keys.remove(&self.flow_level) {
            // The simple key's KEY (and the mapping it may start) go back before it.
            let at = key.token_number - self.tokens_taken;
            self.tokens
                .insert(at, Token::new(Kind::Key, key.mark, key.mark));
            if self.flow_level == 0 && self.add_indent(key.column as isize) {
                self.tokens
                    .insert(at, Token::new(Kind::BlockMappingStart, key.mark, key.mark));
            }
            self.allow_simple_key = false;
        } else {
            if self.flow_level == 0 && !self.allow_simple_key {
                return Err(marked(
                    None,
                    "mapping values are not allowed here",
                    self.mark(),
                ));
            }
            if self.flow_level == 0 && self.add_indent(self.column()) {
                let mark = self.mark();
                self.tokens
                    .push_back(Token::new(Kind::BlockMappingStart, mark, mark));
            }
            self.allow_simple_key = self.flow_level == 0;
            self.remove_possible_simple_key()?;
        }
        self.push_indicator(Kind::Value);
        Ok(())
    }

    fn fetch_anchor(&mut self, alias: bool) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_anchor(alias)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_tag(&mut self) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_tag()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, folded: bool) -> Scan<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let token = self.scan_block_scalar(folded)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, double: bool) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_flow_scalar(double)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_plain(&mut self) -> Scan<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_plain()?;
        self.tokens.push_back(token);
        Ok(())
    }

    /// A plain scalar may start here: not with an indicator, or with `-` (`?` and `:` in the
    /// block context) followed by a non-blank.
    fn check_plain(&self) -> bool {
        let c = self.peek(0);
        let indicator = is_blankz(c) || "-?:,[]{}#&*!|>'\"%@`".contains(c);
        !indicator
            || (!is_blankz(self.peek(1))
                && (c == '-' || (self.flow_level == 0 && matches!(c, '?' | ':'))))
    }

    // Scanners.

    /// Skips blanks, comments and line breaks (a line break in the block context allows a
    /// simple key), by libyaml's rules (`yaml_parser_scan_to_next_token`): a byte-order mark
    /// that starts a line is skipped, and a tab is skipped in the flow context or where no
    /// simple key may start (`parser->flow_level || !parser->simple_key_allowed`: after a
    /// scalar, an anchor, a tag or a key's `:`). `PyYAML`'s Python scanner skips neither.
    fn scan_to_next_token(&mut self) {
        loop {
            if self.column == 0 && self.peek(0) == '\u{FEFF}' {
                self.forward(1);
            }
            let tab_allowed = self.flow_level > 0 || !self.allow_simple_key;
            while self.peek(0) == ' ' || (tab_allowed && self.peek(0) == '\t') {
                self.forward(1);
            }
            if self.peek(0) == '#' {
                while !is_breakz(self.peek(0)) {
                    self.forward(1);
                }
            }
            if self.scan_line_break().is_some() {
                if self.flow_level == 0 {
                    self.allow_simple_key = true;
                }
            } else {
                break;
            }
        }
    }

    /// A `%` directive, by libyaml's rules (`yaml_parser_scan_directive`): only `YAML` and
    /// `TAG` are known (any other name is refused, where the Python scanner ignores it), and
    /// tabs separate its parts as spaces do.
    fn scan_directive(&mut self) -> Scan<Token> {
        let start = self.mark();
        self.forward(1);
        let name = self.scan_directive_name(start)?;
        let directive = match name.as_str() {
            "YAML" => self.scan_yaml_directive_value(start)?,
            "TAG" => self.scan_tag_directive_value(start)?,
            _ => {
                return Err(error(
                    "while scanning a directive",
                    start,
                    format!("found unknown directive name '{name}'"),
                    self.mark(),
                ));
            }
        };
        let end = self.mark();
        self.scan_ignored_line("while scanning a directive", start)?;
        Ok(Token::new(Kind::Directive(directive), start, end))
    }

    fn scan_directive_name(&mut self, start: Mark) -> Scan<String> {
        let mut length = 0;
        while is_word(self.peek(length)) {
            length += 1;
        }
        if length == 0 {
            return Err(error(
                "while scanning a directive",
                start,
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    repr(self.peek(0))
                ),
                self.mark(),
            ));
        }
        let name = self.prefix(length);
        self.forward(length);
        let c = self.peek(0);
        if !is_blankz(c) {
            return Err(error(
                "while scanning a directive",
                start,
                format!("found unexpected non-alphabetical character {}", repr(c)),
                self.mark(),
            ));
        }
        Ok(name)
    }

    /// Spaces and tabs, where libyaml skips both.
    fn skip_blanks(&mut self) {
        while is_blank(self.peek(0)) {
            self.forward(1);
        }
    }

    fn scan_yaml_directive_value(&mut self, start: Mark) -> Scan<Directive> {
        self.skip_blanks();
        let major = self.scan_yaml_directive_number(start)?;
        if self.peek(0) != '.' {
            return Err(error(
                "while scanning a %YAML directive",
                start,
                format!("expected a digit or '.', but found {}", repr(self.peek(0))),
                self.mark(),
            ));
        }
        self.forward(1);
        let minor = self.scan_yaml_directive_number(start)?;
        Ok(Directive::Yaml { major, minor })
    }

    /// A version number: at most 9 digits (libyaml's `MAX_NUMBER_LENGTH`).
    fn scan_yaml_directive_number(&mut self, start: Mark) -> Scan<u32> {
        let mut value: u32 = 0;
        let mut length = 0;
        while let Some(digit) = self.peek(0).to_digit(10) {
            length += 1;
            if length > 9 {
                return Err(error(
                    "while scanning a %YAML directive",
                    start,
                    "found extremely long version number",
                    self.mark(),
                ));
            }
            value = value * 10 + digit;
            self.forward(1);
        }
        if length == 0 {
            return Err(error(
                "while scanning a %YAML directive",
                start,
                format!("expected a digit, but found {}", repr(self.peek(0))),
                self.mark(),
            ));
        }
        Ok(value)
    }

    fn scan_tag_directive_value(&mut self, start: Mark) -> Scan<Directive> {
        self.skip_blanks();
        let handle = self.scan_tag_handle(true, start)?;
        if !is_blank(self.peek(0)) {
            return Err(error(
                "while scanning a %TAG directive",
                start,
                format!("expected whitespace, but found {}", repr(self.peek(0))),
                self.mark(),
            ));
        }
        self.skip_blanks();
        let prefix = self.scan_tag_uri(true, None, "%TAG directive", start)?;
        if !is_blankz(self.peek(0)) {
            return Err(error(
                "while scanning a %TAG directive",
                start,
                format!(
                    "expected whitespace or a line break, but found {}",
                    repr(self.peek(0))
                ),
                self.mark(),
            ));
        }
        Ok(Directive::Tag { handle, prefix })
    }

    /// Blanks, a comment, then the line break (or the end) that must close a directive or a
    /// block scalar's header (libyaml takes tabs there, the Python scanner only spaces).
    fn scan_ignored_line(&mut self, context: &str, start: Mark) -> Scan<()> {
        self.skip_blanks();
        if self.peek(0) == '#' {
            while !is_breakz(self.peek(0)) {
                self.forward(1);
            }
        }
        let c = self.peek(0);
        if !is_breakz(c) {
            return Err(error(
                context,
                start,
                format!("expected a comment or a line break, but found {}", repr(c)),
                self.mark(),
            ));
        }
        self.scan_line_break();
        Ok(())
    }

    fn scan_anchor(&mut self, alias: bool) -> Scan<Token> {
        let start = self.mark();
        let context = if alias {
            "while scanning an alias"
        } else {
            "while scanning an anchor"
        };
        self.forward(1);
        let mut length = 0;
        while is_word(self.peek(length)) {
            length += 1;
        }
        let expected = |scanner: &Self, c: char| {
            error(
                context,
                start,
                format!(
                    "expected alphabetic or numeric character, but found {}",
                    repr(c)
                ),
                scanner.mark(),
            )
        };
        if length == 0 {
            return Err(expected(self, self.peek(0)));
        }
        let name = self.prefix(length);
        self.forward(length);
        let c = self.peek(0);
        if !(is_blankz(c) || "?:,]}%@`".contains(c)) {
            return Err(expected(self, c));
        }
        let kind = if alias {
            Kind::Alias(name)
        } else {
            Kind::Anchor(name)
        };
        Ok(Token::new(kind, start, self.mark()))
    }

    /// A tag, by libyaml's rules (`yaml_parser_scan_tag`): `!<verbatim>`, `!handle!suffix`,
    /// `!suffix` or a lone `!`, then a blank (a tab too) or the end, or a `,` in the flow
    /// context. The Python scanner takes only a space after it, and `,`, `[` and `]` inside
    /// the suffix.
    fn scan_tag(&mut self) -> Scan<Token> {
        let start = self.mark();
        let (handle, suffix) = if self.peek(1) == '<' {
            self.forward(2);
            let suffix = self.scan_tag_uri(true, None, "tag", start)?;
            if self.peek(0) != '>' {
                return Err(error(
                    "while parsing a tag",
                    start,
                    format!("expected '>', but found {}", repr(self.peek(0))),
                    self.mark(),
                ));
            }
            self.forward(1);
            (None, suffix)
        } else {
            let handle = self.scan_tag_handle(false, start)?;
            if handle.len() > 1 && handle.ends_with('!') {
                let suffix = self.scan_tag_uri(false, None, "tag", start)?;
                (Some(handle), suffix)
            } else {
                // No handle after all: what was read starts the suffix.
                let suffix = self.scan_tag_uri(false, Some(&handle), "tag", start)?;
                if suffix.is_empty() {
                    (None, "!".to_owned())
                } else {
                    (Some("!".to_owned()), suffix)
                }
            }
        };
        let c = self.peek(0);
        if !(is_blankz(c) || (self.flow_level > 0 && c == ',')) {
            return Err(error(
                "while scanning a tag",
                start,
                format!("expected whitespace or a line break, but found {}", repr(c)),
                self.mark(),
            ));
        }
        Ok(Token::new(Kind::Tag(handle, suffix), start, self.mark()))
    }

    fn scan_block_scalar(&mut self, folded: bool) -> Scan<Token> {
        let start = self.mark();
        self.forward(1);
        let (chomping, increment) = self.scan_block_scalar_indicators(start)?;
        self.scan_ignored_line("while scanning a block scalar", start)?;
        // Zero until the first non-empty line sets it, without an indentation indicator.
        let mut indent = increment.map_or(0, |increment| (self.indent + 1).max(1) + increment - 1);
        let mut end = self.mark();
        let mut breaks = self.scan_block_scalar_breaks(&mut indent, start, &mut end)?;
        let mut chunks = String::new();
        let mut line_break: Option<char> = None;
        while self.column() == indent && self.peek(0) != '\0' {
            chunks.push_str(&breaks);
            let leading_non_space = !matches!(self.peek(0), ' ' | '\t');
            let mut length = 0;
            while !is_breakz(self.peek(length)) {
                length += 1;
            }
            chunks.push_str(&self.prefix(length));
            self.forward(length);
            line_break = self.scan_line_break();
            breaks = self.scan_block_scalar_breaks(&mut indent, start, &mut end)?;
            if self.column() != indent || self.peek(0) == '\0' {
                break;
            }
            // Folding as the specification says it (PyYAML's choice).
            if folded
                && line_break == Some('\n')
                && leading_non_space
                && !matches!(self.peek(0), ' ' | '\t')
            {
                if breaks.is_empty() {
                    chunks.push(' ');
                }
            } else {
                chunks.extend(line_break);
            }
        }
        if chomping != Some(false) {
            chunks.extend(line_break);
        }
        if chomping == Some(true) {
            chunks.push_str(&breaks);
        }
        let style = if folded {
            Style::Folded
        } else {
            Style::Literal
        };
        Ok(Token::new(Kind::Scalar(chunks, style), start, end))
    }

    /// The chomping (`+` true, `-` false) and the indentation increment after `|` or `>`.
    fn scan_block_scalar_indicators(&mut self, start: Mark) -> Scan<(Option<bool>, Option<isize>)> {
        let mut chomping = None;
        let mut increment = None;
        let chomp = |c: char| match c {
            '+' => Some(true),
            '-' => Some(false),
            _ => None,
        };
        let zero = |scanner: &Self| {
            error(
                "while scanning a block scalar",
                start,
                "expected indentation indicator in the range 1-9, but found 0",
                scanner.mark(),
            )
        };
        let c = self.peek(0);
        if let Some(wanted) = chomp(c) {
            chomping = Some(wanted);
            self.forward(1);
            if let Some(digit) = self.peek(0).to_digit(10) {
                if digit == 0 {
                    return Err(zero(self));
                }
                increment = Some(isize::try_from(digit).unwrap_or(1));
                self.forward(1);
            }
        } else if let Some(digit) = c.to_digit(10) {
            if digit == 0 {
                return Err(zero(self));
            }
            increment = Some(isize::try_from(digit).unwrap_or(1));
            self.forward(1);
            if let Some(wanted) = chomp(self.peek(0)) {
                chomping = Some(wanted);
                self.forward(1);
            }
        }
        // libyaml wants no blank after the indicators: `|#` starts a comment, and the header
        // line is checked as a whole (`scan_ignored_line`).
        Ok((chomping, increment))
    }

    /// The empty lines before a block scalar's next line and the indentation spaces before
    /// it (`yaml_parser_scan_block_scalar_breaks`); the first call sets `indent` when no
    /// indicator did, to the deepest of those lines. A tab where an indentation space is
    /// expected is refused, as libyaml refuses it: the Python scanner reads it as text when
    /// the spaces before it are deep enough, or ends the scalar there.
    fn scan_block_scalar_breaks(
        &mut self,
        indent: &mut isize,
        start: Mark,
        end: &mut Mark,
    ) -> Scan<String> {
        let mut breaks = String::new();
        let mut max_indent = 0;
        loop {
            let indenting = |scanner: &Self| *indent == 0 || scanner.column() < *indent;
            while indenting(self) && self.peek(0) == ' ' {
                self.forward(1);
            }
            max_indent = max_indent.max(self.column());
            if indenting(self) && self.peek(0) == '\t' {
                return Err(error(
                    "while scanning a block scalar",
                    start,
                    "found a tab character where an indentation space is expected",
                    self.mark(),
                ));
            }
            if !is_break(self.peek(0)) {
                break;
            }
            breaks.extend(self.scan_line_break());
            *end = self.mark();
        }
        if *indent == 0 {
            *indent = max_indent.max(self.indent + 1).max(1);
        }
        Ok(breaks)
    }

    fn scan_flow_scalar(&mut self, double: bool) -> Scan<Token> {
        let start = self.mark();
        let quote = self.peek(0);
        self.forward(1);
        let mut chunks = String::new();
        self.scan_flow_scalar_non_spaces(double, start, &mut chunks)?;
        while self.peek(0) != quote {
            self.scan_flow_scalar_spaces(double, start, &mut chunks)?;
            self.scan_flow_scalar_non_spaces(double, start, &mut chunks)?;
        }
        self.forward(1);
        let style = if double { Style::Double } else { Style::Single };
        Ok(Token::new(Kind::Scalar(chunks, style), start, self.mark()))
    }

    fn scan_flow_scalar_non_spaces(
        &mut self,
        double: bool,
        start: Mark,
        chunks: &mut String,
    ) -> Scan<()> {
        loop {
            let mut length = 0;
            while !(is_blankz(self.peek(length)) || matches!(self.peek(length), '\'' | '"' | '\\'))
            {
                length += 1;
            }
            if length > 0 {
                chunks.push_str(&self.prefix(length));
                self.forward(length);
            }
            let c = self.peek(0);
            if !double && c == '\'' && self.peek(1) == '\'' {
                chunks.push('\'');
                self.forward(2);
            } else if (double && c == '\'') || (!double && matches!(c, '"' | '\\')) {
                chunks.push(c);
                self.forward(1);
            } else if double && c == '\\' {
                self.forward(1);
                self.scan_escape(start, chunks)?;
            } else {
                return Ok(());
            }
        }
    }

    /// What follows a `\` in a double-quoted scalar.
    fn scan_escape(&mut self, start: Mark, chunks: &mut String) -> Scan<()> {
        let c = self.peek(0);
        if let Some(replacement) = escape_replacement(c) {
            chunks.push(replacement);
            self.forward(1);
        } else if let Some(length) = escape_length(c) {
            self.forward(1);
            for k in 0..length {
                if !self.peek(k).is_ascii_hexdigit() {
                    return Err(error(
                        "while scanning a double-quoted scalar",
                        start,
                        format!(
                            "expected escape sequence of {length} hexadecimal numbers, but \
                             found {}",
                            repr(self.peek(k))
                        ),
                        self.mark(),
                    ));
                }
            }
            let code = u32::from_str_radix(&self.prefix(length), 16).unwrap_or(u32::MAX);
            // Past U+10FFFF Python's `chr` raises. A surrogate (U+D800 to U+DFFF) is a lone
            // surrogate to the Python loader and an error to the C loader: refused.
            let c = char::from_u32(code).ok_or_else(|| {
                error(
                    "while scanning a double-quoted scalar",
                    start,
                    format!(
                        "found the escape of {code:#x}, which is no character (PyYAML's C loader \
                         refuses it)"
                    ),
                    self.mark(),
                )
            })?;
            chunks.push(c);
            self.forward(length);
        } else if is_break(c) {
            self.scan_line_break();
            self.scan_flow_scalar_breaks(start, chunks)?;
        } else {
            return Err(error(
                "while scanning a double-quoted scalar",
                start,
                format!("found unknown escape character {}", repr(c)),
                self.mark(),
            ));
        }
        Ok(())
    }

    fn scan_flow_scalar_spaces(
        &mut self,
        _double: bool,
        start: Mark,
        chunks: &mut String,
    ) -> Scan<()> {
        let mut length = 0;
        while matches!(self.peek(length), ' ' | '\t') {
            length += 1;
        }
        let whitespaces = self.prefix(length);
        self.forward(length);
        let c = self.peek(0);
        if c == '\0' {
            return Err(error(
                "while scanning a quoted scalar",
                start,
                "found unexpected end of stream",
                self.mark(),
            ));
        }
        if is_break(c) {
            let line_break = self.scan_line_break();
            let mut breaks = String::new();
            self.scan_flow_scalar_breaks(start, &mut breaks)?;
            fold(line_break, &breaks, chunks);
        } else {
            chunks.push_str(&whitespaces);
        }
        Ok(())
    }

    /// The line breaks (and the blanks around them) inside a quoted scalar; a document
    /// separator there is an error.
    fn scan_flow_scalar_breaks(&mut self, start: Mark, chunks: &mut String) -> Scan<()> {
        loop {
            if self.at_document_indicator() {
                return Err(error(
                    "while scanning a quoted scalar",
                    start,
                    "found unexpected document separator",
                    self.mark(),
                ));
            }
            while matches!(self.peek(0), ' ' | '\t') {
                self.forward(1);
            }
            if is_break(self.peek(0)) {
                chunks.extend(self.scan_line_break());
            } else {
                return Ok(());
            }
        }
    }

    /// A plain scalar, by libyaml's rules (`yaml_parser_scan_plain_scalar`): blanks between
    /// its words are spaces or tabs (`a<TAB>b` is "a\tb", and `a<TAB># note` ends at `a`), a
    /// tab in the indentation of a next line is refused where that line is indented less than
    /// the scalar may be ("found a tab character that violates indentation"), and in the flow
    /// context `?` is text while a `:` before `,`, `?` or a bracket is refused. The Python
    /// scanner ends the scalar at a tab, ends it at `?` and takes that `:` as a value.
    fn scan_plain(&mut self) -> Scan<Token> {
        let start = self.mark();
        let mut end = start;
        let indent = self.indent + 1;
        let mut chunks = String::new();
        let mut gap = Gap::default();
        loop {
            if (self.column == 0 && self.at_document_indicator()) || self.peek(0) == '#' {
                break;
            }
            while !is_blankz(self.peek(0)) && !self.ends_plain(start)? {
                gap.join(&mut chunks);
                chunks.push(self.peek(0));
                self.forward(1);
                end = self.mark();
            }
            if !(is_blank(self.peek(0)) || is_break(self.peek(0))) {
                break;
            }
            self.scan_plain_gap(&mut gap, indent, start)?;
            if self.flow_level == 0 && self.column() < indent {
                break;
            }
        }
        if gap.after_break {
            self.allow_simple_key = true;
        }
        Ok(Token::new(Kind::Scalar(chunks, Style::Plain), start, end))
    }

    /// Whether the plain scalar ends before the next character: a `:` before a blank, or a
    /// flow indicator other than `?` in the flow context. A `:` before `,`, `?` or a bracket
    /// in the flow context is refused.
    fn ends_plain(&self, start: Mark) -> Scan<bool> {
        let (c, next) = (self.peek(0), self.peek(1));
        if self.flow_level > 0 && c == ':' && next != '\0' && ",?[]{}".contains(next) {
            return Err(error(
                "while scanning a plain scalar",
                start,
                "found unexpected ':'",
                self.mark(),
            ));
        }
        Ok((c == ':' && is_blankz(next)) || (self.flow_level > 0 && ",[]{}".contains(c)))
    }

    /// The blanks and line breaks after a word of a plain scalar, into `gap`; a tab that
    /// indents a line less than `indent` is refused.
    fn scan_plain_gap(&mut self, gap: &mut Gap, indent: isize, start: Mark) -> Scan<()> {
        loop {
            let c = self.peek(0);
            if is_blank(c) {
                if gap.after_break && self.column() < indent && c == '\t' {
                    return Err(error(
                        "while scanning a plain scalar",
                        start,
                        "found a tab character that violates indentation",
                        self.mark(),
                    ));
                }
                if !gap.after_break {
                    gap.whitespaces.push(c);
                }
                self.forward(1);
            } else if !is_break(c) {
                return Ok(());
            } else if gap.after_break {
                gap.trailing_breaks.extend(self.scan_line_break());
            } else {
                gap.whitespaces.clear();
                gap.leading_break = self.scan_line_break();
                gap.after_break = true;
            }
        }
    }

    /// `!`, word characters, then a `!` if there is one (`yaml_parser_scan_tag_handle`); in a
    /// `%TAG` directive the handle must be `!` or end with `!`.
    fn scan_tag_handle(&mut self, directive: bool, start: Mark) -> Scan<String> {
        let context = if directive {
            "while scanning a %TAG directive"
        } else {
            "while scanning a tag"
        };
        let expected = |scanner: &Self| {
            error(
                context,
                start,
                format!("expected '!', but found {}", repr(scanner.peek(0))),
                scanner.mark(),
            )
        };
        if self.peek(0) != '!' {
            return Err(expected(self));
        }
        let mut length = 1;
        while is_word(self.peek(length)) {
            length += 1;
        }
        if self.peek(length) == '!' {
            length += 1;
        } else if directive && length > 1 {
            self.forward(length);
            return Err(expected(self));
        }
        let handle = self.prefix(length);
        self.forward(length);
        Ok(handle)
    }

    /// The characters of a tag's URI (`yaml_parser_scan_tag_uri`), after `head` (less its
    /// `!`) when a handle turned out to be the start of the suffix: `,`, `[` and `]` only in
    /// a verbatim tag or a `%TAG` prefix (`uri_char`). Empty only after a head.
    fn scan_tag_uri(
        &mut self,
        uri_char: bool,
        head: Option<&str>,
        name: &str,
        start: Mark,
    ) -> Scan<String> {
        let mut chunks = head.map(|head| head[1..].to_owned()).unwrap_or_default();
        let mut length = 0;
        let mut c = self.peek(length);
        while c.is_ascii_alphanumeric()
            || "-_;/?:@&=+$.%!~*'()".contains(c)
            || (uri_char && ",[]".contains(c))
        {
            if c == '%' {
                chunks.push_str(&self.prefix(length));
                self.forward(length);
                length = 0;
                chunks.push_str(&self.scan_uri_escapes(name, start)?);
            } else {
                length += 1;
            }
            c = self.peek(length);
        }
        if length > 0 {
            chunks.push_str(&self.prefix(length));
            self.forward(length);
        }
        if chunks.is_empty() && head.is_none() {
            return Err(error(
                &format!("while parsing a {name}"),
                start,
                format!("expected URI, but found {}", repr(c)),
                self.mark(),
            ));
        }
        Ok(chunks)
    }

    fn scan_uri_escapes(&mut self, name: &str, start: Mark) -> Scan<String> {
        let mut codes = Vec::new();
        let mark = self.mark();
        while self.peek(0) == '%' {
            self.forward(1);
            for k in 0..2 {
                if !self.peek(k).is_ascii_hexdigit() {
                    return Err(error(
                        &format!("while scanning a {name}"),
                        start,
                        format!(
                            "expected URI escape sequence of 2 hexadecimal numbers, but found {}",
                            repr(self.peek(k))
                        ),
                        self.mark(),
                    ));
                }
            }
            codes.push(u8::from_str_radix(&self.prefix(2), 16).unwrap_or(0));
            self.forward(2);
        }
        String::from_utf8(codes).map_err(|err| {
            error(
                &format!("while scanning a {name}"),
                start,
                format!("'utf-8' codec can't decode the URI escapes: {err}"),
                mark,
            )
        })
    }

    /// Takes one line break: `\n` for `\r\n`, `\r`, `\n` and U+0085; U+2028 and U+2029 as
    /// they are; `None` when there is none.
    fn scan_line_break(&mut self) -> Option<char> {
        match self.peek(0) {
            '\r' if self.peek(1) == '\n' => {
                self.forward(2);
                Some('\n')
            }
            '\r' | '\n' | '\u{85}' => {
                self.forward(1);
                Some('\n')
            }
            c @ ('\u{2028}' | '\u{2029}') => {
                self.forward(1);
                Some(c)
            }
            _ => None,
        }
    }
}

/// What separates two words of a plain scalar: blanks on one line, or line breaks (the blanks
/// around them go).
#[derive(Default)]
struct Gap {
    whitespaces: String,
    leading_break: Option<char>,
    trailing_breaks: String,
    after_break: bool,
}

impl Gap {
    /// Adds the gap to the scalar before its next word, and empties it.
    fn join(&mut self, chunks: &mut String) {
        if self.after_break {
            fold(self.leading_break.take(), &self.trailing_breaks, chunks);
            self.trailing_breaks.clear();
            self.after_break = false;
        } else {
            chunks.push_str(&self.whitespaces);
            self.whitespaces.clear();
        }
    }
}

/// Joins the lines of a scalar across a run of line breaks: a first `\n` becomes a space
/// when it is alone and goes when more follow; any other first break, and the ones after it,
/// stay as they are.
fn fold(line_break: Option<char>, breaks: &str, chunks: &mut String) {
    if line_break != Some('\n') {
        chunks.extend(line_break);
    } else if breaks.is_empty() {
        chunks.push(' ');
    }
    chunks.push_str(breaks);
}

/// `Scanner.ESCAPE_REPLACEMENTS`.
const fn escape_replacement(c: char) -> Option<char> {
    Some(match c {
        '0' => '\0',
        'a' => '\u{07}',
        'b' => '\u{08}',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\u{0B}',
        'f' => '\u{0C}',
        'r' => '\r',
        'e' => '\u{1B}',
        ' ' => ' ',
        '"' => '"',
        '\\' => '\\',
        '/' => '/',
        'N' => '\u{85}',
        '_' => '\u{A0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        _ => return None,
    })
}

/// `Scanner.ESCAPE_CODES`: how many hexadecimal digits follow.
const fn escape_length(c: char) -> Option<usize> {
    match c {
        'x' => Some(2),
        'u' => Some(4),
        'U' => Some(8),
        _ => None,
    }
}
