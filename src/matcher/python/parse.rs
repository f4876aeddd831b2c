//! Reading a pattern as Python's `re._parser` does: the same syntax tree and the same errors,
//! down to their positions, and the checks its compiler adds (fixed-width look-behinds).

use std::collections::{BTreeMap, HashMap};

use super::tokenizer::{Tk, Tokenizer, is_identifier, py_repr};
use super::{
    A, Alt, At, Cat, ClassItem, Greed, I, M, MAXCODE, MAXGROUPS, MAXREPEAT, MAXWIDTH, Node,
    PyError, S, Seq, T, TYPE_FLAGS, U, X, combine, plain_error,
};

/// How deep groups may nest (each level of groups is two of `nested`): 100 levels, where
/// Python gives up near 450; no real matcher comes close, and the stack stays small.
const MAX_NESTING: usize = 200;

/// Parses `pattern` as `re.compile` would: the tree and its global flags, or Python's error.
pub(super) fn parse(pattern: &str) -> Result<(Alt, u8), PyError> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut source = Tokenizer::new(&chars)?;
    let mut state = State::default();
    let alt = parse_sub(&mut source, &mut state, false, 0)?;
    if source.next.is_some() {
        return Err(source.error("unbalanced parenthesis", 0));
    }
    if (state.flags & A != 0) && (state.flags & U != 0) {
        return Err(plain_error("ASCII and UNICODE flags are incompatible"));
    }
    if let Some((&group, &at)) = state
        .groupref_pos
        .iter()
        .find(|(group, _)| **group >= state.groups())
    {
        return Err(source.error_at(&format!("invalid group reference {group}"), at));
    }
    check(&alt, &state, state.flags)?;
    Ok((alt, state.flags))
}

#[derive(Default)]
struct State {
    flags: u8,
    group_widths: Vec<Option<(u128, u128)>>,
    group_names: HashMap<String, usize>,
    lookbehind_groups: Option<usize>,
    groupref_pos: BTreeMap<usize, usize>,
}

impl State {
    fn groups(&self) -> usize {
        self.group_widths.len() + 1
    }

    fn open_group(&mut self, name: Option<&str>) -> Result<usize, String> {
        let gid = self.groups();
        self.group_widths.push(None);
        if self.groups() > MAXGROUPS {
            return Err("too many groups".to_owned());
        }
        if let Some(name) = name {
            if let Some(old) = self.group_names.get(name) {
                return Err(format!(
                    "redefinition of group name {} as group {gid}; was group {old}",
                    py_repr(name)
                ));
            }
            self.group_names.insert(name.to_owned(), gid);
        }
        Ok(gid)
    }

    fn width_of(&self, gid: usize) -> Option<(u128, u128)> {
        gid.checked_sub(1)
            .and_then(|i| self.group_widths.get(i).copied().flatten())
    }

    fn check_group(&self, gid: usize) -> bool {
        gid < self.groups() && self.width_of(gid).is_some()
    }

    fn check_lookbehind_group(&self, gid: usize, source: &Tokenizer<'_>) -> Result<(), PyError> {
        if let Some(first) = self.lookbehind_groups {
            if !self.check_group(gid) {
                return Err(source.error("cannot refer to an open group", 0));
            }
            if gid >= first {
                return Err(source.error(
                    "cannot refer to group defined in the same lookbehind subpattern",
                    0,
                ));
            }
        }
        Ok(())
    }
}

fn width_seq(seq: &[Node], state: &State) -> (u128, u128) {
    let (mut lo, mut hi) = (0_u128, 0_u128);
    for node in seq {
        let (l, h) = width_node(node, state);
        lo = lo.saturating_add(l);
        hi = hi.saturating_add(h);
    }
    (lo.min(MAXWIDTH), hi.min(MAXWIDTH))
}

fn width_alt(alt: &Alt, state: &State) -> (u128, u128) {
    if alt.0.len() == 1 {
        return width_seq(&alt.0[0], state);
    }
    let mut lo = MAXWIDTH;
    let mut hi = 0;
    for seq in &alt.0 {
        let (l, h) = width_seq(seq, state);
        lo = lo.min(l);
        hi = hi.max(h);
    }
    (lo, hi)
}

