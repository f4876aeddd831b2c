//! The short cut for a line of plain words, checked against the grammar on generated lines.

use proptest::prelude::*;

use super::{RESERVED, grammar, plain_words};

/// The words a line of plain words is made of, reserved words and assignments among them.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9._/,:+@%-]{1,6}",
        "[a-z]{1,3}=[a-z0-9]{0,3}",
        proptest::sample::select(RESERVED.to_vec()).prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Whatever the short cut reads, the grammar reads the same.
    #[test]
    fn plain_words_are_read_as_the_grammar_reads_them(
        words in proptest::collection::vec(word(), 0..5),
        blanks in proptest::collection::vec("[ \t]{1,2}", 5),
        lead in "[ \t]{0,2}",
    ) {
        let mut text = lead;
        for (word, blank) in words.iter().zip(&blanks) {
            text.push_str(word);
            text.push_str(blank);
        }
        if let Some(fast) = plain_words(&text) {
            let slow = grammar(&text, None).expect("plain words parse");
            prop_assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{:?}", text);
        }
    }
}

#[test]
fn only_plain_words_take_the_short_cut() {
    assert!(plain_words("ls -la").is_some());
    assert!(plain_words("git push --force-with-lease=origin/main").is_some());
    for text in [
        "", " ", "a=b ls", "if", "ls ~", "ls *", "ls $HOME", "ls 'x'", "ls\nrm", "a;b", "ls # c",
        "ls {a,b}", "ls > x", "time ls",
    ] {
        assert!(plain_words(text).is_none(), "{text:?}");
    }
}
