//! `PyYAML`'s parser (`yaml/parser.py`), ported state for state: the scanner's tokens become
//! the events the composer builds values from, with `PyYAML`'s errors where it has them, and
//! libyaml's rules (`src/parser.c`) where the two differ: the `%YAML` versions read, and `!` on
//! an empty value.

use super::marked;
use super::scanner::{Directive, Kind, Mark, Scanner, Style, Token};
use crate::config::yaml::YamlError;

/// What the parser says.
#[derive(Debug)]
pub(super) enum EventKind {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(String),
    Scalar {
        anchor: Option<String>,
        tag: Option<String>,
        /// The value is resolved from its text (a plain scalar, or any with the tag `!`).
        implicit: bool,
        value: String,
    },
    SequenceStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<String>,
        tag: Option<String>,
    },
    MappingEnd,
}

/// One event, with where its node starts.
#[derive(Debug)]
pub(super) struct Event {
    pub(super) kind: EventKind,
    pub(super) start: Mark,
}

/// What the parser does next (`Parser.state`, and what `Parser.states` holds).
#[derive(Clone, Copy, Debug)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
}

type Parse<T> = Result<T, YamlError>;

/// `Parser.DEFAULT_TAGS`.
fn default_tags() -> Vec<(String, String)> {
    vec![
        ("!".to_owned(), "!".to_owned()),
        ("!!".to_owned(), "tag:yaml.org,2002:".to_owned()),
    ]
}

fn error(context: &str, context_mark: Mark, problem: impl Into<String>, at: Mark) -> YamlError {
    marked(Some((context, context_mark)), problem, at)
}

/// The parser, pulling tokens from its scanner.
pub(super) struct Parser {
    scanner: Scanner,
    state: Option<State>,
    states: Vec<State>,
    marks: Vec<Mark>,
    tag_handles: Vec<(String, String)>,
}

impl Parser {
    pub(super) fn new(text: &str) -> Parse<Self> {
        Ok(Self {
            scanner: Scanner::new(text)?,
            state: Some(State::StreamStart),
            states: Vec::new(),
            marks: Vec::new(),
            tag_handles: Vec::new(),
        })
    }

    /// The next event; `None` after the end of the stream.
    pub(super) fn next_event(&mut self) -> Parse<Option<Event>> {
        let Some(state) = self.state else {
            return Ok(None);
        };
        self.run(state).map(Some)
    }

    fn run(&mut self, state: State) -> Parse<Event> {
        match state {
            State::StreamStart => self.parse_stream_start(),
            State::ImplicitDocumentStart => self.parse_implicit_document_start(),
            State::DocumentStart => self.parse_document_start(),
            State::DocumentEnd => self.parse_document_end(),
            State::DocumentContent => self.parse_document_content(),
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => {
                self.push_mark()?;
                self.parse_block_sequence_entry()
            }
            State::BlockSequenceEntry => self.parse_block_sequence_entry(),
            State::IndentlessSequenceEntry => self.parse_indentless_sequence_entry(),
            State::BlockMappingFirstKey => {
                self.push_mark()?;
                self.parse_block_mapping_key()
            }
            State::BlockMappingKey => self.parse_block_mapping_key(),
            State::BlockMappingValue => self.parse_block_mapping_value(),
            State::FlowSequenceFirstEntry => {
                self.push_mark()?;
                self.parse_flow_sequence_entry(true)
            }
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => self.parse_flow_sequence_entry_mapping_key(),
            State::FlowSequenceEntryMappingValue => self.parse_flow_sequence_entry_mapping_value(),
            State::FlowSequenceEntryMappingEnd => {
                self.state = Some(State::FlowSequenceEntry);
                let start = self.peek()?.start;
                Ok(Self::event(EventKind::MappingEnd, start))
            }
            State::FlowMappingFirstKey => {
                self.push_mark()?;
                self.parse_flow_mapping_key(true)
            }
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => self.parse_flow_mapping_value(),
            State::FlowMappingEmptyValue => {
                self.state = Some(State::FlowMappingKey);
                let start = self.peek()?.start;
                Ok(Self::empty_scalar(start))
            }
        }
    }

    // Tokens.

    fn peek(&mut self) -> Parse<&Token> {
        self.scanner.peek_token()
    }