fn width_node(node: &Node, state: &State) -> (u128, u128) {
    match node {
        Node::Lit(_) | Node::Any | Node::Class { .. } | Node::Cat(_) => (1, 1),
        Node::At(_) | Node::Look { .. } => (0, 0),
        Node::Group { body, .. } | Node::Atomic(body) => width_alt(body, state),
        Node::Repeat { min, max, item, .. } => {
            let (l, h) = width_node(item, state);
            let lo = l.saturating_mul(u128::from(*min));
            let hi = if *max == MAXREPEAT && h > 0 {
                MAXWIDTH
            } else {
                h.saturating_mul(u128::from(*max))
            };
            (lo.min(MAXWIDTH), hi.min(MAXWIDTH))
        }
        Node::GroupRef(gid) => state.width_of(*gid).unwrap_or((0, 0)),
        Node::Cond { yes, no, .. } => {
            let (mut lo, mut hi) = width_seq(yes, state);
            match no {
                Some(no) => {
                    let (l, h) = width_seq(no, state);
                    lo = lo.min(l);
                    hi = hi.max(h);
                }
                None => lo = 0,
            }
            (lo, hi)
        }
    }
}

/// `_parse_sub`: an alternation.
fn parse_sub(
    source: &mut Tokenizer<'_>,
    state: &mut State,
    mut verbose: bool,
    nested: usize,
) -> Result<Alt, PyError> {
    // Python's parser is recursive too, and gives up (RecursionError) near a thousand levels.
    if nested > MAX_NESTING {
        return Err(plain_error("the pattern nests too deeply"));
    }
    let mut items = Vec::new();
    loop {
        let first = nested == 0 && items.is_empty();
        items.push(parse_seq(source, state, verbose, nested + 1, first)?);
        if !source.matches('|')? {
            break;
        }
        if nested == 0 {
            verbose = state.flags & X != 0;
        }
    }
    Ok(Alt(items))
}

/// `_parse`: a sequence, up to `|`, `)` or the end.
#[allow(clippy::too_many_lines)] // one arm per syntax form, as in Python's parser
fn parse_seq(
    source: &mut Tokenizer<'_>,
    state: &mut State,
    mut verbose: bool,
    nested: usize,
    first: bool,
) -> Result<Seq, PyError> {
    let mut seq: Seq = Vec::new();
    while let Some(this) = source.next {
        if matches!(this, Tk::Char('|' | ')')) {
            break;
        }
        source.advance()?;
        if verbose {
            if let Tk::Char(' ' | '\t' | '\n' | '\r' | '\u{b}' | '\u{c}') = this {
                continue;
            }
            if this == Tk::Char('#') {
                loop {
                    match source.get()? {
                        None | Some(Tk::Char('\n')) => break,
                        _ => {}
                    }
                }
                continue;
            }
        }
        match this {
            Tk::Esc(c) => seq.push(escape(source, c, state)?),
            Tk::Char('[') => seq.push(parse_class(source)?),
            Tk::Char(c @ ('*' | '+' | '?' | '{')) => {
                let here = source.tell();
                let (min, max) = match c {
                    '?' => (0, 1),
                    '*' => (0, MAXREPEAT),
                    '+' => (1, MAXREPEAT),
                    _ => {
                        if source.next == Some(Tk::Char('}')) {
                            seq.push(Node::Lit(u32::from('{')));
                            continue;
                        }
                        let lo = source.get_while(usize::MAX, |c| c.is_ascii_digit())?;
                        let hi = if source.matches(',')? {
                            source.get_while(usize::MAX, |c| c.is_ascii_digit())?
                        } else {
                            lo.clone()
                        };
                        if !source.matches('}')? {
                            seq.push(Node::Lit(u32::from('{')));
                            source.seek(here)?;
                            continue;
                        }
                        let number = |digits: &str| -> Result<u64, PyError> {
                            match digits.parse::<u64>() {
                                Ok(n) if n < MAXREPEAT => Ok(n),
                                _ => Err(plain_error("the repetition number is too large")),
                            }
                        };
                        let min = if lo.is_empty() { 0 } else { number(&lo)? };
                        let max = if hi.is_empty() {
                            MAXREPEAT
                        } else {
                            number(&hi)?
                        };
                        if !hi.is_empty() && max < min {
                            return Err(source.error(
                                "min repeat greater than max repeat",
                                source.tell() - here,
                            ));
                        }
                        (min, max)
                    }
                };
                let len = source.tell() - here + 1;
                let Some(last) = seq.pop() else {
                    return Err(source.error("nothing to repeat", len));
                };
                if matches!(last, Node::At(_)) {
                    return Err(source.error("nothing to repeat", len));
                }
                if matches!(last, Node::Repeat { .. }) {
                    return Err(source.error("multiple repeat", len));
                }
                let greed = if source.matches('?')? {
                    Greed::Lazy
                } else if source.matches('+')? {
                    Greed::Possessive
                } else {
                    Greed::Greedy
                };
                seq.push(Node::Repeat {
                    min,
                    max,
                    greed,
                    item: Box::new(last),
                });
            }
            Tk::Char('.') => seq.push(Node::Any),
            Tk::Char('(') => {
                let start = source.tell() - 1;
                match group(source, state, verbose, nested, first, seq.is_empty(), start)? {
                    Parsed::Node(node) => seq.push(node),
                    Parsed::Nothing => {}
                    Parsed::GlobalFlags => verbose = state.flags & X != 0,
                }
            }
            Tk::Char('^') => seq.push(Node::At(At::Beginning)),
            Tk::Char('$') => seq.push(Node::At(At::End)),
            Tk::Char(c) => seq.push(Node::Lit(u32::from(c))),
        }
    }
    Ok(seq)
}

