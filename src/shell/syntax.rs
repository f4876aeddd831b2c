//! The shell grammar (brush-parser's bash parser) turned into what the walker needs: each simple
//! command's words with their quotes removed, its redirections, the text a heredoc or
//! here-string feeds it, what a pipe feeds it, and the scripts of `$(...)` and backticks.

use std::path::Path;

use brush_parser::ast;
use brush_parser::word::{
    self, Parameter, ParameterExpr, TildeExpr, WordPiece, WordPieceWithSource,
};

/// One word as the program receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Word {
    /// The text, quotes removed; `~`, `$HOME` and `${HOME}` put in; other expansions as
    /// written.
    pub text: String,
    /// Whether the text is exactly what the program receives (no other expansion in it).
    pub literal: bool,
    /// The expansions in it that are known only when it runs, as written (`$TOKEN`,
    /// `${#KEY}`, `$(pwd)`); not those in single quotes, which are text.
    pub expansions: Vec<String>,
    /// Where in `text` a character the shell would expand in a path was quoted or escaped
    /// (`'*'`, `"a?"`, `\[`, `'{a,b}'`, `'$x'`, and a backslash itself): one the shell leaves
    /// as it is, naming itself.
    pub quoted_globs: Vec<usize>,
}

impl Word {
    /// A word with no expansion.
    pub(super) fn plain(text: String) -> Self {
        Self {
            text,
            literal: true,
            expansions: Vec::new(),
            quoted_globs: Vec::new(),
        }
    }

    /// The text as a path pattern: the characters that were quoted escaped with a backslash,
    /// so a quoted `*` names a file called `*` and `'$x'` one called `$x` (`None`: none was
    /// quoted).
    pub(super) fn as_pattern(&self) -> Option<String> {
        if self.quoted_globs.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(self.text.len() + self.quoted_globs.len());
        for (at, c) in self.text.char_indices() {
            if self.quoted_globs.contains(&at) {
                out.push('\\');
            }
            out.push(c);
        }
        Some(out)
    }

    /// Notes each character of `quoted` that a path pattern reads, about to be added to the
    /// text, as quoted.
    fn quoting(&mut self, quoted: &str) {
        let base = self.text.len();
        self.quoted_globs.extend(
            quoted
                .char_indices()
                .filter(|(_, c)| {
                    matches!(
                        c,
                        '*' | '?' | '[' | ']' | '{' | '}' | '(' | ')' | '$' | '\\'
                    )
                })
                .map(|(at, _)| base + at),
        );
    }
}

/// A redirection to or from a file.
#[derive(Clone, Debug)]
pub(super) struct Redirect {
    /// `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`.
    pub op: &'static str,
    pub target: Word,
}

/// Text given on a command's standard input by a heredoc or a here-string.
#[derive(Clone, Debug)]
pub(super) struct Fed {
    pub text: String,
    /// The expansions in a here-string (`<<< "$TOKEN"`).
    pub expansions: Vec<String>,
    /// Whether the text is exactly what the command reads (a quoted heredoc delimiter, or
    /// nothing in it to expand).
    pub literal: bool,
}

/// What a pipe feeds a command.
#[derive(Clone, Debug)]
pub(super) enum Producer {
    /// A simple command (its words, and what it is fed).
    Command { words: Vec<Word>, fed: Option<Fed> },
    /// A group or subshell of simple commands one after another (`(crontab -l; echo ...)`):
    /// what each prints, in turn.
    Group(Vec<(Vec<Word>, Option<Fed>)>),
    /// A compound command, or anything else.
    Other,
}

/// One simple command.
#[derive(Clone, Debug, Default)]
pub(super) struct Simple {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    pub fed: Option<Fed>,
    pub piped: Option<Producer>,
}

/// What a script holds, in the order it runs.
#[derive(Debug)]
pub(super) enum Item {
    Simple(Simple),
    /// A subshell starts: `cd` inside it does not last.
    Enter,
    /// It ends.
    Leave,
    /// The script of a `$(...)`, backticks or `<(...)`, run in a subshell; what it prints is
    /// given to the named program (`export $(grep -v '^#' .env | xargs)`), when one is.
    Script {
        text: String,
        given_to: Option<String>,
    },
}

