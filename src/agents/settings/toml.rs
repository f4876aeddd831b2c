//! TOML settings files (Codex's `config.toml`) edited through `toml_edit`, which keeps comments,
//! key order and spacing of everything it is not asked to change: hooks are `[[hooks.<Event>]]`
//! tables, each with `[[hooks.<Event>.hooks]]` handlers.

use serde_json::{Map, Value};
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table};

use super::json::{SyntaxError, line_column};

/// A parsed TOML file: the document to edit, and the line of each `[[hooks.<Event>]]` table.
pub(crate) struct Toml {
    doc: DocumentMut,
    /// For each event key, the line of each of its tables (in order), where the parser said.
    lines: Vec<(String, Vec<Option<usize>>)>,
}

/// Parses `text`; the error names the line and column.
pub(crate) fn parse(text: &str) -> Result<Toml, SyntaxError> {
    let parsed = toml_edit::Document::parse(text.to_owned()).map_err(|err| {
        let at = err.span().map_or(0, |span| span.start);
        let (line, column) = line_column(text, at);
        SyntaxError {
            line,
            column,
            message: err.message().to_owned(),
        }
    })?;
    let lines = table_lines(&parsed, text);
    Ok(Toml {
        doc: parsed.into_mut(),
        lines,
    })
}

fn table_lines(
    parsed: &toml_edit::Document<String>,
    text: &str,
) -> Vec<(String, Vec<Option<usize>>)> {
    let Some(hooks) = parsed.get("hooks").and_then(Item::as_table_like) else {
        return Vec::new();
    };
    hooks
        .iter()
        .map(|(key, item)| {
            let lines = match item {
                Item::ArrayOfTables(tables) => tables
                    .iter()
                    .map(|t| t.span().map(|s| line_column(text, s.start).0))
                    .collect(),
                other => vec![other.span().map(|s| line_column(text, s.start).0)],
            };
            (key.to_owned(), lines)
        })
        .collect()
}

impl Toml {
    /// The `hooks` tree as JSON values (the same shapes as the JSON files), for reading. `Err`
    /// names a part of the wrong type.
    pub(crate) fn hooks(&self) -> Result<Option<Map<String, Value>>, String> {
        let Some(hooks) = self.doc.get("hooks") else {
            return Ok(None);
        };
        match to_json(hooks) {
            Value::Object(map) => Ok(Some(map)),
            _ => Err(format!("`hooks` is {}, not a table", item_kind(hooks))),
        }
    }

    /// The line of table `index` of `event`, when known.
    pub(crate) fn line(&self, event: &str, index: usize) -> Option<usize> {
        self.lines
            .iter()
            .find(|(key, _)| key == event)
            .and_then(|(_, lines)| lines.get(index).copied().flatten())
    }

    /// The event's tables, created (with an implicit `[hooks]`) when missing. `Err` when a part
    /// of the way is not tables this editor writes into.
    fn tables_mut(&mut self, event: &str) -> Result<&mut ArrayOfTables, String> {
        let root = self.doc.as_table_mut();
        if !root.contains_key("hooks") {
            let mut table = Table::new();
            table.set_implicit(true);
            root.insert("hooks", Item::Table(table));
        }
        let hooks = root.get_mut("hooks").expect("inserted above");
        let kind = item_kind(hooks);
        let hooks = hooks
            .as_table_mut()
            .ok_or_else(|| format!("`hooks` is {kind}; install writes into a [hooks] table"))?;
        if !hooks.contains_key(event) {
            hooks.insert(event, Item::ArrayOfTables(ArrayOfTables::new()));
        }
        let item = hooks.get_mut(event).expect("inserted above");
        let kind = item_kind(item);
        item.as_array_of_tables_mut().ok_or_else(|| {
            format!("`hooks.{event}` is {kind}; install adds [[hooks.{event}]] tables")
        })
    }

    /// Adds one `[[hooks.<event>]]` table made from `group` (a JSON object).
    pub(crate) fn add(&mut self, event: &str, group: &Value) -> Result<(), String> {
        let table = to_table(group);
        self.tables_mut(event)?.push(table);
        Ok(())
    }

    /// Sets the command and timeout of the one handler of table `index` of `event`.
    pub(crate) fn update(
        &mut self,
        event: &str,
        index: usize,
        command: &str,
        timeout: u64,
    ) -> Result<(), String> {
        let group = self
            .tables_mut(event)?
            .get_mut(index)
            .ok_or("no such table")?;
        let handler = group
            .get_mut("hooks")
            .and_then(Item::as_array_of_tables_mut)
            .and_then(|handlers| handlers.get_mut(0))
            .ok_or("no handler table")?;
        handler["command"] = toml_edit::value(command);
        handler["timeout"] = toml_edit::value(i64::try_from(timeout).unwrap_or(i64::MAX));
        Ok(())
    }