/// What a `(` started.
enum Parsed {
    Node(Node),
    /// A comment.
    Nothing,
    /// Global flags at the start.
    GlobalFlags,
}

#[allow(clippy::too_many_lines)] // one arm per extension, as in Python's parser
fn group(
    source: &mut Tokenizer<'_>,
    state: &mut State,
    verbose: bool,
    nested: usize,
    first: bool,
    empty_so_far: bool,
    start: usize,
) -> Result<Parsed, PyError> {
    let mut capture = true;
    let mut atomic = false;
    let mut name = None;
    let mut add = 0;
    let mut del = 0;
    if source.matches('?')? {
        let Some(char) = source.get()? else {
            return Err(source.error("unexpected end of pattern", 0));
        };
        match char {
            Tk::Char('P') => {
                if source.matches('<')? {
                    let text = source.get_until('>', "group name")?;
                    source.check_group_name(&text, 1)?;
                    name = Some(text);
                } else if source.matches('=')? {
                    let text = source.get_until(')', "group name")?;
                    source.check_group_name(&text, 1)?;
                    let offset = text.chars().count() + 1;
                    let Some(&gid) = state.group_names.get(&text) else {
                        return Err(
                            source.error(&format!("unknown group name {}", py_repr(&text)), offset)
                        );
                    };
                    if !state.check_group(gid) {
                        return Err(source.error("cannot refer to an open group", offset));
                    }
                    state.check_lookbehind_group(gid, source)?;
                    return Ok(Parsed::Node(Node::GroupRef(gid)));
                } else {
                    let Some(char) = source.get()? else {
                        return Err(source.error("unexpected end of pattern", 0));
                    };
                    let text = token_text(char);
                    return Err(source.error(
                        &format!("unknown extension ?P{text}"),
                        text.chars().count() + 2,
                    ));
                }
            }
            Tk::Char(':') => capture = false,
            Tk::Char('#') => loop {
                if source.next.is_none() {
                    return Err(
                        source.error("missing ), unterminated comment", source.tell() - start)
                    );
                }
                if source.get()? == Some(Tk::Char(')')) {
                    return Ok(Parsed::Nothing);
                }
            },
            Tk::Char(c @ ('=' | '!' | '<')) => {
                let mut kind = c;
                let mut behind = false;
                let mut outer_lookbehind = None;
                if c == '<' {
                    let Some(next) = source.get()? else {
                        return Err(source.error("unexpected end of pattern", 0));
                    };
                    match next {
                        Tk::Char(k @ ('=' | '!')) => kind = k,
                        other => {
                            let text = token_text(other);
                            return Err(source.error(
                                &format!("unknown extension ?<{text}"),
                                text.chars().count() + 2,
                            ));
                        }
                    }
                    behind = true;
                    outer_lookbehind = Some(state.lookbehind_groups);
                    if state.lookbehind_groups.is_none() {
                        state.lookbehind_groups = Some(state.groups());
                    }
                }
                let body = parse_sub(source, state, verbose, nested + 1)?;
                if let Some(None) = outer_lookbehind {
                    state.lookbehind_groups = None;
                }
                if !source.matches(')')? {
                    return Err(
                        source.error("missing ), unterminated subpattern", source.tell() - start)
                    );
                }
                return Ok(Parsed::Node(Node::Look {
                    behind,
                    negate: kind == '!',
                    body,
                }));
            }
            Tk::Char('(') => {
                let condname = source.get_until(')', "group name")?;
                let offset = condname.chars().count() + 1;
                let group = if is_identifier(&condname) {
                    *state.group_names.get(&condname).ok_or_else(|| {
                        source.error(
                            &format!("unknown group name {}", py_repr(&condname)),
                            offset,
                        )
                    })?
                } else {
                    let number = crate::ground::python_int::python_int(&condname)
                        .filter(|n| *n >= 0)
                        .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
                        .ok_or_else(|| {
                            source.error(
                                &format!("bad character in group name {}", py_repr(&condname)),
                                offset,
                            )
                        })?;
                    if number == 0 {
                        return Err(source.error("bad group number", offset));
                    }
                    if number >= MAXGROUPS {
                        return Err(
                            source.error(&format!("invalid group reference {number}"), offset)
                        );
                    }
                    state
                        .groupref_pos
                        .entry(number)
                        .or_insert(source.tell() - offset);
                    number
                };
                state.check_lookbehind_group(group, source)?;
                let yes = parse_seq(source, state, verbose, nested + 1, false)?;
                let no = if source.matches('|')? {
                    let no = parse_seq(source, state, verbose, nested + 1, false)?;
                    if source.next == Some(Tk::Char('|')) {
                        return Err(
                            source.error("conditional backref with more than two branches", 0)
                        );
                    }
                    Some(no)
                } else {
                    None
                };
                if !source.matches(')')? {
                    return Err(
                        source.error("missing ), unterminated subpattern", source.tell() - start)
                    );
                }
                return Ok(Parsed::Node(Node::Cond { group, yes, no }));
            }
            Tk::Char('>') => {
                capture = false;
                atomic = true;
            }
            Tk::Char(c) if flag_bit(c).is_some() || c == '-' => {
                match parse_flags(source, state, c)? {
                    None => {
                        if !first || !empty_so_far {
                            return Err(source.error(
                                "global flags not at the start of the expression",
                                source.tell() - start,
                            ));
                        }
                        return Ok(Parsed::GlobalFlags);
                    }
                    Some((a, d)) => {
                        add = a;
                        del = d;
                        capture = false;
                    }
                }
            }
            other => {
                let text = token_text(other);
                return Err(source.error(
                    &format!("unknown extension ?{text}"),
                    text.chars().count() + 1,
                ));
            }
        }
    }
    let gid = if capture {
        Some(state.open_group(name.as_deref()).map_err(|message| {
            source.error(&message, name.as_ref().map_or(0, |n| n.chars().count()) + 1)
        })?)
    } else {
        None
    };
    let sub_verbose = (verbose || add & X != 0) && del & X == 0;
    let body = parse_sub(source, state, sub_verbose, nested + 1)?;
    if !source.matches(')')? {
        return Err(source.error("missing ), unterminated subpattern", source.tell() - start));
    }
    if let Some(gid) = gid {
        let width = width_alt(&body, state);
        state.group_widths[gid - 1] = Some(width);
    }
    Ok(Parsed::Node(if atomic {
        Node::Atomic(body)
    } else {
        Node::Group {
            capture: gid.is_some(),
            add,
            del,
            body,
        }
    }))
}