    fn take(&mut self) -> Parse<Token> {
        self.scanner.next_token()
    }

    fn check(&mut self, wanted: fn(&Kind) -> bool) -> Parse<bool> {
        Ok(wanted(&self.peek()?.kind))
    }

    /// Takes a collection's start token and keeps its place for messages.
    fn push_mark(&mut self) -> Parse<()> {
        let token = self.take()?;
        self.marks.push(token.start);
        Ok(())
    }

    fn pop_state(&mut self) {
        self.state = self.states.pop();
    }

    const fn event(kind: EventKind, start: Mark) -> Event {
        Event { kind, start }
    }

    /// `Parser.process_empty_scalar`: a null.
    const fn empty_scalar(start: Mark) -> Event {
        Self::event(
            EventKind::Scalar {
                anchor: None,
                tag: None,
                implicit: true,
                value: String::new(),
            },
            start,
        )
    }

    // Documents.

    fn parse_stream_start(&mut self) -> Parse<Event> {
        let token = self.take()?;
        self.state = Some(State::ImplicitDocumentStart);
        Ok(Self::event(EventKind::StreamStart, token.start))
    }

    fn parse_implicit_document_start(&mut self) -> Parse<Event> {
        if self.check(|k| {
            matches!(
                k,
                Kind::Directive(_) | Kind::DocumentStart | Kind::StreamEnd
            )
        })? {
            return self.parse_document_start();
        }
        self.tag_handles = default_tags();
        let start = self.peek()?.start;
        self.states.push(State::DocumentEnd);
        self.state = Some(State::BlockNode);
        Ok(Self::event(EventKind::DocumentStart, start))
    }

    fn parse_document_start(&mut self) -> Parse<Event> {
        while self.check(|k| matches!(k, Kind::DocumentEnd))? {
            self.take()?;
        }
        if self.check(|k| matches!(k, Kind::StreamEnd))? {
            let token = self.take()?;
            self.state = None;
            return Ok(Self::event(EventKind::StreamEnd, token.start));
        }
        let start = self.peek()?.start;
        self.process_directives()?;
        let token = self.peek()?;
        if !matches!(token.kind, Kind::DocumentStart) {
            return Err(marked(
                None,
                format!(
                    "expected '<document start>', but found '{}'",
                    token.kind.id()
                ),
                token.start,
            ));
        }
        self.take()?;
        self.states.push(State::DocumentEnd);
        self.state = Some(State::DocumentContent);
        Ok(Self::event(EventKind::DocumentStart, start))
    }

    fn parse_document_end(&mut self) -> Parse<Event> {
        let start = self.peek()?.start;
        if self.check(|k| matches!(k, Kind::DocumentEnd))? {
            self.take()?;
        }
        self.state = Some(State::DocumentStart);
        Ok(Self::event(EventKind::DocumentEnd, start))
    }

    fn parse_document_content(&mut self) -> Parse<Event> {
        if self.check(|k| {
            matches!(
                k,
                Kind::Directive(_) | Kind::DocumentStart | Kind::DocumentEnd | Kind::StreamEnd
            )
        })? {
            let start = self.peek()?.start;
            self.pop_state();
            return Ok(Self::empty_scalar(start));
        }
        self.parse_node(true, false)
    }

    fn process_directives(&mut self) -> Parse<()> {
        let mut version_seen = false;
        self.tag_handles.clear();
        while self.check(|k| matches!(k, Kind::Directive(_)))? {
            let token = self.take()?;
            let Kind::Directive(directive) = token.kind else {
                continue;
            };
            match directive {
                Directive::Yaml { major, minor } => {
                    if version_seen {
                        return Err(marked(None, "found duplicate %YAML directive", token.start));
                    }
                    // libyaml reads YAML 1.1 and 1.2 only (the Python parser any 1.x).
                    if major != 1 || !matches!(minor, 1 | 2) {
                        return Err(marked(
                            None,
                            format!(
                                "found incompatible YAML document (version {major}.{minor}; \
                                 1.1 or 1.2 is required)"
                            ),
                            token.start,
                        ));
                    }
                    version_seen = true;
                }
                Directive::Tag { handle, prefix } => {
                    if self.tag_handles.iter().any(|(known, _)| *known == handle) {
                        return Err(marked(
                            None,
                            format!("found duplicate %TAG directive '{handle}'"),
                            token.start,
                        ));
                    }
                    self.tag_handles.push((handle, prefix));
                }
            }
        }
        for (handle, prefix) in default_tags() {
            if !self.tag_handles.iter().any(|(known, _)| *known == handle) {
                self.tag_handles.push((handle, prefix));
            }
        }
        Ok(())
    }

