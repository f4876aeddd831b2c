//! The figures docs/performance.md keeps ("Kept figures": a table of a row's figure and its
//! ratio), and the rows of a run that came out more than 0.05x above them.

use std::collections::BTreeMap;
use std::path::Path;

/// How far above its kept figure a ratio may come before it is called a regression.
pub(crate) const SLACK: f64 = 0.05;

/// The kept ratio of each figure, read from the "Kept figures" section's table.
pub(crate) fn figures(doc: &Path) -> BTreeMap<String, f64> {
    let text = std::fs::read_to_string(doc).unwrap_or_default();
    let Some(start) = text.find("\n## Kept figures") else {
        return BTreeMap::new();
    };
    let section = &text[start + 1..];
    let end = section[1..]
        .find("\n## ")
        .map_or(section.len(), |at| at + 1);
    section[..end]
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
            let [figure, kept, ..] = cells.as_slice() else {
                return None;
            };
            let ratio = ratio(kept)?;
            Some((figure.trim().trim_matches('`').to_owned(), ratio))
        })
        .collect()
}

/// The last ratio (`1.23x`) a measured text gives.
pub(crate) fn ratio(text: &str) -> Option<f64> {
    let end = text.rfind('x')?;
    let start = text[..end]
        .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or(0, |at| at + 1);
    text[start..end].parse().ok()
}

/// One line per row that regressed, and one that says what was compared.
pub(crate) fn report(rows: &[(&str, &str)], kept: &BTreeMap<String, f64>) -> Vec<String> {
    let mut lines = Vec::new();
    let mut compared = 0;
    for (figure, measured) in rows {
        let (Some(now), Some(before)) = (ratio(measured), kept.get(figure.trim())) else {
            continue;
        };
        compared += 1;
        if now > before + SLACK {
            lines.push(format!(
                "regression: {}: {now:.2}x, kept {before:.2}x (more than {SLACK}x above it)",
                figure.trim()
            ));
        }
    }
    lines.push(format!(
        "{compared} ratios compared with the figures kept in docs/performance.md, {} above them \
         by more than {SLACK}x",
        lines.len()
    ));
    lines
}