fn token_text(tk: Tk) -> String {
    match tk {
        Tk::Char(c) => c.to_string(),
        Tk::Esc(c) => format!("\\{c}"),
    }
}

const fn flag_bit(c: char) -> Option<u8> {
    match c {
        'i' => Some(I),
        'L' => Some(0),
        'm' => Some(M),
        's' => Some(S),
        'x' => Some(X),
        'a' => Some(A),
        't' => Some(T),
        'u' => Some(U),
        _ => None,
    }
}

/// `_parse_flags`: `None` for global flags (`(?i)`), else the scoped ones added and removed.
fn parse_flags(
    source: &mut Tokenizer<'_>,
    state: &mut State,
    first: char,
) -> Result<Option<(u8, u8)>, PyError> {
    let mut add = 0;
    let mut del = 0;
    let mut char = Some(Tk::Char(first));
    if first != '-' {
        loop {
            let Some(Tk::Char(c)) = char else {
                unreachable!("the loop only continues on a flag letter")
            };
            if c == 'L' {
                return Err(source.error(
                    "bad inline flags: cannot use 'L' flag with a str pattern",
                    0,
                ));
            }
            let flag = flag_bit(c).expect("checked by the caller and below");
            add |= flag;
            if flag & TYPE_FLAGS != 0 && add & TYPE_FLAGS != flag {
                return Err(source.error(
                    "bad inline flags: flags 'a', 'u' and 'L' are incompatible",
                    0,
                ));
            }
            char = source.get()?;
            match char {
                None => return Err(source.error("missing -, : or )", 0)),
                Some(Tk::Char(')' | '-' | ':')) => break,
                Some(Tk::Char(c)) if flag_bit(c).is_some() => {}
                Some(other) => {
                    let alpha = matches!(other, Tk::Char(c) if c.is_alphabetic());
                    let message = if alpha {
                        "unknown flag"
                    } else {
                        "missing -, : or )"
                    };
                    return Err(source.error(message, other.len()));
                }
            }
        }
    }
    if char == Some(Tk::Char(')')) {
        state.flags |= add;
        return Ok(None);
    }
    if add & T != 0 {
        return Err(source.error("bad inline flags: cannot turn on global flag", 1));
    }
    if char == Some(Tk::Char('-')) {
        char = source.get()?;
        let Some(Tk::Char(c)) = char.filter(|t| matches!(t, Tk::Char(c) if flag_bit(*c).is_some()))
        else {
            return Err(match char {
                None => source.error("missing flag", 0),
                Some(other) => {
                    let alpha = matches!(other, Tk::Char(c) if c.is_alphabetic());
                    let message = if alpha {
                        "unknown flag"
                    } else {
                        "missing flag"
                    };
                    source.error(message, other.len())
                }
            });
        };
        let mut c = c;
        loop {
            let flag = flag_bit(c).expect("checked above and below");
            if flag & TYPE_FLAGS != 0 || c == 'L' {
                return Err(source.error(
                    "bad inline flags: cannot turn off flags 'a', 'u' and 'L'",
                    0,
                ));
            }
            del |= flag;
            char = source.get()?;
            match char {
                None => return Err(source.error("missing :", 0)),
                Some(Tk::Char(':')) => break,
                Some(Tk::Char(next)) if flag_bit(next).is_some() => c = next,
                Some(other) => {
                    let alpha = matches!(other, Tk::Char(c) if c.is_alphabetic());
                    let message = if alpha { "unknown flag" } else { "missing :" };
                    return Err(source.error(message, other.len()));
                }
            }
        }
    }
    if del & T != 0 {
        return Err(source.error("bad inline flags: cannot turn off global flag", 1));
    }
    if add & del != 0 {
        return Err(source.error("bad inline flags: flag turned on and off", 1));
    }
    Ok(Some((add, del)))
}