    // Nodes.

    /// `Parser.parse_node`: an alias, or a node with its anchor and tag.
    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Parse<Event> {
        if self.check(|k| matches!(k, Kind::Alias(_)))? {
            let token = self.take()?;
            self.pop_state();
            let name = match token.kind {
                Kind::Alias(name) => name,
                _ => String::new(),
            };
            return Ok(Self::event(EventKind::Alias(name), token.start));
        }
        let (anchor, tag, start) = self.node_properties()?;
        let start = match start {
            Some(start) => start,
            None => self.peek()?.start,
        };
        if indentless_sequence && self.check(|k| matches!(k, Kind::BlockEntry))? {
            self.state = Some(State::IndentlessSequenceEntry);
            return Ok(Self::event(EventKind::SequenceStart { anchor, tag }, start));
        }
        let next = self.peek()?;
        let next_state = match next.kind {
            Kind::Scalar(..) => None,
            Kind::FlowSequenceStart => Some(State::FlowSequenceFirstEntry),
            Kind::FlowMappingStart => Some(State::FlowMappingFirstKey),
            Kind::BlockSequenceStart if block => Some(State::BlockSequenceFirstEntry),
            Kind::BlockMappingStart if block => Some(State::BlockMappingFirstKey),
            _ if anchor.is_some() || tag.is_some() => {
                // An empty value: resolved (null) only without a tag, as libyaml says it
                // (`implicit = (!tag || !*tag)`), so `!` makes an empty string (the Python
                // parser resolves that one too, to null).
                self.pop_state();
                let kind = EventKind::Scalar {
                    implicit: tag.is_none(),
                    anchor,
                    tag,
                    value: String::new(),
                };
                return Ok(Self::event(kind, start));
            }
            _ => {
                let kind = if block { "block" } else { "flow" };
                return Err(error(
                    &format!("while parsing a {kind} node"),
                    start,
                    format!("expected the node content, but found '{}'", next.kind.id()),
                    next.start,
                ));
            }
        };
        if let Some(state) = next_state {
            let sequence = matches!(
                next.kind,
                Kind::FlowSequenceStart | Kind::BlockSequenceStart
            );
            self.state = Some(state);
            let kind = if sequence {
                EventKind::SequenceStart { anchor, tag }
            } else {
                EventKind::MappingStart { anchor, tag }
            };
            return Ok(Self::event(kind, start));
        }
        let token = self.take()?;
        let (value, style) = match token.kind {
            Kind::Scalar(value, style) => (value, style),
            _ => (String::new(), Style::Plain),
        };
        let implicit = (style == Style::Plain && tag.is_none()) || tag.as_deref() == Some("!");
        self.pop_state();
        let kind = EventKind::Scalar {
            anchor,
            tag,
            implicit,
            value,
        };
        Ok(Self::event(kind, start))
    }

    /// A node's anchor and tag (either first), the tag resolved through the handles, and
    /// where the first of them starts.
    fn node_properties(&mut self) -> Parse<(Option<String>, Option<String>, Option<Mark>)> {
        let mut anchor = None;
        let mut tag = None;
        let mut start = None;
        let mut tag_mark = None;
        for _ in 0..2 {
            let token = self.peek()?;
            let is_anchor = matches!(token.kind, Kind::Anchor(_));
            if !(is_anchor && anchor.is_none()
                || matches!(token.kind, Kind::Tag(..)) && tag.is_none())
            {
                break;
            }
            let token = self.take()?;
            start.get_or_insert(token.start);
            match token.kind {
                Kind::Anchor(name) => anchor = Some(name),
                Kind::Tag(handle, suffix) => {
                    tag = Some((handle, suffix));
                    tag_mark = Some(token.start);
                }
                _ => {}
            }
        }
        let tag = match tag {
            None => None,
            Some((None, suffix)) => Some(suffix),
            Some((Some(handle), suffix)) => {
                let Some((_, prefix)) = self.tag_handles.iter().find(|(known, _)| *known == handle)
                else {
                    let start = start.unwrap_or_default();
                    return Err(error(
                        "while parsing a node",
                        start,
                        format!("found undefined tag handle '{handle}'"),
                        tag_mark.unwrap_or(start),
                    ));
                };
                Some(format!("{prefix}{suffix}"))
            }
        };
        Ok((anchor, tag, start))
    }

