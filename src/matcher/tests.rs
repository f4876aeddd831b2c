//! The unit tests of `matcher`.

use super::{How, Matcher};

proptest::proptest! {
    /// Looking for the text in the joined list finds what comparing each word finds.
    #[test]
    fn a_text_is_in_the_joined_list_when_it_is_one_of_its_words(
        words in proptest::collection::vec("[ab|\n]{0,3}", 1..4),
        text in "[ab|\n]{0,4}",
        search: bool,
    ) {
        let words: Vec<String> = words
            .iter()
            .flat_map(|w| w.split('|').map(str::to_owned).collect::<Vec<_>>())
            .collect();
        let list = words.join("|");
        let each = words.iter().map(String::as_bytes);
        proptest::prop_assert_eq!(
            super::is_in_list(&list, &text, search),
            super::is_one_of(each, &text, search),
            "list {:?}, text {:?}", list, text
        );
    }
}

#[test]
fn an_anchored_choice_of_words_compares_as_text_like_the_regex_would() {
    let texts = [
        "rm",
        "rm\n",
        "rmdir",
        "xrm",
        "unlink",
        "",
        "a.b",
        "axb",
        "RM",
        "rm\n\n",
        "npm",
        "npm.cmd",
        "pnpm.exe",
        "npm.cmd\n",
        "npm.",
        "npmcmd",
        "tar",
        "gtar",
        "bsdtar",
        "gbsdtar",
        "zip",
        "zip.exe",
        "ad",
        "abd",
        "acd",
        "abcd",
        "bsd",
    ];
    for pattern in [
        "^rm$",
        "^(rm|unlink)$",
        "^(?:rm|unlink)$",
        "^(a\\.b|c-d)$",
        "^rm|unlink$",
        "^(npm|pnpm)(\\.cmd|\\.exe)?$",
        "^((bsd|g)?tar|zip)$",
        "^(?:a(b|c)?d|(?:bsd)?)$",
        "^((bsd|g)?tar|zip)(\\.exe)?$",
    ] {
        for search in [true, false] {
            let words = Matcher::build(pattern, search).0;
            let regex = Matcher {
                source: pattern.to_owned(),
                how: How::Invalid,
                search,
            };
            let regex = match Matcher::build(&format!("(?:){pattern}"), search).0.how {
                how @ How::Regex(_) => Matcher { how, ..regex },
                _ => unreachable!("{pattern}"),
            };
            for text in texts {
                assert_eq!(
                    words.decides(text),
                    regex.decides(text),
                    "{pattern} {search} {text:?}"
                );
            }
        }
    }
    assert!(matches!(
        Matcher::compile_search("^(rm|unlink)$").0.how,
        How::Words(_)
    ));
    assert!(matches!(
        Matcher::compile_search("^rm|unlink$").0.how,
        How::Regex(_)
    ));
    assert!(matches!(
        Matcher::compile_search("^(npm|pnpm)(\\.cmd|\\.exe)?$")
            .0
            .how,
        How::Words(_)
    ));
    assert!(matches!(
        Matcher::compile_search("^(mkfs(\\..+)?|mke2fs)$").0.how,
        How::Regex(_)
    ));
}

#[test]
fn alternation_is_a_full_match() {
    let (m, warning) = Matcher::compile("terminal|file");
    assert!(warning.is_none());
    assert!(m.matches(Some("terminal")));
    assert!(m.matches(Some("file")));
    assert!(!m.matches(Some("write_file")));
    assert!(!m.matches(Some("terminal2")));
}

#[test]
fn plain_names_compare_as_text_like_the_regex_would() {
    for (pattern, text) in [
        ("terminal", "terminal"),
        ("terminal", "terminal2"),
        ("terminal", "Terminal"),
        ("write_file", "write_file"),
        ("", ""),
        ("", "x"),
        ("café", "café"),
        ("web-search", "web-search"),
        ("web-search", "websearch"),
    ] {
        let (m, warning) = Matcher::compile(pattern);
        assert!(warning.is_none() && !m.is_literal(), "{pattern}");
        let regex = |mode| {
            let translated = super::python::translate(pattern, mode, super::python::Text::Any);
            fancy_regex::Regex::new(&translated.unwrap().pattern).unwrap()
        };
        let full = regex(super::python::Mode::Full);
        assert_eq!(
            m.matches(Some(text)),
            full.is_match(text).unwrap(),
            "{pattern} ~ {text}"
        );
        let (s, _) = Matcher::compile_search(pattern);
        let anywhere = regex(super::python::Mode::Search);
        assert_eq!(
            s.matches(Some(text)),
            anywhere.is_match(text).unwrap(),
            "{pattern} in {text}"
        );
    }
}