/// `_escape`: a backslash sequence outside a class.
fn escape(source: &mut Tokenizer<'_>, c: char, state: &State) -> Result<Node, PyError> {
    let node = match c {
        'A' => Node::At(At::BeginningString),
        'Z' => Node::At(At::EndString),
        'b' => Node::At(At::Boundary),
        'B' => Node::At(At::NonBoundary),
        'd' | 'D' | 's' | 'S' | 'w' | 'W' => Node::Cat(category(c)),
        '0' => {
            let digits = source.get_while(2, |c| ('0'..='7').contains(&c))?;
            Node::Lit(octal(&digits))
        }
        '1'..='9' => {
            let mut escape = format!("\\{c}");
            if let Some(d) = source.next_char().filter(char::is_ascii_digit) {
                source.advance()?;
                escape.push(d);
                let octal_digits = |x: char| ('0'..='7').contains(&x);
                if octal_digits(c)
                    && octal_digits(d)
                    && source.next_char().is_some_and(octal_digits)
                {
                    let e = source.next_char().expect("checked just above");
                    source.advance()?;
                    escape.push(e);
                    let value = u32::from_str_radix(&escape[1..], 8).expect("three octal digits");
                    if value > 0o377 {
                        return Err(source.error(
                            &format!("octal escape value {escape} outside of range 0-0o377"),
                            escape.chars().count(),
                        ));
                    }
                    return Ok(Node::Lit(value));
                }
            }
            let group: usize = escape[1..].parse().expect("one or two digits");
            if group < state.groups() {
                if !state.check_group(group) {
                    return Err(
                        source.error("cannot refer to an open group", escape.chars().count())
                    );
                }
                state.check_lookbehind_group(group, source)?;
                return Ok(Node::GroupRef(group));
            }
            return Err(source.error(
                &format!("invalid group reference {group}"),
                escape.chars().count() - 1,
            ));
        }
        _ => Node::Lit(literal_escape(source, c, false)?),
    };
    Ok(node)
}