    // Block collections.

    fn parse_block_sequence_entry(&mut self) -> Parse<Event> {
        if self.check(|k| matches!(k, Kind::BlockEntry))? {
            let token = self.take()?;
            if self.check(|k| matches!(k, Kind::BlockEntry | Kind::BlockEnd))? {
                self.state = Some(State::BlockSequenceEntry);
                return Ok(Self::empty_scalar(token.end));
            }
            self.states.push(State::BlockSequenceEntry);
            return self.parse_node(true, false);
        }
        self.collection_end(
            |k| matches!(k, Kind::BlockEnd),
            "while parsing a block collection",
            "expected <block end>, but found",
            EventKind::SequenceEnd,
        )
    }

    /// The end of a collection: its closing token, or an error naming where it began.
    fn collection_end(
        &mut self,
        closing: fn(&Kind) -> bool,
        context: &str,
        expected: &str,
        kind: EventKind,
    ) -> Parse<Event> {
        let token = self.scanner.peek_token()?;
        if !closing(&token.kind) {
            let mark = self.marks.last().copied().unwrap_or_default();
            return Err(error(
                context,
                mark,
                format!("{expected} '{}'", token.kind.id()),
                token.start,
            ));
        }
        let token = self.take()?;
        self.pop_state();
        self.marks.pop();
        Ok(Self::event(kind, token.start))
    }

    fn parse_indentless_sequence_entry(&mut self) -> Parse<Event> {
        if self.check(|k| matches!(k, Kind::BlockEntry))? {
            let token = self.take()?;
            if self.check(|k| {
                matches!(
                    k,
                    Kind::BlockEntry | Kind::Key | Kind::Value | Kind::BlockEnd
                )
            })? {
                self.state = Some(State::IndentlessSequenceEntry);
                return Ok(Self::empty_scalar(token.end));
            }
            self.states.push(State::IndentlessSequenceEntry);
            return self.parse_node(true, false);
        }
        let start = self.peek()?.start;
        self.pop_state();
        Ok(Self::event(EventKind::SequenceEnd, start))
    }

    fn parse_block_mapping_key(&mut self) -> Parse<Event> {
        if self.check(|k| matches!(k, Kind::Key))? {
            let token = self.take()?;
            if self.check(|k| matches!(k, Kind::Key | Kind::Value | Kind::BlockEnd))? {
                self.state = Some(State::BlockMappingValue);
                return Ok(Self::empty_scalar(token.end));
            }
            self.states.push(State::BlockMappingValue);
            return self.parse_node(true, true);
        }
        self.collection_end(
            |k| matches!(k, Kind::BlockEnd),
            "while parsing a block mapping",
            "expected <block end>, but found",
            EventKind::MappingEnd,
        )
    }

    fn parse_block_mapping_value(&mut self) -> Parse<Event> {
        if !self.check(|k| matches!(k, Kind::Value))? {
            self.state = Some(State::BlockMappingKey);
            let start = self.peek()?.start;
            return Ok(Self::empty_scalar(start));
        }
        let token = self.take()?;
        if self.check(|k| matches!(k, Kind::Key | Kind::Value | Kind::BlockEnd))? {
            self.state = Some(State::BlockMappingKey);
            return Ok(Self::empty_scalar(token.end));
        }
        self.states.push(State::BlockMappingKey);
        self.parse_node(true, true)
    }

    // Flow collections.