/// The simple commands a group or subshell runs one after another, when that is all it holds
/// (no pipe, loop or substitution inside).
fn group_of(items: &[Item]) -> Option<Producer> {
    let inner = match items {
        [Item::Enter, inner @ .., Item::Leave] => inner,
        all => all,
    };
    let parts = inner
        .iter()
        .map(|item| match item {
            Item::Simple(simple) if simple.piped.is_none() && !simple.words.is_empty() => {
                Some((simple.words.clone(), simple.fed.clone()))
            }
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    (!parts.is_empty()).then_some(Producer::Group(parts))
}

/// Parses `text`; `Err` says why it cannot be read.
pub(super) fn parse(text: &str, home: Option<&Path>) -> Result<Vec<Item>, String> {
    if let Some(items) = plain_words(text) {
        return Ok(items);
    }
    grammar(text, home)
}

/// The bytes a line of plain words is made of: none quotes, expands, globs, redirects,
/// separates commands or starts a comment.
const PLAIN: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:+@%= \t";

/// The words bash reserves, where a command's name would be.
const RESERVED: [&str; 17] = [
    "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in",
    "select", "then", "time", "until", "while",
];

/// A line that is only plain words separated by blanks (`ls -la`, `git status`, `cargo test`),
/// when its first word is a command's name (not an assignment, not a reserved word): one simple
/// command of those words, exactly as the grammar reads it, without building its parser.
fn plain_words(text: &str) -> Option<Vec<Item>> {
    if !text.bytes().all(|b| PLAIN.contains(&b)) {
        return None;
    }
    let mut words = text.split([' ', '\t']).filter(|word| !word.is_empty());
    let first = words.next()?;
    if first.contains('=') || RESERVED.contains(&first) {
        return None;
    }
    let words = std::iter::once(first)
        .chain(words)
        .map(|word| Word::plain(word.to_owned()))
        .collect();
    Some(vec![Item::Simple(Simple {
        words,
        ..Simple::default()
    })])
}

/// [`parse`] by the grammar.
fn grammar(text: &str, home: Option<&Path>) -> Result<Vec<Item>, String> {
    let options = brush_parser::ParserOptions::default();
    let mut parser = brush_parser::Parser::new(text.as_bytes(), &options);
    let program = parser
        .parse_program()
        .map_err(|err| format!("the command does not parse as a shell command: {err}"))?;
    let mut out = Reader {
        home,
        options,
        items: Vec::new(),
        bound: Vec::new(),
        passes: 0,
    };
    for list in &program.complete_commands {
        out.list(list)?;
    }
    Ok(out.items)
}

struct Reader<'h> {
    home: Option<&'h Path>,
    options: brush_parser::ParserOptions,
    items: Vec<Item>,
    /// The variables of the `for` loops being read, each with the value it has on this pass.
    bound: Vec<(String, String)>,
    /// How many passes over loop bodies the line has cost so far (loops in loops multiply).
    passes: usize,
}

/// How many values of a `for` loop its body is read for, one pass each; past that, once with
/// the variable as written.
const LOOP_VALUES_MAX: usize = 16;

/// How many passes over loop bodies one line may cost in all: past that, a body is read once
/// with its variable as written.
const LOOP_PASSES_MAX: usize = 64;

impl Reader<'_> {
    fn list(&mut self, list: &ast::CompoundList) -> Result<(), String> {
        for ast::CompoundListItem(and_or, _) in &list.0 {
            self.pipeline(&and_or.first)?;
            for next in &and_or.additional {
                match next {
                    ast::AndOr::And(pipeline) | ast::AndOr::Or(pipeline) => {
                        self.pipeline(pipeline)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline) -> Result<(), String> {
        let piped = pipeline.seq.len() > 1;
        let mut producer: Option<Producer> = None;
        for command in &pipeline.seq {
            // Every part of a pipeline runs in a subshell of its own (bash's default).
            if piped {
                self.items.push(Item::Enter);
            }
            let made = self.command(command, producer.take())?;
            if piped {
                self.items.push(Item::Leave);
            }
            producer = Some(made.unwrap_or(Producer::Other));
        }
        Ok(())
    }

    /// One command; for a simple one, what it would feed a pipe.
    fn command(
        &mut self,
        command: &ast::Command,
        piped: Option<Producer>,
    ) -> Result<Option<Producer>, String> {
        match command {
            ast::Command::Simple(simple) => self.simple(simple, piped).map(Some),
            ast::Command::Compound(compound, redirects) => {
                if let Some(list) = redirects {
                    let mut simple = Simple::default();
                    for redirect in &list.0 {
                        self.redirect(redirect, &mut simple)?;
                    }
                    if !simple.redirects.is_empty() {
                        self.items.push(Item::Simple(simple));
                    }
                }
                let start = self.items.len();
                self.compound(compound)?;
                let grouped = matches!(
                    compound,
                    ast::CompoundCommand::BraceGroup(_) | ast::CompoundCommand::Subshell(_)
                );
                Ok(grouped.then(|| group_of(&self.items[start..])).flatten())
            }
            ast::Command::Function(function) => {
                let ast::FunctionBody(body, redirects) = &function.body;
                if let Some(list) = redirects {
                    let mut simple = Simple::default();
                    for redirect in &list.0 {
                        self.redirect(redirect, &mut simple)?;
                    }
                }
                self.items.push(Item::Enter);
                self.compound(body)?;
                self.items.push(Item::Leave);
                Ok(None)
            }
            ast::Command::ExtendedTest(test, _) => {
                // `[[ ... ]]` runs nothing, but its words may hold `$(...)`.
                self.substitutions_in(&test.to_string())?;
                Ok(None)
            }
        }
    }

    fn compound(&mut self, compound: &ast::CompoundCommand) -> Result<(), String> {
        match compound {
            ast::CompoundCommand::BraceGroup(group) => self.list(&group.list),
            ast::CompoundCommand::Subshell(sub) => {
                self.items.push(Item::Enter);
                self.list(&sub.list)?;
                self.items.push(Item::Leave);
                Ok(())
            }
            // The body is read once for each value the variable takes (`for f in ~/.x/*; do rm
            // "$f"; done` removes `~/.x/*`), when the values are known on the line.
            ast::CompoundCommand::ForClause(clause) => {
                let mut values = Vec::new();
                let mut known = true;
                for value in clause.values.iter().flatten() {
                    let word = self.word(&value.value)?;
                    known &= word.literal;
                    values.push(word.text);
                }
                if !known
                    || values.is_empty()
                    || values.len() > LOOP_VALUES_MAX
                    || self.passes + values.len() > LOOP_PASSES_MAX
                {
                    return self.list(&clause.body.list);
                }
                self.passes += values.len();
                for value in values {
                    self.bound.push((clause.variable_name.clone(), value));
                    let read = self.list(&clause.body.list);
                    self.bound.pop();
                    read?;
                }
                Ok(())
            }
            ast::CompoundCommand::ArithmeticForClause(clause) => self.list(&clause.body.list),
            ast::CompoundCommand::CaseClause(clause) => {
                self.word(&clause.value.value)?;
                for case in &clause.cases {
                    if let Some(list) = &case.cmd {
                        self.list(list)?;
                    }
                }
                Ok(())
            }
            ast::CompoundCommand::IfClause(clause) => {
                self.list(&clause.condition)?;
                self.list(&clause.then)?;
                for other in clause.elses.iter().flatten() {
                    if let Some(condition) = &other.condition {
                        self.list(condition)?;
                    }
                    self.list(&other.body)?;
                }
                Ok(())
            }
            ast::CompoundCommand::WhileClause(clause)
            | ast::CompoundCommand::UntilClause(clause) => {
                let ast::WhileOrUntilClauseCommand(condition, body, _) = clause;
                self.list(condition)?;
                self.list(&body.list)
            }
            ast::CompoundCommand::Coprocess(coproc) => {
                self.items.push(Item::Enter);
                self.command(&coproc.body, None)?;
                self.items.push(Item::Leave);
                Ok(())
            }
            ast::CompoundCommand::Arithmetic(arithmetic) => {
                self.substitutions_in(&arithmetic.expr.value)
            }
        }
    }

    fn simple(
        &mut self,
        simple: &ast::SimpleCommand,
        piped: Option<Producer>,
    ) -> Result<Producer, String> {
        let mut out = Simple {
            piped,
            ..Simple::default()
        };
        let start = self.items.len();
        let mut items: Vec<&ast::CommandPrefixOrSuffixItem> = Vec::new();
        if let Some(prefix) = &simple.prefix {
            items.extend(prefix.0.iter());
        }
        let name_at = items.len();
        if let Some(suffix) = &simple.suffix {
            items.extend(suffix.0.iter());
        }
        let mut words: Vec<Word> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            if i == name_at
                && let Some(name) = &simple.word_or_name
            {
                words.push(self.word(&name.value)?);
            }
            match item {
                ast::CommandPrefixOrSuffixItem::Word(word) => words.push(self.word(&word.value)?),
                ast::CommandPrefixOrSuffixItem::IoRedirect(redirect) => {
                    self.redirect(redirect, &mut out)?;
                }
                ast::CommandPrefixOrSuffixItem::AssignmentWord(_, word) => {
                    // Its value may run a `$(...)`; the assignment itself runs nothing.
                    if let Some((_, value)) = word.value.split_once('=') {
                        self.word(value)?;
                    }
                    if i >= name_at && simple.word_or_name.is_some() {
                        // After the program (`declare x=1`, `env X=1`): an argument.
                        words.push(self.word(&word.value)?);
                    }
                }
                ast::CommandPrefixOrSuffixItem::ProcessSubstitution(_, sub) => {
                    self.items.push(Item::Enter);
                    self.list(&sub.list)?;
                    self.items.push(Item::Leave);
                    words.push(Word {
                        literal: false,
                        ..Word::plain("/dev/fd/63".to_owned())
                    });
                }
            }
        }
        if items.len() == name_at
            && let Some(name) = &simple.word_or_name
        {
            words.push(self.word(&name.value)?);
        }
        // The substitutions of this command's words print into its arguments.
        if let Some(program) = words.first().filter(|w| w.literal) {
            let name = program.text.rsplit('/').next().unwrap_or(&program.text);
            for item in &mut self.items[start..] {
                if let Item::Script { given_to, .. } = item
                    && given_to.is_none()
                {
                    *given_to = Some(name.to_owned());
                }
            }
        }
        out.words = words;
        let producer = Producer::Command {
            words: out.words.clone(),
            fed: out.fed.clone(),
        };
        self.items.push(Item::Simple(out));
        Ok(producer)
    }

    fn redirect(&mut self, redirect: &ast::IoRedirect, out: &mut Simple) -> Result<(), String> {
        match redirect {
            ast::IoRedirect::File(_, kind, target) => {
                let op = match kind {
                    ast::IoFileRedirectKind::Read => "<",
                    ast::IoFileRedirectKind::Write => ">",
                    ast::IoFileRedirectKind::Append => ">>",
                    ast::IoFileRedirectKind::ReadAndWrite => "<>",
                    ast::IoFileRedirectKind::Clobber => ">|",
                    ast::IoFileRedirectKind::DuplicateInput
                    | ast::IoFileRedirectKind::DuplicateOutput => {
                        // `2>&1`, `>&2`; `>& file` writes a file.
                        if let ast::IoFileRedirectTarget::Duplicate(word) = target {
                            let word = self.word(&word.value)?;
                            if !word.text.chars().all(|c| c.is_ascii_digit() || c == '-') {
                                out.redirects.push(Redirect {
                                    op: "&>",
                                    target: word,
                                });
                            }
                        }
                        return Ok(());
                    }
                };
                match target {
                    ast::IoFileRedirectTarget::Filename(word)
                    | ast::IoFileRedirectTarget::Duplicate(word) => {
                        let word = self.word(&word.value)?;
                        out.redirects.push(Redirect { op, target: word });
                    }
                    ast::IoFileRedirectTarget::Fd(_) => {}
                    ast::IoFileRedirectTarget::ProcessSubstitution(_, sub) => {
                        self.items.push(Item::Enter);
                        self.list(&sub.list)?;
                        self.items.push(Item::Leave);
                    }
                }
            }
            ast::IoRedirect::OutputAndError(word, append) => {
                let word = self.word(&word.value)?;
                out.redirects.push(Redirect {
                    op: if *append { "&>>" } else { "&>" },
                    target: word,
                });
            }
            ast::IoRedirect::HereDocument(_, doc) => {
                let text = doc.doc.value.clone();
                let literal = if doc.requires_expansion {
                    // An unquoted delimiter: `$(...)` in the body runs.
                    let pieces = word::parse_heredoc(&text, &self.options)
                        .map_err(|err| format!("a heredoc does not parse: {err}"))?;
                    let mut word = Word::plain(String::new());
                    self.scan(&text, &pieces, &mut word, false)?;
                    word.literal
                } else {
                    true
                };
                let text = if doc.remove_tabs {
                    text.lines()
                        .map(|line| line.trim_start_matches('\t'))
                        .collect::<Vec<_>>()
                        .join("\n")
                } else {
                    text
                };
                out.fed = Some(Fed {
                    text,
                    literal,
                    expansions: Vec::new(),
                });
            }
            ast::IoRedirect::HereString(_, word) => {
                let word = self.word(&word.value)?;
                out.fed = Some(Fed {
                    text: word.text,
                    literal: word.literal,
                    expansions: word.expansions,
                });
            }
        }
        Ok(())
    }

    /// A word as written, read: its text without quotes, and the scripts it substitutes.
    fn word(&mut self, raw: &str) -> Result<Word, String> {
        let pieces = word::parse(raw, &self.options)
            .map_err(|err| format!("a word does not parse: {err}"))?;
        let mut word = Word::plain(String::with_capacity(raw.len()));
        self.scan(raw, &pieces, &mut word, false)?;
        Ok(word)
    }

    /// The `$(...)` and backticks in a text that is not itself a word.
    fn substitutions_in(&mut self, text: &str) -> Result<(), String> {
        if text.contains("$(") || text.contains('`') {
            let pieces = word::parse_heredoc(text, &self.options)
                .map_err(|err| format!("a word does not parse: {err}"))?;
            self.scan(text, &pieces, &mut Word::plain(String::new()), false)?;
        }
        Ok(())
    }

    fn scan(
        &mut self,
        raw: &str,
        pieces: &[WordPieceWithSource],
        word: &mut Word,
        quoted: bool,
    ) -> Result<(), String> {
        for piece in pieces {
            match &piece.piece {
                WordPiece::Text(t) if quoted => word.quoting(t),
                WordPiece::SingleQuotedText(t) => word.quoting(t),
                WordPiece::EscapeSequence(t) => word.quoting(t.strip_prefix('\\').unwrap_or(t)),
                _ => {}
            }
            let text = &mut word.text;
            let source = raw.get(piece.start_index..piece.end_index).unwrap_or("");
            match &piece.piece {
                WordPiece::Text(t) | WordPiece::SingleQuotedText(t) => text.push_str(t),
                WordPiece::AnsiCQuotedText(t) => {
                    let t = ansi_c(t);
                    word.quoting(&t);
                    word.text.push_str(&t);
                }
                WordPiece::EscapeSequence(t) => text.push_str(t.strip_prefix('\\').unwrap_or(t)),
                WordPiece::DoubleQuotedSequence(inner)
                | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    self.scan(raw, inner, word, true)?;
                }
                WordPiece::TildeExpansion(tilde) => match (tilde, self.home) {
                    (TildeExpr::Home, Some(home)) => text.push_str(&home.to_string_lossy()),
                    (TildeExpr::Home, None) => text.push('~'),
                    (TildeExpr::UserHome(user), _) => {
                        text.push('~');
                        text.push_str(user);
                    }
                    _ => {
                        word.literal = false;
                        text.push_str(source);
                        word.expansions.push(source.to_owned());
                    }
                },
                WordPiece::ParameterExpansion(expr) => {
                    if let (Some(home), true) = (self.home, is_home(expr)) {
                        text.push_str(&home.to_string_lossy());
                    } else if let Some(value) = self.bound_value(expr) {
                        text.push_str(value);
                    } else {
                        word.literal = false;
                        text.push_str(source);
                        word.expansions.push(source.to_owned());
                    }
                }
                WordPiece::CommandSubstitution(script)
                | WordPiece::BackquotedCommandSubstitution(script) => {
                    word.literal = false;
                    text.push_str(source);
                    word.expansions.push(source.to_owned());
                    self.items.push(Item::Script {
                        text: script.clone(),
                        given_to: None,
                    });
                }
                WordPiece::ArithmeticExpression(expr) => {
                    word.literal = false;
                    text.push_str(source);
                    word.expansions.push(source.to_owned());
                    self.substitutions_in(&expr.value)?;
                }
            }
        }
        Ok(())
    }
}

impl Reader<'_> {
    /// The value a `for` loop being read gives a plain `$NAME` or `${NAME}`.
    fn bound_value(&self, expr: &ParameterExpr) -> Option<&str> {
        let ParameterExpr::Parameter {
            parameter: Parameter::Named(name),
            indirect: false,
        } = expr
        else {
            return None;
        };
        self.bound
            .iter()
            .rev()
            .find(|(bound, _)| bound == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Whether a parameter expansion is plain `$HOME` or `${HOME}`.
fn is_home(expr: &ParameterExpr) -> bool {
    matches!(
        expr,
        ParameterExpr::Parameter {
            parameter: Parameter::Named(name),
            indirect: false,
        } if name == "HOME"
    )
}

/// The text of `$'...'` with its common escapes put in.
fn ansi_c(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('e' | 'E') => out.push('\u{1b}'),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests;