fn category(c: char) -> Cat {
    match c {
        'd' => Cat::Digit(true),
        'D' => Cat::Digit(false),
        's' => Cat::Space(true),
        'S' => Cat::Space(false),
        'w' => Cat::Word(true),
        _ => Cat::Word(false),
    }
}

fn octal(digits: &str) -> u32 {
    u32::from_str_radix(&format!("0{digits}"), 8).unwrap_or(0)
}

/// The character escapes both contexts share: `\a \f \n \r \t \v \\`, `\xhh`, `\uhhhh`,
/// `\Uhhhhhhhh`, and a backslash before anything that is not an ASCII letter or digit. In a
/// class, `\b` is a backspace.
fn literal_escape(source: &mut Tokenizer<'_>, c: char, in_class: bool) -> Result<u32, PyError> {
    let simple = match c {
        'a' => Some('\u{7}'),
        'b' if in_class => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'v' => Some('\u{b}'),
        '\\' => Some('\\'),
        _ => None,
    };
    if let Some(simple) = simple {
        return Ok(u32::from(simple));
    }
    let digits = match c {
        'x' => Some(2),
        'u' => Some(4),
        'U' => Some(8),
        _ => None,
    };
    if let Some(n) = digits {
        let hex = source.get_while(n, |c| c.is_ascii_hexdigit())?;
        if hex.len() != n {
            let escape = format!("\\{c}{hex}");
            return Err(source.error(
                &format!("incomplete escape {escape}"),
                escape.chars().count(),
            ));
        }
        let value = u32::from_str_radix(&hex, 16).expect("hex digits");
        if value >= 0x11_0000 {
            let escape = format!("\\{c}{hex}");
            return Err(source.error(&format!("bad escape {escape}"), escape.chars().count()));
        }
        return Ok(value);
    }
    if c == 'N' {
        return Err(plain_error(
            "\\N{...} named characters are not supported here",
        ));
    }
    if c.is_ascii_alphanumeric() {
        return Err(source.error(&format!("bad escape \\{c}"), 2));
    }
    Ok(u32::from(c))
}