#[test]
fn invalid_regex_is_literal() {
    let (m, warning) = Matcher::compile("foo[bar");
    assert!(m.is_literal());
    assert!(warning.is_some_and(|w| !w.contains('\n')));
    assert!(m.matches(Some("foo[bar")));
    assert!(!m.matches(Some("foob")));
}

#[test]
fn unicode_property_classes_are_literal_as_in_python() {
    // Python's `re` has no `\p{..}`: Hermes falls back to literal equality for these.
    let (m, warning) = Matcher::compile(r"\p{Greek}+");
    assert_eq!(warning.as_deref(), Some(r"bad escape \p at position 0"));
    assert!(m.is_literal());
    assert!(!m.matches(Some("αβγ")));
    assert!(m.matches(Some(r"\p{Greek}+")));
    let (n, _) = Matcher::compile(r"x\PL");
    assert!(n.is_literal());
    // An escaped backslash followed by `p` is no property class.
    let (e, warning) = Matcher::compile(r"a\\p");
    assert!(!e.is_literal() && warning.is_none());
    assert!(e.matches(Some(r"a\p")));
    // Unicode `\w` and case folding stay, as in Python 3.
    let (w, _) = Matcher::compile(r"(?i)\w+_É");
    assert!(w.matches(Some("ÿß_é")));
}

#[test]
fn classes_are_pythons_on_any_text() {
    // Python 3.11's `re.fullmatch` on each: its `\w` is `str.isalnum()` and `_` (`²` is,
    // a combining accent is not), its `\s` takes U+001C..U+001F.
    agree_with_python(&[
        (r"\w", "²", true),
        (r"\w", "½", true),
        (r"\w", "\u{301}", false),
        (r"\w", "\u{203f}", false),
        (r"\w", "\u{200d}", false),
        (r"\w", "Ⓐ", false),
        (r"\w", "\u{e0100}", false),
        (r"\w", "_", true),
        (r"e\w", "e\u{301}", false),
        (r"\W", "\u{301}", true),
        (r"(?i)\w", "\u{345}", false),
        (r"[\w]", "²", true),
        (r"[^\w]", "\u{301}", true),
        (r"(?a)\w", "²", false),
        (r"\s", "\u{1c}", true),
        (r"\S", "\u{1c}", false),
        (r"[\s]", "\u{1f}", true),
        (r"x\s", "x\u{1d}", true),
        (r"\d", "٣", true),
        (r"\w+", "mcp_github", true),
        (r"mcp_\w+", "mcp_café²", true),
        (r"mcp_\w+", "mcp_git hub", false),
    ]);
    // An ASCII name and then another: each gets its own regex, the same matcher.
    let (m, _) = Matcher::compile(r"\w+");
    assert!(m.matches(Some("terminal")));
    assert!(m.matches(Some("x²")));
    assert!(!m.matches(Some("e\u{301}")));
    assert!(m.matches(Some("terminal")));
}

/// Each `(pattern, name, what Python's re.fullmatch says)`: the pattern compiles, and its
/// full match says the same.
fn agree_with_python(cases: &[(&str, &str, bool)]) {
    for &(pattern, name, python) in cases {
        let (m, why) = Matcher::compile(pattern);
        assert!(why.is_none(), "{pattern}: {why:?}");
        assert_eq!(m.matches(Some(name)), python, "{pattern} on {name:?}");
    }
}

#[test]
fn a_pattern_too_large_for_other_text_says_so() {
    let (m, why) = Matcher::compile(r"\w{300}");
    assert!(why.is_none());
    assert!(!m.matches(Some("abc")), "ASCII text is matched exactly");
    assert!(!m.fits_any_text());
    assert!(m.matches(Some("é")), "counts as matching");
    for pattern in [r"\w+", "terminal", "a(b", r"x\d"] {
        assert!(Matcher::compile(pattern).0.fits_any_text(), "{pattern}");
    }
    // Python's `\w` is written out on such text, so a pattern may read it 16 times; past
    // that (a hostile HOOK.md could hold thousands) it is not built at all.
    let sixteen = r"\w".repeat(16);
    let (m, _) = Matcher::compile(&sixteen);
    assert!(m.fits_any_text() && m.matches(Some(&"é".repeat(16))));
    let many = r"[\W.]".repeat(5000);
    let (m, _) = Matcher::compile_search(&many);
    assert!(!m.fits_any_text());
    assert!(
        !m.matches(Some(&".".repeat(4999))),
        "ASCII text is matched exactly"
    );
    assert!(m.matches(Some("é")), "counts as matching");
}