    /// Removes table `index` of `event`; the event's key goes when none is left, and `[hooks]`
    /// when it was never written as a header and holds nothing more.
    pub(crate) fn remove(&mut self, event: &str, index: usize) -> Result<(), String> {
        let tables = self.tables_mut(event)?;
        if index < tables.len() {
            tables.remove(index);
        }
        let empty = tables.is_empty();
        let root = self.doc.as_table_mut();
        let hooks = root
            .get_mut("hooks")
            .and_then(Item::as_table_mut)
            .ok_or("no [hooks] table")?;
        if empty {
            hooks.remove(event);
        }
        if hooks.is_empty() && hooks.is_implicit() {
            root.remove("hooks");
        }
        Ok(())
    }

    /// The file's text.
    pub(crate) fn text(&self) -> String {
        self.doc.to_string()
    }
}

/// What an item is, in words.
fn item_kind(item: &Item) -> &'static str {
    match item {
        Item::None => "nothing",
        Item::Table(_) => "a table",
        Item::ArrayOfTables(_) => "an array of tables",
        Item::Value(value) => match value {
            toml_edit::Value::String(_) => "a string",
            toml_edit::Value::Integer(_) => "an integer",
            toml_edit::Value::Float(_) => "a float",
            toml_edit::Value::Boolean(_) => "a boolean",
            toml_edit::Value::Datetime(_) => "a date",
            toml_edit::Value::Array(_) => "an inline array",
            toml_edit::Value::InlineTable(_) => "an inline table",
        },
    }
}

/// A TOML item as a JSON value (dates as their text).
fn to_json(item: &Item) -> Value {
    match item {
        Item::None => Value::Null,
        Item::Table(table) => Value::Object(
            table
                .iter()
                .map(|(key, item)| (key.to_owned(), to_json(item)))
                .collect(),
        ),
        Item::ArrayOfTables(tables) => Value::Array(
            tables
                .iter()
                .map(|table| to_json(&Item::Table(table.clone())))
                .collect(),
        ),
        Item::Value(value) => value_to_json(value),
    }
}

fn value_to_json(value: &toml_edit::Value) -> Value {
    match value {
        toml_edit::Value::String(s) => Value::from(s.value().as_str()),
        toml_edit::Value::Integer(i) => Value::from(*i.value()),
        toml_edit::Value::Float(f) => {
            serde_json::Number::from_f64(*f.value()).map_or(Value::Null, Value::Number)
        }
        toml_edit::Value::Boolean(b) => Value::from(*b.value()),
        toml_edit::Value::Datetime(d) => Value::from(d.value().to_string()),
        toml_edit::Value::Array(array) => Value::Array(array.iter().map(value_to_json).collect()),
        toml_edit::Value::InlineTable(table) => Value::Object(
            table
                .iter()
                .map(|(key, value)| (key.to_owned(), value_to_json(value)))
                .collect(),
        ),
    }
}

/// A JSON object as a TOML table: arrays of objects become arrays of tables.
fn to_table(value: &Value) -> Table {
    let mut table = Table::new();
    if let Value::Object(map) = value {
        for (key, value) in map {
            match value {
                Value::Array(items) if items.iter().all(Value::is_object) && !items.is_empty() => {
                    let mut tables = ArrayOfTables::new();
                    for item in items {
                        tables.push(to_table(item));
                    }
                    table.insert(key, Item::ArrayOfTables(tables));
                }
                Value::String(s) => {
                    table.insert(key, toml_edit::value(s.as_str()));
                }
                Value::Number(n) => {
                    if let Some(i) = n.as_i64() {
                        table.insert(key, toml_edit::value(i));
                    }
                }
                Value::Bool(b) => {
                    table.insert(key, toml_edit::value(*b));
                }
                _ => {}
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::parse;

    const CONFIG: &str = "# my settings\nmodel = \"o3\" # the model\n\n[projects.\"/p\"]\ntrust_level = \"trusted\"\n";

    #[test]
    fn tables_added_then_removed_leave_the_file_as_it_was() {
        let mut toml = parse(CONFIG).unwrap();
        let group = json!({"hooks": [{"type": "command", "command": "x run", "timeout": 65}]});
        toml.add("PreToolUse", &group).unwrap();
        toml.add("Stop", &group).unwrap();
        let added = toml.text();
        assert!(added.starts_with(CONFIG), "{added}");
        assert!(added.contains("[[hooks.PreToolUse.hooks]]"), "{added}");
        let mut again = parse(&added).unwrap();
        again.remove("Stop", 0).unwrap();
        again.remove("PreToolUse", 0).unwrap();
        assert_eq!(again.text(), CONFIG);
    }

    #[test]
    fn a_hooks_key_of_another_type_is_refused() {
        let mut toml = parse("hooks = 3\n").unwrap();
        let err = toml.add("Stop", &json!({})).unwrap_err();
        assert!(err.contains("an integer"), "{err}");
    }

    #[test]
    fn a_syntax_error_names_its_line() {
        let err = parse("a = 1\nb = = 2\n").err().unwrap();
        assert_eq!(err.line, 2);
    }
}