/// `_class_escape`: a backslash sequence inside `[...]`.
fn class_escape(source: &mut Tokenizer<'_>, c: char) -> Result<ClassItem, PyError> {
    match c {
        'd' | 'D' | 's' | 'S' | 'w' | 'W' => Ok(ClassItem::Cat(category(c))),
        '0'..='7' => {
            let more = source.get_while(2, |c| ('0'..='7').contains(&c))?;
            let escape = format!("\\{c}{more}");
            let value = u32::from_str_radix(&escape[1..], 8).expect("octal digits");
            if value > 0o377 {
                return Err(source.error(
                    &format!("octal escape value {escape} outside of range 0-0o377"),
                    escape.chars().count(),
                ));
            }
            Ok(ClassItem::Lit(value))
        }
        '8' | '9' => Err(source.error(&format!("bad escape \\{c}"), 2)),
        _ => literal_escape(source, c, true).map(ClassItem::Lit),
    }
}

/// A character set, after its `[`.
fn parse_class(source: &mut Tokenizer<'_>) -> Result<Node, PyError> {
    let here = source.tell() - 1;
    let mut items: Vec<ClassItem> = Vec::new();
    let negate = source.matches('^')?;
    loop {
        let Some(this) = source.get()? else {
            return Err(source.error("unterminated character set", source.tell() - here));
        };
        if this == Tk::Char(']') && !items.is_empty() {
            break;
        }
        let first = match this {
            Tk::Esc(c) => class_escape(source, c)?,
            Tk::Char(c) => ClassItem::Lit(u32::from(c)),
        };
        if source.matches('-')? {
            let Some(that) = source.get()? else {
                return Err(source.error("unterminated character set", source.tell() - here));
            };
            if that == Tk::Char(']') {
                items.push(first);
                items.push(ClassItem::Lit(u32::from('-')));
                break;
            }
            let second = match that {
                Tk::Esc(c) => class_escape(source, c)?,
                Tk::Char(c) => ClassItem::Lit(u32::from(c)),
            };
            let (ClassItem::Lit(lo), ClassItem::Lit(hi)) = (&first, &second) else {
                let message = format!(
                    "bad character range {}-{}",
                    token_text(this),
                    token_text(that)
                );
                return Err(source.error(&message, this.len() + 1 + that.len()));
            };
            if hi < lo {
                let message = format!(
                    "bad character range {}-{}",
                    token_text(this),
                    token_text(that)
                );
                return Err(source.error(&message, this.len() + 1 + that.len()));
            }
            items.push(ClassItem::Range(*lo, *hi));
        } else {
            items.push(first);
        }
    }
    Ok(Node::Class { negate, items })
}

/// The checks Python makes when it compiles: fixed-width look-behinds, and no repeat under the
/// template flag.
fn check(alt: &Alt, state: &State, flags: u8) -> Result<(), PyError> {
    alt.0
        .iter()
        .flatten()
        .try_for_each(|node| check_node(node, state, flags))
}

fn check_node(node: &Node, state: &State, flags: u8) -> Result<(), PyError> {
    match node {
        Node::Look { behind, body, .. } => {
            if *behind {
                let (lo, hi) = width_alt(body, state);
                if lo > MAXCODE {
                    return Err(plain_error("looks too much behind"));
                }
                if lo != hi {
                    return Err(plain_error("look-behind requires fixed-width pattern"));
                }
            }
            check(body, state, flags)
        }
        Node::Group { body, add, del, .. } => check(body, state, combine(flags, *add, *del)),
        Node::Atomic(body) => check(body, state, flags),
        Node::Repeat { item, greed, .. } => {
            if flags & T != 0 {
                let op = match greed {
                    Greed::Greedy => "MAX_REPEAT",
                    Greed::Lazy => "MIN_REPEAT",
                    Greed::Possessive => "POSSESSIVE_REPEAT",
                };
                return Err(plain_error(&format!(
                    "internal: unsupported template operator {op}"
                )));
            }
            check_node(item, state, flags)
        }
        Node::Cond { yes, no, .. } => yes
            .iter()
            .chain(no.iter().flatten())
            .try_for_each(|n| check_node(n, state, flags)),
        _ => Ok(()),
    }
}
