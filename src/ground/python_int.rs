//! Python's `int()` of a string, which Hermes applies to config values and Python's `re` to
//! group numbers.

/// Python's `int(str)`: blanks around, a sign, decimal digits with single underscores between.
pub(crate) fn python_int(text: &str) -> Option<i128> {
    let text = text.trim();
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
        || !digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
    {
        return None;
    }
    let value = digits
        .bytes()
        .filter(u8::is_ascii_digit)
        .fold(0_i128, |acc, d| {
            acc.saturating_mul(10).saturating_add(i128::from(d - b'0'))
        });
    Some(if negative { -value } else { value })
}