#[test]
fn case_insensitive_i_is_pythons_four_letters() {
    // Python 3.11's `re.fullmatch` on each: `I i İ ı` are one letter under `(?i)`, not
    // under `(?a)` or without the flag; a class with one of them has them all.
    agree_with_python(&[
        ("(?i)i", "İ", true),
        ("(?i)i", "ı", true),
        ("(?i)I", "ı", true),
        ("(?i)ı", "I", true),
        ("(?i)İ", "i", true),
        ("(?i)ı", "İ", true),
        ("(?i)[a-z]", "İ", true),
        ("(?i)[h-j]+", "hİıJ", true),
        ("(?i)[İ]", "i", true),
        ("(?i)[^i]", "ı", false),
        ("(?i)[^a-z]", "İ", false),
        ("(?ia)i", "İ", false),
        ("(?ia)i", "I", true),
        ("i", "İ", false),
        ("(?i)(?-i:i)", "İ", false),
        ("(?i)(?<=i)x", "ıx", false), // a full match starts at the start
        ("(?i).(?<=i)x", "ıx", true),
        // A back reference compares lower cases in Python, so `ı` is not `i` there (and
        // `İ` is, which `fancy-regex` does not do: a gap docs/hermes-yaml.md names).
        ("(?i)(i)\\1", "iı", false),
    ]);
}

#[test]
fn ascii_case_insensitive_folds_ascii_letters_only() {
    // Python 3.11's `re.fullmatch` on each: with the `a` flag, `(?i)` pairs ASCII letters and
    // nothing else (not the Kelvin sign with `k`, not `É` with `é`).
    agree_with_python(&[
        ("(?ai)k", "\u{212a}", false),
        ("(?ai)k", "K", true),
        ("(?ai)é", "É", false),
        ("(?ai)[a-z]", "\u{212a}", false),
        ("(?ai)[^k]", "\u{212a}", true),
        ("(?ai)[^k]", "K", false),
        ("(?ai)[Z-a]", "A", true),
        ("(?ai)[à-ÿ]", "À", false),
        ("(?ai)s", "ſ", false),
        ("(?ai)[ā]", "Ā", false),
        ("(?ai)[\\w]", "\u{212a}", false),
        ("(?ai)(a)\\1", "aA", true),
        ("(?ai)(?u:k)", "\u{212a}", true),
        ("(?ai)(?-i:k)", "K", false),
        ("(?a)(?i:k)", "K", true),
        ("(?i)(?a:k)", "\u{212a}", false),
        ("(?i)(?a:k)", "K", true),
    ]);
}

#[test]
fn pattern_searches_every_scalar_value() {
    let (m, _) = Matcher::compile_search(r"\.py$");
    let input = |v: serde_json::Value| v.as_object().unwrap().clone();
    assert!(m.matches_any_value(&input(serde_json::json!({"path": "x.py"}))));
    assert!(m.matches_any_value(&input(
        serde_json::json!({"edits": [{"file": {"name": "a.py"}}]})
    )));
    assert!(!m.matches_any_value(&input(serde_json::json!({"x.py": "key only", "n": null}))));
    let (rm, _) = Matcher::compile_search("rm -rf");
    assert!(rm.matches_any_value(&input(serde_json::json!({"command": "sudo rm -rf /"}))));
    let (num, _) = Matcher::compile_search("^42$");
    assert!(num.matches_any_value(&input(serde_json::json!({"n": 42}))));
    let (bad, warning) = Matcher::compile_search("a(b");
    assert!(warning.is_some());
    assert!(bad.matches_any_value(&input(serde_json::json!({"s": "xa(by"}))));
}

#[test]
fn no_tool_never_matches() {
    let (m, _) = Matcher::compile(".*");
    assert!(!m.matches(None));
    assert!(m.matches(Some("")));
}

#[test]
fn anchors_cannot_be_escaped_by_the_pattern() {
    let (m, _) = Matcher::compile("a$|b");
    assert!(m.matches(Some("a")));
    assert!(!m.matches(Some("ab")));
}

#[test]
fn a_pattern_of_deeply_nested_groups_is_no_word_list_and_reads_without_recursing_deeply() {
    let deep = format!("^{}rm{}$", "(".repeat(200_000), ")".repeat(200_000));
    assert!(super::words_of(&deep).is_none());
    assert!(super::words_of("^((((a))))$").is_some());
    assert!(super::words_of("^(((((a)))))$").is_none());
}