    fn parse_flow_sequence_entry(&mut self, first: bool) -> Parse<Event> {
        if !self.check(|k| matches!(k, Kind::FlowSequenceEnd))? {
            if !first {
                let token = self.scanner.peek_token()?;
                if !matches!(token.kind, Kind::FlowEntry) {
                    let mark = self.marks.last().copied().unwrap_or_default();
                    return Err(error(
                        "while parsing a flow sequence",
                        mark,
                        format!("expected ',' or ']', but got '{}'", token.kind.id()),
                        token.start,
                    ));
                }
                self.take()?;
            }
            if self.check(|k| matches!(k, Kind::Key))? {
                // libyaml takes the `?` here, the Python parser in the next state.
                let start = self.take()?.start;
                self.state = Some(State::FlowSequenceEntryMappingKey);
                let kind = EventKind::MappingStart {
                    anchor: None,
                    tag: None,
                };
                return Ok(Self::event(kind, start));
            }
            if !self.check(|k| matches!(k, Kind::FlowSequenceEnd))? {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        self.collection_end(
            |k| matches!(k, Kind::FlowSequenceEnd),
            "while parsing a flow sequence",
            "expected ']', but found",
            EventKind::SequenceEnd,
        )
    }

    /// The key after `?` in a flow sequence. Where it is empty, libyaml
    /// (`yaml_parser_parse_flow_sequence_entry_mapping_key`) takes the token after the `?` (a
    /// `:`, `,` or `]`) with it: `[? : x]` is refused and `[? ]]` is read, as the C loader
    /// does (the Python parser reads the first and refuses the second).
    fn parse_flow_sequence_entry_mapping_key(&mut self) -> Parse<Event> {
        if self.check(|k| matches!(k, Kind::Value | Kind::FlowEntry | Kind::FlowSequenceEnd))? {
            let token = self.take()?;
            self.state = Some(State::FlowSequenceEntryMappingValue);
            return Ok(Self::empty_scalar(token.end));
        }
        self.states.push(State::FlowSequenceEntryMappingValue);
        self.parse_node(false, false)
    }

    /// An empty value in a flow collection is where the next token starts, as libyaml places
    /// it (the Python parser: where the `:` ends).
    fn parse_flow_sequence_entry_mapping_value(&mut self) -> Parse<Event> {
        if self.check(|k| matches!(k, Kind::Value))? {
            self.take()?;
            if !self.check(|k| matches!(k, Kind::FlowEntry | Kind::FlowSequenceEnd))? {
                self.states.push(State::FlowSequenceEntryMappingEnd);
                return self.parse_node(false, false);
            }
        }
        self.state = Some(State::FlowSequenceEntryMappingEnd);
        let start = self.peek()?.start;
        Ok(Self::empty_scalar(start))
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> Parse<Event> {
        if !self.check(|k| matches!(k, Kind::FlowMappingEnd))? {
            if !first {
                let token = self.scanner.peek_token()?;
                if !matches!(token.kind, Kind::FlowEntry) {
                    let mark = self.marks.last().copied().unwrap_or_default();
                    return Err(error(
                        "while parsing a flow mapping",
                        mark,
                        format!("expected ',' or '}}', but got '{}'", token.kind.id()),
                        token.start,
                    ));
                }
                self.take()?;
            }
            if self.check(|k| matches!(k, Kind::Key))? {
                self.take()?;
                if self
                    .check(|k| matches!(k, Kind::Value | Kind::FlowEntry | Kind::FlowMappingEnd))?
                {
                    // Where the next token starts, as libyaml places an empty key.
                    self.state = Some(State::FlowMappingValue);
                    let start = self.peek()?.start;
                    return Ok(Self::empty_scalar(start));
                }
                self.states.push(State::FlowMappingValue);
                return self.parse_node(false, false);
            }
            if !self.check(|k| matches!(k, Kind::FlowMappingEnd))? {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        self.collection_end(
            |k| matches!(k, Kind::FlowMappingEnd),
            "while parsing a flow mapping",
            "expected '}', but found",
            EventKind::MappingEnd,
        )
    }

    /// A value in a flow mapping; an empty one where the next token starts, as libyaml
    /// places it.
    fn parse_flow_mapping_value(&mut self) -> Parse<Event> {
        if self.check(|k| matches!(k, Kind::Value))? {
            self.take()?;
            if !self.check(|k| matches!(k, Kind::FlowEntry | Kind::FlowMappingEnd))? {
                self.states.push(State::FlowMappingKey);
                return self.parse_node(false, false);
            }
        }
        self.state = Some(State::FlowMappingKey);
        let start = self.peek()?.start;
        Ok(Self::empty_scalar(start))
    }
}
