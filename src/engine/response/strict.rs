//! A `fail_closed` config hook must answer, as the newest Hermes holds one on `pre_tool_call`
//! (`_evaluate_result` and `_malfunction_block`, `agent/shell_hooks.py`): a denial is exit 2 or
//! a block; any other failing exit is a guard that broke, and blocks; so do an empty stdout and
//! an answer that is neither allow, block, rewrite nor ask. `{}` and an answer whose every
//! `action`/`decision` is `allow` still let the call go on. Agent Hooks hooks keep their format's
//! reading (exit 0 with nothing is "go on").

use serde_json::{Map, Value};

use super::{Answer, Directive, Rules, Status, fail_closed_block, read_stdout};
use crate::config::Effects;
use crate::exec::{End, Outcome};

/// `answer`, or the block a `fail_closed` config hook gives when it did not answer as a guard
/// must.
pub(super) fn hold(outcome: &Outcome, rules: &Rules<'_>, answer: Answer) -> Answer {
    if !rules.config || !rules.fail_closed || !rules.effects.contains(Effects::BLOCK) {
        return answer;
    }
    if matches!(answer.directive, Some(Directive::Block { .. })) {
        return answer;
    }
    let broke = match &outcome.end {
        End::Exited(0) if answer.directive.is_some() => return answer,
        End::Exited(0) => match read_stdout(outcome) {
            // Unreadable output already failed closed.
            Err(_) => return answer,
            Ok(None) => "gave no answer (a fail_closed hook prints allow, block or modify)".into(),
            Ok(Some(obj)) if lets_go_on(&obj) => return answer,
            Ok(Some(_)) => "gave an answer that is not allow, block or modify".into(),
        },
        End::Exited(code) => format!("crashed ({})", crash(*code, &outcome.stderr)),
        End::Signaled(_) => "crashed (it was killed by a signal)".to_owned(),
        End::TimedOut | End::SpawnFailed(_) | End::Interrupted => return answer,
    };
    let status = if answer.status == Status::Ok {
        Status::InvalidOutput
    } else {
        answer.status
    };
    let reason = answer
        .message
        .as_deref()
        .map_or_else(|| broke.clone(), |message| format!("{broke}; {message}"));
    Answer {
        status,
        directive: Some(fail_closed_block(
            &format!("hook {}", rules.name.text()),
            &broke,
        )),
        message: Some(format!("failed closed: {reason}")),
    }
}

/// An answer that means "go on" without a directive: `{}`, every `action`/`decision` present
/// being `allow`, or a rewrite with no arguments (a rewrite still, if one that changes nothing).
fn lets_go_on(obj: &Map<String, Value>) -> bool {
    if obj.is_empty() {
        return true;
    }
    let words: Vec<&Value> = ["action", "decision"]
        .iter()
        .filter_map(|key| obj.get(*key))
        .collect();
    let empty_rewrite = |verb: &str, key: &str| {
        obj.get(verb).and_then(Value::as_str) == Some("modify")
            && obj.get(key).is_some_and(Value::is_object)
    };
    (!words.is_empty() && words.iter().all(|word| word.as_str() == Some("allow")))
        || empty_rewrite("action", "args")
        || empty_rewrite("decision", "tool_input")
}

/// What a failing exit says about the hook: a Python traceback's exception class (and, for an
/// import that failed, the module), else the exit code. Nothing else of its stderr reaches the
/// model, which a traceback could fill with the environment.
fn crash(code: i32, stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    if text.contains("Traceback (most recent call last):") {
        for line in text.lines().rev().map(str::trim).filter(|l| !l.is_empty()) {
            let Some(class) = exception_class(line) else {
                continue;
            };
            if let Some(module) = missing_module(line) {
                return format!("{class}: it could not import `{module}`");
            }
            return format!("{class} was raised before it could decide");
        }
    }
    format!("exited with code {code} without giving an answer")
}

/// `a.b.SomeError` at the start of a traceback's last line (a dotted name ending in `Error`,
/// `Exception`, `Interrupt` or `Exit`, then `:` or the end).
fn exception_class(line: &str) -> Option<&str> {
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .unwrap_or(line.len());
    let (class, rest) = line.split_at(end);
    let dotted_name = !class.is_empty()
        && class.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        });
    let kind = ["Error", "Exception", "Interrupt", "Exit"]
        .iter()
        .any(|suffix| class.ends_with(suffix));
    let then = rest.trim_start();
    (dotted_name && kind && (then.is_empty() || then.starts_with(':'))).then_some(class)
}

/// The module of "No module named 'x'" (letters, digits, `_` and `.` only).
fn missing_module(line: &str) -> Option<&str> {
    let after = &line[line.find("No module named ")? + "No module named ".len()..];
    let quote = after.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let name = &after[1..];
    let end = name.find(quote)?;
    let module = &name[..end];
    (!module.is_empty()
        && module
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.'))
    .then_some(module)
}

#[cfg(test)]
mod tests {
    use super::crash;

    #[test]
    fn a_traceback_gives_only_the_exception_class_and_a_missing_module() {
        let missing = "Traceback (most recent call last):\n  File \"g.py\", line 1\n\
                       ModuleNotFoundError: No module named 'policy_rules'\n";
        assert_eq!(
            crash(1, missing.as_bytes()),
            "ModuleNotFoundError: it could not import `policy_rules`"
        );
        let secret = "Traceback (most recent call last):\n  File \"g.py\"\n\
                      KeyError: 'TOKEN=s3cret'\n";
        assert_eq!(
            crash(1, secret.as_bytes()),
            "KeyError was raised before it could decide"
        );
        assert_eq!(
            crash(3, b"TOKEN=s3cret went wrong\n"),
            "exited with code 3 without giving an answer"
        );
    }
}
