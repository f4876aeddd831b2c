//! `serve`: one long-lived process answering events as JSON lines, exactly as `run` answers
//! them, and seeing every change to the files between two requests.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process};
use serde_json::Value;

use crate::common::{
    MAX_DEPTH, OTHER_UID, PROMPTLY, TestEnv, await_pid, code, edit_keeping_times, give_away_all,
    json, nested, stderr, wait_gone,
};

/// A running `serve`, asked one request at a time.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Server {
    fn start(env: &TestEnv, args: &[&str]) -> Self {
        Self::start_with(env, args, &[])
    }

    /// [`Self::start`] with environment variables set.
    fn start_with(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> Self {
        let mut cmd = env.std_cmd();
        cmd.args(args).envs(vars.iter().copied()).arg("serve");
        Self::spawn(cmd)
    }

    /// Starts `cmd`, which runs `serve`.
    fn spawn(mut cmd: std::process::Command) -> Self {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                if send.send(line.unwrap()).is_err() {
                    return;
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
        }
    }

    /// Sends one line.
    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next answer (the test fails when none comes within [`PROMPTLY`]).
    fn next(&self) -> Value {
        let line = self
            .lines
            .recv_timeout(PROMPTLY)
            .expect("serve answered in time");
        serde_json::from_str(&line).unwrap()
    }

    /// Sends a request and returns its answer.
    fn ask(&mut self, request: &Value) -> Value {
        self.send(&request.to_string());
        self.next()
    }

    /// Closes stdin and returns the exit code and what was left on stderr.
    fn finish(mut self) -> (i32, String) {
        drop(self.stdin.take());
        let code = wait(&mut self.child);
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        (code, err)
    }
}

fn wait(child: &mut Child) -> i32 {
    let until = Instant::now() + PROMPTLY;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        assert!(Instant::now() < until, "serve did not stop");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `run`'s answer with the times taken out (they differ from run to run).
fn timeless(mut answer: Value) -> Value {
    if let Some(hooks) = answer.get_mut("hooks").and_then(Value::as_array_mut) {
        for hook in hooks {
            if let Some(hook) = hook.as_object_mut() {
                hook.remove("elapsed_ms");
            }
        }
    }
    answer
}

/// The request for `event` with `payload`.
fn request(id: u64, event: &str, payload: &Value) -> Value {
    serde_json::json!({"id": id, "event": event, "payload": payload})
}

#[test]
fn each_answer_is_runs_answer_with_the_id_and_exit_status() {
    let env = TestEnv::new();
    let guard = env.script(
        "guard.sh",
        r#"cat >/dev/null; echo '{"action": "block", "message": "not here"}'"#,
    );
    let context = env.script(
        "context.sh",
        r#"cat >/dev/null; echo '{"context": "the tests are slow"}'"#,
    );
    let failing = env.script("failing.sh", "cat >/dev/null; echo oops >&2; exit 3");
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: {g}\n  pre_llm_call:\n    - command: {c}\n    - command: {f}\n  on_session_end:\n    - command: {f}\n",
        g = guard.display(),
        c = context.display(),
        f = failing.display(),
    ));
    env.approve("pre_tool_call", &guard.display().to_string());
    env.approve("pre_llm_call", &context.display().to_string());
    env.approve("pre_llm_call", &failing.display().to_string());
    env.hook_md(
        &env.project_hooks(),
        "rewrite",
        "trigger: pre-tool-call\nmatcher:\n  tool: web_search\n",
        r#"cat >/dev/null; echo '{"decision": "allow", "tool_input": {"q": "safe"}}'"#,
    );
    let cases = [
        (
            "pre_tool_call",
            serde_json::json!({"tool_name": "terminal", "args": {"command": "rm -rf /"}}),
        ),
        (
            "pre-tool-call",
            serde_json::json!({"tool_name": "web_search", "tool_input": {"q": "x"}, "cwd": env.work()}),
        ),
        ("PreToolUse", serde_json::json!({"tool_name": "read_file"})),
        (
            "pre_llm_call",
            serde_json::json!({"session_id": "s1", "user_message": "hi"}),
        ),
        ("on_session_end", serde_json::json!({})),
        ("no_such_event", serde_json::json!({})),
    ];
    let mut server = Server::start(&env, &[]);
    for (id, (event, payload)) in (1..).zip(&cases) {
        let ran = env.run(event, &payload.to_string());
        let mut answer = server.ask(&request(id, event, payload));
        let object = answer.as_object_mut().unwrap();
        assert_eq!(object.remove("id"), Some(Value::from(id)), "{event}");
        assert_eq!(
            object.remove("exit"),
            Some(Value::from(code(&ran))),
            "{event}"
        );
        assert_eq!(timeless(answer), timeless(json(&ran)), "{event}");
    }
    let (code, _) = server.finish();
    assert_eq!(code, 0, "end of input ends it");
}

#[test]
fn a_line_that_is_not_a_request_gets_an_error_and_the_next_one_is_read() {
    let env = TestEnv::new();
    let mut server = Server::start(&env, &[]);
    for (line, id, error) in [
        ("not json", Value::Null, "not valid JSON"),
        ("[1, 2]", Value::Null, "must be a JSON object, not an array"),
        (r#"{"id": 4}"#, Value::from(4), "has no \"event\""),
        (
            r#"{"id": "a", "event": 7}"#,
            Value::from("a"),
            "\"event\" must be an event name",
        ),
        (
            r#"{"id": 5, "event": "pre_tool_call", "dryrun": true}"#,
            Value::from(5),
            "unknown key \"dryrun\"",
        ),
        (
            r#"{"id": 6, "event": "pre_tool_call", "dry_run": "yes"}"#,
            Value::from(6),
            "\"dry_run\" must be true or false",
        ),
    ] {
        server.send(line);
        let answer = server.next();
        assert_eq!(answer["id"], id, "{line}");
        assert!(
            answer["error"].as_str().unwrap().contains(error),
            "{line}: {answer}"
        );
        assert_eq!(
            answer.as_object().unwrap().len(),
            2,
            "only id and error: {answer}"
        );
    }
    // A payload that is not an object is `run`'s bad payload: exit 1 and the event.
    let answer =
        server.ask(&serde_json::json!({"id": 7, "event": "pre_tool_call", "payload": [1]}));
    assert_eq!(answer["exit"], 1);
    assert_eq!(answer["event"], "pre_tool_call");
    assert!(
        answer["error"].as_str().unwrap().contains("bad payload"),
        "{answer}"
    );
    // Blank lines are skipped; Python's NaN in a payload is read as `json.loads` reads it.
    server.send("");
    server.send(r#"{"id": 8, "event": "on_session_end", "payload": {"x": NaN}}"#);
    let answer = server.next();
    assert_eq!(
        (answer["id"].clone(), answer["exit"].clone()),
        (Value::from(8), Value::from(0))
    );
    let (code, err) = server.finish();
    assert_eq!(code, 0);
    // What stderr says names the request.
    assert!(err.contains("error: request 7: bad payload"), "{err}");
}

#[test]
fn a_rejected_line_gets_its_id_back_whenever_the_id_can_be_read() {
    let env = TestEnv::new();
    let mut server = Server::start(&env, &[]);
    let too_deep = nested(100_000, "0", "");
    let cases = [
        // Broken after the id, in different ways.
        (
            r#"{"id": 1, "event": "pre_tool_call", "payload": {"a": nan}}"#.to_owned(),
            Value::from(1),
            "not valid JSON: expected ident at line 1 column 55",
        ),
        (
            r#"{"id": "two", "event": "pre_tool_call", "payload": {"a": "#.to_owned(),
            Value::from("two"),
            "not valid JSON: EOF while parsing",
        ),
        (
            r#"{"id": 3, "event": "pre_tool_call"} and more"#.to_owned(),
            Value::from(3),
            "not valid JSON: trailing characters",
        ),
        (
            format!(r#"{{"id": [4, {{"n": 4}}], "event": "pre_tool_call", "x": {too_deep}}}"#),
            serde_json::json!([4, {"n": 4}]),
            "the line is nested deeper than 1001 levels at line 1 column",
        ),
        // A member that cannot be read does not hide the others.
        (
            r#"{"event": "pre_tool_call", "payload": {"a": nan}, "id": 5}"#.to_owned(),
            Value::from(5),
            "not valid JSON: expected ident at line 1 column 46",
        ),
        // The id comes after the outline breaks (a missing comma): it cannot be read.
        (
            r#"{"event": "pre_tool_call" "payload": {}, "id": 5}"#.to_owned(),
            Value::Null,
            "not valid JSON: expected `,` or `}` at line 1 column 27",
        ),
        // What looks like an id inside a value is not the id.
        (
            format!(
                r#"{{"payload": {{"s": "\"}}, \"id\": 66, [[[", "t": {too_deep}}}, "id": 6, "event": "pre_tool_call", "x": nan}}"#
            ),
            Value::from(6),
            "the line is nested deeper than 1001 levels",
        ),
        // A key given twice counts with its last value, which here cannot be read.
        (
            format!(r#"{{"id": 7, "event": "pre_tool_call", "id": {too_deep}}}"#),
            Value::Null,
            "nested deeper than 1001 levels",
        ),
        // A readable line with a payload nested too deep, and another mistake: that one is said.
        (
            format!(r#"{{"id": 8, "event": 8, "payload": {too_deep}}}"#),
            Value::from(8),
            "\"event\" must be an event name, not a number",
        ),
    ];
    for (line, id, error) in cases {
        server.send(&line);
        let answer = server.next();
        let shown = &line[..line.len().min(80)];
        assert_eq!(answer["id"], id, "{shown}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(error),
            "{shown}: {answer}"
        );
        assert_eq!(answer.as_object().unwrap().len(), 2, "{shown}: {answer}");
    }
    // Bytes that are not UTF-8 in a payload string: the id still comes back.
    let stdin = server.stdin.as_mut().unwrap();
    stdin
        .write_all(b"{\"id\": 9, \"event\": \"pre_tool_call\", \"payload\": {\"a\": \"\xff\"}}\n")
        .unwrap();
    stdin.flush().unwrap();
    let answer = server.next();
    assert_eq!(answer["id"], 9, "{answer}");
    assert!(
        answer["error"].as_str().unwrap().contains("not valid JSON"),
        "{answer}"
    );
    let (code, _) = server.finish();
    assert_eq!(code, 0);
}

#[test]
fn a_payload_nested_deep_is_guarded_as_run_guards_it() {
    let env = TestEnv::new();
    let guard = env.script(
        "guard.sh",
        "grep -q 'rm -rf' && { echo '{\"action\": \"block\", \"message\": \"no rm\"}'; exit 0; }; echo '{}'",
    );
    let command = guard.display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {command}\n"
    ));
    env.approve("pre_tool_call", &command);
    let mut server = Server::start(&env, &[]);
    // The payload and its arguments are two levels; the levels below them are the model's.
    for (id, levels) in [(1, MAX_DEPTH - 2), (2, MAX_DEPTH - 1), (3, 100_000)] {
        let payload = format!(
            r#"{{"tool_name": "terminal", "args": {{"x": {}}}}}"#,
            nested(levels, r#""rm -rf /""#, " ")
        );
        let ran = env.run("pre_tool_call", &payload);
        let request = format!(r#"{{"id": {id}, "event": "pre_tool_call", "payload": "#);
        server.send(&format!(r#"{request}{payload}, "dry_run": false}}"#));
        let mut answer = server.next();
        let object = answer.as_object_mut().unwrap();
        assert_eq!(object.remove("id"), Some(Value::from(id)));
        assert_eq!(
            object.remove("exit"),
            Some(Value::from(code(&ran))),
            "{levels}"
        );
        let mut alone = json(&ran);
        if levels <= MAX_DEPTH - 2 {
            assert_eq!(code(&ran), 2, "{levels}");
            assert_eq!(timeless(answer), timeless(alone));
            continue;
        }
        // The same error, found in the request rather than on stdin (its column in the line).
        assert_eq!(code(&ran), 1, "{levels}");
        // Level 1,001: after `{"tool_name": "terminal", "args": {"x": `, 499 `[` and 499 `{"k": `.
        let column = 40 + 499 + 499 * 6 + 1;
        let error = alone["error"].as_str().unwrap().replace(
            &format!("bad payload on stdin: payload is nested deeper than 1000 levels (at line 1 column {column})"),
            &format!("bad payload in the request: payload is nested deeper than 1000 levels (at line 1 column {})", column + request.len()),
        );
        alone["errors"][0]["message"] = Value::from(error.as_str());
        alone["error"] = Value::from(error);
        assert_eq!(answer, alone, "{levels}");
    }
    let (code, _) = server.finish();
    assert_eq!(code, 0);
}

#[test]
fn what_is_said_on_stderr_names_its_request() {
    let env = TestEnv::new();
    env.script("new.sh", "cat >/dev/null");
    env.config("hooks:\n  on_session_start:\n    - command: ~/.hermes/agent-hooks/new.sh\n");
    let mut server = Server::start(&env, &[]);
    for id in [r#""first""#, "2", r#""\u001b[2Jwiped""#] {
        let answer = server.ask(
            &serde_json::from_str(&format!(
                r#"{{"id": {id}, "event": "on_session_start", "payload": {{}}}}"#
            ))
            .unwrap(),
        );
        assert_eq!(answer["hooks"][0]["status"], "unapproved", "{answer}");
    }
    let (code, err) = server.finish();
    assert_eq!(code, 0);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    for (line, id) in lines.iter().zip([r#""first""#, "2", r#""\u001b[2Jwiped""#]) {
        assert!(
            line.starts_with(&format!(
                "hermes-hooks: warning: request {id}: not approved"
            )),
            "{line}"
        );
    }
    assert!(
        !err.contains('\u{1b}'),
        "no terminal byte from the id: {err:?}"
    );
}

#[test]
fn every_change_between_two_requests_counts_from_the_next_one() {
    let env = TestEnv::new();
    env.config("hooks: {}\n");
    let mut server = Server::start(&env, &[]);
    let call = serde_json::json!({"tool_name": "terminal", "args": {"command": "ls"}});
    let statuses = |answer: &Value| crate::common::statuses(answer);

    let answer = server.ask(&request(1, "pre_tool_call", &call));
    assert!(statuses(&answer).is_empty(), "{answer}");

    // config.yaml edited: the new hook shows, unapproved.
    let guard = env.script(
        "guard.sh",
        r#"cat >/dev/null; echo '{"action": "block", "message": "no"}'"#,
    );
    let command = guard.display().to_string();
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {command}\n"
    ));
    let answer = server.ask(&request(2, "pre_tool_call", &call));
    assert_eq!(statuses(&answer), ["unapproved"], "{answer}");

    // Approved: it runs and blocks.
    env.cmd()
        .args(["approve", "--all", "--yes"])
        .assert()
        .success();
    let answer = server.ask(&request(3, "pre_tool_call", &call));
    assert_eq!(statuses(&answer), ["blocked"], "{answer}");
    assert_eq!(answer["exit"], 2);

    // Revoked: unapproved again.
    env.cmd().args(["revoke", &command]).assert().success();
    let answer = server.ask(&request(4, "pre_tool_call", &call));
    assert_eq!(statuses(&answer), ["unapproved"], "{answer}");
    assert_eq!(answer["exit"], 0);

    // Approved, then the script edited: the pin refuses it.
    env.cmd()
        .args(["approve", "--all", "--yes"])
        .assert()
        .success();
    let answer = server.ask(&request(5, "pre_tool_call", &call));
    assert_eq!(statuses(&answer), ["blocked"], "{answer}");
    env.script("guard.sh", r#"cat >/dev/null; echo '{}'"#);
    let answer = server.ask(&request(6, "pre_tool_call", &call));
    assert_eq!(statuses(&answer), ["changed"], "{answer}");

    // A project hook folder appears, then its trigger moves to another event.
    let project = serde_json::json!({"tool_name": "terminal", "cwd": env.work()});
    env.hook_md(
        &env.project_hooks(),
        "audit",
        "trigger: pre-tool-call\n",
        "cat >/dev/null",
    );
    let answer = server.ask(&request(7, "pre_tool_call", &project));
    let names: Vec<&str> = answer["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["guard.sh", "audit"], "{answer}");
    std::fs::write(
        env.project_hooks().join("audit/HOOK.md"),
        "---\ntrigger: post-tool-call\n---\n",
    )
    .unwrap();
    let answer = server.ask(&request(8, "pre_tool_call", &project));
    assert_eq!(answer["hooks"].as_array().unwrap().len(), 1, "{answer}");
    let answer = server.ask(&request(9, "post_tool_call", &project));
    assert_eq!(answer["hooks"][0]["name"], "audit", "{answer}");

    // A config.yaml that stops parsing takes out its own hooks, and says so in every answer
    // until it is fixed; the project's hooks still answer.
    env.config("hooks: [\n");
    let answer = server.ask(&request(10, "pre_tool_call", &call));
    assert_eq!(answer["exit"], 0, "{answer}");
    assert!(
        answer["errors"][0]["file"]
            .as_str()
            .unwrap()
            .ends_with("config.yaml"),
        "{answer}"
    );
    env.config("hooks: {}\n");
    let answer = server.ask(&request(11, "pre_tool_call", &call));
    assert_eq!(answer["exit"], 0, "{answer}");
    assert!(statuses(&answer).is_empty(), "{answer}");
    let (code, _) = server.finish();
    assert_eq!(code, 0);
}

#[test]
fn end_of_input_ends_it_once_the_running_hook_is_done() {
    let env = TestEnv::new();
    let slow = env.script("slow.sh", "cat >/dev/null; sleep 1; echo '{}'");
    env.one_approved_hook(&slow);
    let mut server = Server::start(&env, &[]);
    server.send(&request(1, "pre_tool_call", &serde_json::json!({})).to_string());
    drop(server.stdin.take());
    let answer = server.next();
    assert_eq!(crate::common::statuses(&answer), ["ok"], "{answer}");
    let (code, _) = server.finish();
    assert_eq!(code, 0);
}

#[test]
fn sigterm_ends_the_running_hook_and_leaves_only_whole_answers() {
    let env = TestEnv::new();
    let pid_file = env.path("stubborn.pid");
    let stubborn = env.script(
        "stubborn.sh",
        &format!(
            "trap '' TERM\necho $$ > '{}'\nsleep 1000",
            pid_file.display()
        ),
    );
    env.one_approved_hook(&stubborn);
    let mut server = Server::start(&env, &[]);
    let answer = server.ask(&request(1, "on_session_end", &serde_json::json!({})));
    assert_eq!(answer["exit"], 0);
    server.send(&request(2, "pre_tool_call", &serde_json::json!({})).to_string());
    let hook = await_pid(&pid_file, PROMPTLY);
    let pid = Pid::from_raw(i32::try_from(server.child.id()).unwrap()).unwrap();
    kill_process(pid, Signal::TERM).unwrap();
    let code = wait(&mut server.child);
    assert_eq!(code, 143);
    assert!(wait_gone(hook), "the hook, deaf to SIGTERM, was killed");
    assert!(
        server.lines.recv_timeout(Duration::from_secs(1)).is_err(),
        "no answer to the request the signal cut short"
    );
}

/// The answer goes out before the audit line is appended; the line still lands before the next
/// request is read, without waiting for one, and a TERM right after the answer waits for it.
#[test]
fn an_answered_requests_audit_line_lands_before_the_next_request_and_outlives_a_term() {
    let env = TestEnv::new();
    let hook = env.script("ok.sh", "cat >/dev/null; printf '{}'");
    env.one_approved_hook(&hook);
    let log = env.path("audit.jsonl");
    let logged = || std::fs::read_to_string(&log).map_or(0, |text| text.lines().count());
    let mut cmd = env.std_cmd();
    cmd.args(["serve", "--audit-log"]).arg(&log);
    let mut server = Server::spawn(cmd);
    let call = serde_json::json!({"tool_name": "terminal", "args": {"command": "ls"}});
    for id in 1..=3 {
        let answer = server.ask(&request(id, "pre_tool_call", &call));
        assert_eq!(answer["exit"], 0, "{answer}");
        // No next request comes until the line is there.
        let until = Instant::now() + PROMPTLY;
        while logged() < usize::try_from(id).unwrap() {
            assert!(Instant::now() < until, "no audit line for request {id}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    let answer = server.ask(&request(4, "pre_tool_call", &call));
    assert_eq!(answer["exit"], 0, "{answer}");
    let pid = Pid::from_raw(i32::try_from(server.child.id()).unwrap()).unwrap();
    kill_process(pid, Signal::TERM).unwrap();
    let code = wait(&mut server.child);
    assert_eq!(code, 143);
    assert_eq!(logged(), 4, "the answered request's line outlived the TERM");
}

#[test]
fn the_python_client_in_examples_drives_the_bundled_example() {
    let env = TestEnv::new();
    let has_python = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !has_python {
        eprintln!("python3 is not installed: the client in examples/ is not checked");
        return;
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::process::Command::new("python3")
        .arg(root.join("examples/serve_client.py"))
        .arg("--bin")
        .arg(assert_cmd::cargo::cargo_bin!("hermes-hooks"))
        .args([
            "--",
            "--hermes-home",
            "examples/hermes-home",
            "--user-hooks",
        ])
        .arg(env.user_hooks())
        .current_dir(root)
        .env("HOME", env.home())
        .env("HERMES_MANAGED_DIR", env.managed_dir())
        .env_remove("HERMES_HOME")
        .env_remove("HERMES_ACCEPT_HOOKS")
        .env_remove("HERMES_SAFE_MODE")
        .env_remove("HERMES_HOOKS_AUDIT_LOG")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("pre_tool_call: tool call blocked: rm -rf / is not permitted"),
        "{text}"
    );
    assert!(
        text.contains("pre_llm_call: context added: Today is"),
        "{text}"
    );
}

/// On GNU/Linux the binary carries its unwinder (build.rs): a start maps no `libgcc_s`.
#[test]
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn a_start_maps_no_shared_unwinder() {
    let env = TestEnv::new();
    let mut server = Server::start(&env, &[]);
    let answer = server.ask(&request(
        1,
        "pre_tool_call",
        &serde_json::json!({"tool_name": "terminal"}),
    ));
    assert_eq!(answer["exit"], 0, "{answer}");
    let maps = std::fs::read_to_string(format!("/proc/{}/maps", server.child.id())).unwrap();
    assert!(maps.contains("libc.so"), "{maps}");
    let why = if cfg!(static_unwinder) {
        "libgcc_eh.a was linked in"
    } else {
        "build.rs found no libgcc_eh.a in the C toolchain"
    };
    assert!(!maps.contains("libgcc_s"), "{why}:\n{maps}");
    let (code, _) = server.finish();
    assert_eq!(code, 0);
}

#[test]
fn a_broken_config_does_not_switch_off_a_project_guard_in_serve_either() {
    let env = TestEnv::new();
    let guard = env.hook_md(
        &env.project_hooks(),
        "no-force-push",
        "name: no-force-push\ndescription: d\ntrigger: pre-tool-call\nfail_closed: true\n\
         matcher:\n  pattern: 'git\\s+push\\s.*--force'\n",
        "cat >/dev/null; echo 'no force pushes' >&2; exit 2",
    );
    env.approve("pre_tool_call", &guard.display().to_string());
    env.config("hooks:\n  pre_tool_call:\n    - command: /bin/true\n   matcher: x\n");
    let push = serde_json::json!({"tool_name": "terminal",
        "tool_input": {"command": "git push --force"}});
    let ls = serde_json::json!({"tool_name": "terminal", "tool_input": {"command": "ls"}});
    for (args, ls_exit) in [(&[][..], 0), (&["--fail-closed"][..], 2)] {
        let mut cmd = env.std_cmd();
        cmd.arg("serve").args(args);
        let mut server = Server::spawn(cmd);
        let answer = server.ask(&request(1, "pre_tool_call", &push));
        assert_eq!(answer["exit"], 2, "{answer}");
        assert_eq!(answer["message"], "no force pushes", "{answer}");
        assert_eq!(answer["errors"][0]["line"], 4, "{answer}");
        // Each answer is `run`'s for the same call.
        let ran = env
            .cmd()
            .args(["run", "pre_tool_call"])
            .args(args)
            .write_stdin(ls.to_string())
            .output()
            .unwrap();
        let mut answer = server.ask(&request(2, "pre_tool_call", &ls));
        assert_eq!(answer["exit"], ls_exit, "{answer}");
        let object = answer.as_object_mut().unwrap();
        object.remove("id");
        object.remove("exit");
        assert_eq!(timeless(answer), timeless(json(&ran)));
        let (code, err) = server.finish();
        assert_eq!(code, 0);
        assert_eq!(
            err.matches("config.yaml:4:").count(),
            1,
            "said once, when the file is read: {err}"
        );
    }
}

#[test]
fn a_project_another_user_owns_blocks_nothing_and_is_said_once() {
    let env = TestEnv::new();
    let planted = env.work().join("shared");
    env.hook_md(
        &planted.join(".agents/hooks"),
        "planted",
        "name: planted\ndescription: not yours\ntrigger: pre-tool-call\nfail_closed: true\n",
        "cat >/dev/null",
    );
    if !give_away_all(&planted.join(".agents"), OTHER_UID) {
        return;
    }
    let below = planted.join("me");
    std::fs::create_dir_all(&below).unwrap();
    let mut server = Server::start(&env, &[]);
    let call = serde_json::json!({"tool_name": "terminal", "args": {}, "cwd": below});
    for id in 1..=3 {
        let answer = server.ask(&request(id, "pre_tool_call", &call));
        assert_eq!(answer["exit"], 0, "{answer}");
        // Between the calls, one from elsewhere (another set of hooks).
        let answer = server.ask(&request(id, "pre_tool_call", &serde_json::json!({})));
        assert_eq!(answer["exit"], 0, "{answer}");
    }
    let (code, err) = server.finish();
    assert_eq!(code, 0);
    assert_eq!(
        err.matches(&format!("owned by uid {OTHER_UID}")).count(),
        1,
        "{err}"
    );
}

/// The two ways a server learns of a change: its inotify watches, and the metadata of each file
/// on every request (with no watch: past the watch limit, on a network file system).
const WAYS: [&str; 2] = ["watching", "statting"];

/// Waits until the files written so far are past the window in which a second change could
/// leave their metadata as it was, so a server that only stats keeps what it read until a
/// change shows (else it reads again on every request, and a test of what it sees shows
/// nothing).
fn settle() {
    std::thread::sleep(Duration::from_millis(250));
}

/// A server beside `run`, both asked the same request after each change.
struct Beside<'e> {
    env: &'e TestEnv,
    way: &'static str,
    server: Server,
    args: Vec<String>,
    id: u64,
}

impl<'e> Beside<'e> {
    /// Starts a server that learns of changes the `way` given, with the global `args` for it
    /// and for `run`.
    fn new(env: &'e TestEnv, way: &'static str, args: &[&str]) -> Self {
        let vars: &[(&str, &str)] = match way {
            "watching" => &[],
            _ => &[("HERMES_HOOKS_WATCH_LIMIT", "0")],
        };
        Self {
            env,
            way,
            server: Server::start_with(env, args, vars),
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
            id: 0,
        }
    }

    /// Asks the server and `run` for `event` with `payload`; checks that the server answers
    /// as `run` does, and returns the answer.
    fn ask(&mut self, event: &str, payload: &Value) -> Value {
        self.id += 1;
        let ran = self
            .env
            .cmd()
            .args(&self.args)
            .args(["run", event])
            .write_stdin(payload.to_string())
            .output()
            .unwrap();
        let mut answer = self.server.ask(&request(self.id, event, payload));
        let object = answer.as_object_mut().unwrap();
        assert_eq!(object.remove("id"), Some(Value::from(self.id)));
        let exit = object.remove("exit");
        let ran_json = timeless(json(&ran));
        let way = self.way;
        assert_eq!(
            timeless(answer),
            ran_json,
            "{way}: serve answers as run does"
        );
        assert_eq!(exit, Some(Value::from(code(&ran))), "{way}: {ran_json}");
        ran_json
    }

    /// The names of the hooks in the answer to a tool call in the working directory.
    fn hooks(&mut self) -> Vec<String> {
        let payload = serde_json::json!({"tool_name": "terminal", "cwd": self.env.work()});
        names(&self.ask("pre_tool_call", &payload))
    }

    /// Lets the files settle and asks, then makes `change` and asks again: what the server
    /// read before the change is kept until the change itself shows. Returns the hook names
    /// after the change, which must differ from those before.
    fn across(&mut self, change: impl FnOnce()) -> Vec<String> {
        settle();
        let before = self.hooks();
        change();
        let after = self.hooks();
        assert_ne!(
            before, after,
            "{}: the change shows in run's answer",
            self.way
        );
        after
    }
}

/// The names of the hooks in an answer, in order.
fn names(answer: &Value) -> Vec<String> {
    answer["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hook| hook["name"].as_str().unwrap().to_owned())
        .collect()
}

/// A HOOK.md for `pre_tool_call` that names its hook `name` (every name used is five letters
/// long, so an edit can keep the size).
fn manifest(name: &str) -> String {
    format!("---\nname: {name}\ndescription: checks\ntrigger: pre-tool-call\n---\n")
}

/// A hook folder at `folder` named `name` in its HOOK.md, with an executable `scripts/run`.
fn hook_folder(folder: &Path, name: &str) {
    std::fs::create_dir_all(folder.join("scripts")).unwrap();
    std::fs::write(folder.join("HOOK.md"), manifest(name)).unwrap();
    let run = folder.join("scripts/run");
    std::fs::write(&run, "#!/bin/sh\ncat >/dev/null\n").unwrap();
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Rewrites `path` in place: the same file, new bytes.
fn edit_in_place(path: &Path, text: &str) {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .unwrap();
    file.write_all(text.as_bytes()).unwrap();
}

/// Replaces `path` with a new file of `text`, renamed over it as editors and installers do.
fn rename_over(path: &Path, text: &str) {
    let new = path.with_extension("new");
    std::fs::write(&new, text).unwrap();
    std::fs::rename(&new, path).unwrap();
}

/// Points the symlink `link` at `target` in one step (a new link renamed over the old one, as
/// `ln -sfn` and dotfiles managers switching generations do).
fn switch(link: &Path, target: &Path) {
    let new = link.with_extension("switching");
    std::os::unix::fs::symlink(target, &new).unwrap();
    std::fs::rename(&new, link).unwrap();
}

#[test]
fn a_hook_md_edited_in_place_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let folder = env.user_hooks().join("audit");
        hook_folder(&folder, "first");
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| {
            edit_in_place(&folder.join("HOOK.md"), &manifest("other"));
        });
        assert_eq!(after, ["other"], "{way}");
    }
}

#[test]
fn a_hook_md_replaced_by_a_rename_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let folder = env.user_hooks().join("audit");
        hook_folder(&folder, "first");
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| {
            rename_over(&folder.join("HOOK.md"), &manifest("other"));
        });
        assert_eq!(after, ["other"], "{way}");
    }
}

#[test]
fn a_symlinked_hook_md_pointed_elsewhere_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let folder = env.user_hooks().join("audit");
        hook_folder(&folder, "first");
        let dotfiles = env.home().join("dotfiles");
        std::fs::create_dir_all(&dotfiles).unwrap();
        std::fs::write(dotfiles.join("one.md"), manifest("first")).unwrap();
        std::fs::write(dotfiles.join("two.md"), manifest("other")).unwrap();
        let hook_md = folder.join("HOOK.md");
        switch(&hook_md, &dotfiles.join("one.md"));
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| switch(&hook_md, &dotfiles.join("two.md")));
        assert_eq!(after, ["other"], "{way}");
        // Its target edited in place, and the link made to dangle.
        let after = both.across(|| {
            edit_in_place(&dotfiles.join("two.md"), &manifest("third"));
        });
        assert_eq!(after, ["third"], "{way}");
        let after = both.across(|| {
            std::fs::remove_file(dotfiles.join("two.md")).unwrap();
        });
        assert!(after.is_empty(), "{way}: {after:?}");
    }
}

/// Two generations of a dotfiles tree, each with the user-level hooks folder holding one hook
/// folder, `audit`, named `gen-1` and `gen-2`.
fn generations(env: &TestEnv) -> PathBuf {
    let dotfiles = env.home().join("dotfiles");
    for generation in ["gen-1", "gen-2"] {
        hook_folder(
            &dotfiles.join(generation).join("agents/hooks/audit"),
            generation,
        );
    }
    dotfiles
}

#[test]
fn a_switched_symlink_above_the_hooks_folder_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let dotfiles = generations(&env);
        // ~/.config/agents -> dotfiles/gen-1/agents
        let agents = env.home().join(".config/agents");
        std::fs::create_dir_all(agents.parent().unwrap()).unwrap();
        switch(&agents, &dotfiles.join("gen-1/agents"));
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| switch(&agents, &dotfiles.join("gen-2/agents")));
        assert_eq!(after, ["gen-2"], "{way}");
    }
}

#[test]
fn a_hooks_folder_that_is_a_switched_symlink_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let dotfiles = generations(&env);
        // ~/.config/agents/hooks -> dotfiles/gen-1/agents/hooks
        let hooks = env.user_hooks();
        std::fs::create_dir_all(hooks.parent().unwrap()).unwrap();
        switch(&hooks, &dotfiles.join("gen-1/agents/hooks"));
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| switch(&hooks, &dotfiles.join("gen-2/agents/hooks")));
        assert_eq!(after, ["gen-2"], "{way}");
    }
}

#[test]
fn a_hook_folder_reached_through_a_switched_symlink_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let dotfiles = generations(&env);
        // ~/.config/agents/hooks/audit -> dotfiles/current/agents/hooks/audit, and
        // dotfiles/current -> gen-1: the switch is in the middle of the hook folder's path,
        // outside every folder the server watches.
        let current = dotfiles.join("current");
        switch(&current, Path::new("gen-1"));
        std::fs::create_dir_all(env.user_hooks()).unwrap();
        switch(
            &env.user_hooks().join("audit"),
            &current.join("agents/hooks/audit"),
        );
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| switch(&current, Path::new("gen-2")));
        assert_eq!(after, ["gen-2"], "{way}");
        // The same for a HOOK.md that is itself a link through `current`.
        let hook_md = env.user_hooks().join("second/HOOK.md");
        std::fs::create_dir_all(hook_md.parent().unwrap()).unwrap();
        switch(&hook_md, &current.join("agents/hooks/audit/HOOK.md"));
        let after = both.across(|| switch(&current, Path::new("gen-1")));
        assert_eq!(after, ["gen-1", "gen-1"], "{way}");
    }
}

#[test]
fn an_edit_through_a_hard_link_elsewhere_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let dotfiles = env.home().join("dotfiles");
        std::fs::create_dir_all(&dotfiles).unwrap();
        let folder = env.user_hooks().join("audit");
        hook_folder(&folder, "first");
        env.script("guard.sh", "cat >/dev/null");
        env.config("hooks: {}\n");
        env.managed_config("hooks: {}\n");
        std::fs::write(env.hermes_home().join(".env"), "GUARD=guard.sh\n").unwrap();
        // Each file the hooks come from, with a second name in the dotfiles folder.
        let linked = [
            ("HOOK.md", folder.join("HOOK.md")),
            ("config.yaml", env.hermes_home().join("config.yaml")),
            ("managed.yaml", env.managed_dir().join("config.yaml")),
            (".env", env.hermes_home().join(".env")),
        ];
        for (name, path) in &linked {
            std::fs::hard_link(path, dotfiles.join(name)).unwrap();
        }
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| {
            edit_in_place(&dotfiles.join("HOOK.md"), &manifest("other"));
        });
        assert_eq!(after, ["other"], "{way}");
        let after = both.across(|| {
            edit_in_place(
                &dotfiles.join("config.yaml"),
                "hooks:\n  pre_tool_call:\n    - command: ~/.hermes/agent-hooks/${GUARD}\n",
            );
        });
        assert_eq!(after, ["guard.sh", "other"], "{way}");
        let after = both.across(|| {
            edit_in_place(&dotfiles.join(".env"), "GUARD=other.sh\n");
        });
        assert_eq!(after, ["other.sh", "other"], "{way}");
        let after = both.across(|| {
            edit_in_place(
                &dotfiles.join("managed.yaml"),
                "hooks:\n  pre_tool_call:\n    - command: /usr/bin/true\n",
            );
        });
        assert_eq!(after, ["true", "other"], "{way}");
    }
}

#[test]
fn an_edit_that_keeps_size_and_modification_time_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let folder = env.user_hooks().join("audit");
        hook_folder(&folder, "first");
        env.config("hooks:\n  pre_tool_call:\n    - command: /usr/bin/true\n");
        let dotfiles = env.home().join("dotfiles");
        std::fs::create_dir_all(&dotfiles).unwrap();
        std::fs::hard_link(folder.join("HOOK.md"), dotfiles.join("HOOK.md")).unwrap();
        // Rewritten to the same length, and the modification time put back as it was: only
        // the change time moves.
        let keep_times = edit_keeping_times;
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| {
            keep_times(&dotfiles.join("HOOK.md"), &manifest("other"));
        });
        assert_eq!(after, ["true", "other"], "{way}");
        let after = both.across(|| {
            keep_times(
                &env.hermes_home().join("config.yaml"),
                "hooks:\n  pre_tool_call:\n    - command: /usr/bin/echo\n",
            );
        });
        assert_eq!(after, ["echo", "other"], "{way}");
    }
}

#[test]
fn a_hook_folder_added_renamed_or_removed_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let level = env.user_hooks();
        hook_folder(&level.join("audit"), "first");
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| hook_folder(&level.join("second"), "other"));
        assert_eq!(after, ["first", "other"], "{way}");
        // A hook folder's entry script gone: it is still listed, and its folder name too.
        let after = both.across(|| {
            std::fs::rename(level.join("audit"), level.join("zz-audit")).unwrap();
            std::fs::remove_file(level.join("zz-audit/HOOK.md")).unwrap();
        });
        assert_eq!(after, ["other"], "{way}");
        let after = both.across(|| {
            std::fs::remove_dir_all(level.join("second")).unwrap();
        });
        assert!(after.is_empty(), "{way}: {after:?}");
    }
}

#[test]
fn an_entry_script_replaced_is_refused_by_its_pin_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let folder = env.user_hooks().join("audit");
        hook_folder(&folder, "first");
        env.cmd()
            .args(["approve", "--all", "--yes"])
            .assert()
            .success();
        let mut both = Beside::new(&env, way, &[]);
        let call = serde_json::json!({"tool_name": "terminal", "cwd": env.work()});
        settle();
        let answer = both.ask("pre_tool_call", &call);
        assert_eq!(crate::common::statuses(&answer), ["ok"], "{way}: {answer}");
        let run = folder.join("scripts/run");
        rename_over(&run, "#!/bin/sh\necho replaced\n");
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
        let answer = both.ask("pre_tool_call", &call);
        assert_eq!(
            crate::common::statuses(&answer),
            ["changed"],
            "{way}: {answer}"
        );
    }
}

#[test]
fn an_entry_scripts_mode_changed_through_a_hard_link_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let folder = env.user_hooks().join("audit");
        std::fs::create_dir_all(folder.join("scripts")).unwrap();
        std::fs::write(
            folder.join("HOOK.md"),
            "---\nname: audit\ndescription: adds context\ntrigger: pre-agent-turn\n---\n",
        )
        .unwrap();
        // Through `sh` while it is not executable; run by its `#!` line (cat, which prints it
        // and nothing that is an answer) once it is.
        let script = folder.join("scripts/run.sh");
        std::fs::write(
            &script,
            "#!/bin/cat\ncat >/dev/null; echo '{\"context\": \"through sh\"}'\n",
        )
        .unwrap();
        let elsewhere = env.home().join("run.sh");
        std::fs::hard_link(&script, &elsewhere).unwrap();
        env.cmd()
            .args(["approve", "--all", "--yes"])
            .assert()
            .success();
        let mut both = Beside::new(&env, way, &[]);
        let llm = serde_json::json!({"session_id": "s1", "user_message": "hi"});
        settle();
        let before = both.ask("pre_llm_call", &llm);
        assert_eq!(before["context"], "through sh", "{way}: {before}");
        std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o755)).unwrap();
        let after = both.ask("pre_llm_call", &llm);
        assert_ne!(after, before, "{way}: run by its #! line now");
    }
}

#[test]
fn a_config_yaml_reached_through_a_switched_symlink_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let dotfiles = env.home().join("dotfiles");
        for (generation, command) in [("gen-1", "/usr/bin/true"), ("gen-2", "/usr/bin/echo")] {
            std::fs::create_dir_all(dotfiles.join(generation)).unwrap();
            std::fs::write(
                dotfiles.join(generation).join("config.yaml"),
                format!("hooks:\n  pre_tool_call:\n    - command: {command}\n"),
            )
            .unwrap();
        }
        // config.yaml itself a symlink...
        let config = env.hermes_home().join("config.yaml");
        switch(&config, &dotfiles.join("gen-1/config.yaml"));
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| switch(&config, &dotfiles.join("gen-2/config.yaml")));
        assert_eq!(after, ["echo"], "{way}");
        // ... and reached through a switched symlink in the middle of its path.
        let current = dotfiles.join("current");
        switch(&current, Path::new("gen-1"));
        let after = both.across(|| switch(&config, &current.join("config.yaml")));
        assert_eq!(after, ["true"], "{way}");
        let after = both.across(|| switch(&current, Path::new("gen-2")));
        assert_eq!(after, ["echo"], "{way}");
    }
}

#[test]
fn an_allowlist_changed_in_any_way_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let guard = env.script(
            "guard.sh",
            r#"cat >/dev/null; echo '{"action": "block", "message": "no"}'"#,
        );
        env.one_approved_hook(&guard);
        let approved = std::fs::read_to_string(env.allowlist_path()).unwrap();
        let none = r#"{"approvals": []}"#;
        let dotfiles = env.home().join("dotfiles");
        std::fs::create_dir_all(&dotfiles).unwrap();
        std::fs::hard_link(env.allowlist_path(), dotfiles.join("allowlist.json")).unwrap();
        let mut both = Beside::new(&env, way, &[]);
        let call = serde_json::json!({"tool_name": "terminal"});
        let statuses =
            |both: &mut Beside<'_>| crate::common::statuses(&both.ask("pre_tool_call", &call));
        assert_eq!(statuses(&mut both), ["blocked"], "{way}");
        // Revoked through a hard link, approved again by a rename, then a symlink switched.
        edit_in_place(&dotfiles.join("allowlist.json"), none);
        assert_eq!(statuses(&mut both), ["unapproved"], "{way}");
        rename_over(&env.allowlist_path(), &approved);
        assert_eq!(statuses(&mut both), ["blocked"], "{way}");
        std::fs::write(dotfiles.join("none.json"), none).unwrap();
        switch(&env.allowlist_path(), &dotfiles.join("none.json"));
        assert_eq!(statuses(&mut both), ["unapproved"], "{way}");
    }
}

#[test]
fn a_dotenv_created_edited_or_removed_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        env.config("hooks:\n  pre_tool_call:\n    - command: /usr/bin/${TOOL}\n");
        let dotenv = env.hermes_home().join(".env");
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| std::fs::write(&dotenv, "TOOL=true\n").unwrap());
        assert_eq!(after, ["true"], "{way}");
        let after = both.across(|| edit_in_place(&dotenv, "TOOL=echo\n"));
        assert_eq!(after, ["echo"], "{way}");
        let after = both.across(|| std::fs::remove_file(&dotenv).unwrap());
        assert_eq!(after, ["${TOOL}"], "{way}");
    }
}

#[test]
fn the_project_hooks_folder_appearing_going_or_switched_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let agents = env.work().join(".agents");
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| hook_folder(&agents.join("hooks/audit"), "first"));
        assert_eq!(after, ["first"], "{way}");
        let after = both.across(|| std::fs::remove_dir_all(&agents).unwrap());
        assert!(after.is_empty(), "{way}: {after:?}");
        // .agents/hooks a symlink into one tree, then another.
        let trees = env.root().join("trees");
        hook_folder(&trees.join("one/audit"), "other");
        hook_folder(&trees.join("two/audit"), "third");
        std::fs::create_dir_all(&agents).unwrap();
        let after = both.across(|| switch(&agents.join("hooks"), &trees.join("one")));
        assert_eq!(after, ["other"], "{way}");
        let after = both.across(|| switch(&agents.join("hooks"), &trees.join("two")));
        assert_eq!(after, ["third"], "{way}");
    }
}

#[test]
fn a_project_made_moved_or_cut_off_above_the_calls_folder_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let project = env.work().join("app");
        let deep = project.join("src/deep");
        std::fs::create_dir_all(&deep).unwrap();
        let mut both = Beside::new(&env, way, &[]);
        let payload = serde_json::json!({"tool_name": "terminal", "cwd": deep});
        let mut hooks = || names(&both.ask("pre_tool_call", &payload));
        settle();
        assert!(hooks().is_empty(), "{way}");
        hook_folder(&project.join(".agents/hooks/audit"), "first");
        assert_eq!(hooks(), ["first"], "{way}: a project made above");
        assert_eq!(hooks(), ["first"], "{way}");
        // The project renamed, and a folder of the same name made without hooks.
        std::fs::rename(&project, env.work().join("moved")).unwrap();
        std::fs::create_dir_all(&deep).unwrap();
        assert!(hooks().is_empty(), "{way}: the project moved away");
        std::fs::remove_dir_all(&project).unwrap();
        std::fs::rename(env.work().join("moved"), &project).unwrap();
        assert_eq!(hooks(), ["first"], "{way}: back");
        // A repository between the call's folder and the project ends the search below it.
        std::fs::create_dir_all(project.join("src/.git")).unwrap();
        assert!(hooks().is_empty(), "{way}: cut off by a repository");
        std::fs::remove_dir_all(project.join("src/.git")).unwrap();
        assert_eq!(hooks(), ["first"], "{way}");
    }
}

/// How many inotify watches process `pid` holds (0 without an inotify descriptor).
fn watches(pid: u32) -> usize {
    let mut count = 0;
    for fd in std::fs::read_dir(format!("/proc/{pid}/fd")).unwrap() {
        let fd = fd.unwrap();
        let Ok(target) = std::fs::read_link(fd.path()) else {
            continue;
        };
        if target.as_os_str() != "anon_inode:inotify" {
            continue;
        }
        let info = std::fs::read_to_string(format!(
            "/proc/{pid}/fdinfo/{}",
            fd.file_name().to_string_lossy()
        ))
        .unwrap();
        count += info
            .lines()
            .filter(|line| line.starts_with("inotify wd:"))
            .count();
    }
    count
}

#[test]
#[cfg(target_os = "linux")]
fn a_server_holds_no_watch_for_what_is_gone_or_no_longer_read() {
    let env = TestEnv::new();
    let dotfiles = env.home().join("dotfiles");
    for name in ["one", "two", "six"] {
        hook_folder(&dotfiles.join("gen-1/hooks").join(name), "first");
    }
    hook_folder(&dotfiles.join("gen-2/hooks/one"), "other");
    hook_folder(&dotfiles.join("gen-2/hooks/two"), "other");
    let hooks = env.user_hooks();
    std::fs::create_dir_all(hooks.parent().unwrap()).unwrap();
    switch(&hooks, &dotfiles.join("gen-1/hooks"));
    // Asks two events (each keeps its own set) and returns how many watches the server holds.
    let ask_both = |server: &mut Server| {
        for event in ["pre_tool_call", "post_tool_call"] {
            let answer = server.ask(&request(1, event, &serde_json::json!({})));
            assert_eq!(answer["exit"], 0, "{answer}");
        }
        watches(server.child.id())
    };
    let fresh = || {
        let mut server = Server::start(&env, &[]);
        let held = ask_both(&mut server);
        server.finish();
        held
    };
    let mut server = Server::start(&env, &[]);
    let at_first = ask_both(&mut server);
    assert_eq!(at_first, fresh());
    // The generation switched: the old one is still there, but no longer read.
    switch(&hooks, &dotfiles.join("gen-2/hooks"));
    let switched = ask_both(&mut server);
    assert!(switched < at_first, "{switched} < {at_first}");
    assert_eq!(switched, fresh(), "as many as a server started now");
    // A hook folder removed.
    std::fs::remove_dir_all(dotfiles.join("gen-2/hooks/two")).unwrap();
    let removed = ask_both(&mut server);
    assert!(removed < switched, "{removed} < {switched}");
    assert_eq!(removed, fresh(), "as many as a server started now");
    let (code, err) = server.finish();
    assert_eq!(code, 0, "{err}");
}

#[test]
#[cfg(target_os = "linux")]
fn past_its_watch_limit_a_server_says_so_once_and_still_sees_every_change() {
    let env = TestEnv::new();
    let level = env.user_hooks();
    for name in ["one", "two", "six"] {
        hook_folder(&level.join(name), "first");
    }
    let dotfiles = env.home().join("dotfiles");
    std::fs::create_dir_all(&dotfiles).unwrap();
    std::fs::hard_link(level.join("six/HOOK.md"), dotfiles.join("HOOK.md")).unwrap();
    let mut server = Server::start_with(&env, &[], &[("HERMES_HOOKS_WATCH_LIMIT", "3")]);
    let call = serde_json::json!({"tool_name": "terminal"});
    let mut ask = |id| names(&server.ask(&request(id, "pre_tool_call", &call)));
    settle();
    assert_eq!(ask(1), ["first", "first", "first"]);
    assert_eq!(ask(2), ["first", "first", "first"]);
    // Past the limit, and not seen by any folder's watch: the stat tells.
    edit_in_place(&dotfiles.join("HOOK.md"), &manifest("other"));
    assert_eq!(ask(3), ["first", "first", "other"]);
    hook_folder(&level.join("ten"), "third");
    assert_eq!(ask(4), ["first", "first", "other", "third"]);
    assert!(watches(server.child.id()) <= 3);
    let (code, err) = server.finish();
    assert_eq!(code, 0, "{err}");
    let said: Vec<&str> = err
        .lines()
        .filter(|line| line.contains("watched for changes"))
        .collect();
    assert_eq!(said.len(), 1, "said once: {err}");
    assert!(
        said[0].contains("3 files and folders are watched for changes")
            && said[0].contains("HERMES_HOOKS_WATCH_LIMIT"),
        "{err}"
    );
}

#[test]
#[cfg(target_os = "linux")]
fn when_the_kernel_has_no_watch_left_a_server_says_so_once_and_still_sees_every_change() {
    // A user namespace of its own, with room for six watches (the server wants eleven): only
    // this server runs short.
    let limited = "echo 6 > /proc/sys/user/max_inotify_watches";
    let allowed = std::process::Command::new("unshare")
        .args(["-U", "-r", "sh", "-c", limited])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !allowed {
        eprintln!("no user namespace to lower the watch limit in: not checked");
        return;
    }
    let env = TestEnv::new();
    let level = env.user_hooks();
    for name in ["one", "two", "six"] {
        hook_folder(&level.join(name), "first");
    }
    let dotfiles = env.home().join("dotfiles");
    std::fs::create_dir_all(&dotfiles).unwrap();
    for name in ["one", "two", "six"] {
        std::fs::hard_link(level.join(name).join("HOOK.md"), dotfiles.join(name)).unwrap();
    }
    let inner = env.std_cmd();
    let mut cmd = std::process::Command::new("unshare");
    cmd.args([
        "-U",
        "-r",
        "sh",
        "-c",
        &format!("{limited} && exec \"$0\" serve"),
    ])
    .arg(inner.get_program())
    .current_dir(inner.get_current_dir().unwrap());
    for (name, value) in inner.get_envs() {
        match value {
            Some(value) => cmd.env(name, value),
            None => cmd.env_remove(name),
        };
    }
    let mut server = Server::spawn(cmd);
    let call = serde_json::json!({"tool_name": "terminal"});
    let mut ask = |id| names(&server.ask(&request(id, "pre_tool_call", &call)));
    settle();
    assert_eq!(ask(1), ["first", "first", "first"]);
    // Each HOOK.md edited through its other name, whether its watch was made or refused.
    for (edited, name) in (1_usize..).zip(["one", "two", "six"]) {
        settle();
        edit_in_place(&dotfiles.join(name), &manifest("other"));
        let got = ask(u64::try_from(edited).unwrap() + 1);
        let others = got.iter().filter(|hook| *hook == "other").count();
        assert_eq!((got.len(), others), (3, edited), "{name}: {got:?}");
    }
    let (code, err) = server.finish();
    assert_eq!(code, 0, "{err}");
    let said: Vec<&str> = err
        .lines()
        .filter(|line| line.contains("inotify watches"))
        .collect();
    assert_eq!(said.len(), 1, "said once: {err}");
    assert!(
        said[0].contains("the kernel refuses more inotify watches"),
        "{err}"
    );
}

/// A config hook that blocks every `pre_tool_call`, and a project Agent Hooks hook that
/// rewrites it, both approved.
fn config_guard_and_agent_rewrite(env: &TestEnv) {
    let guard = env.script(
        "guard.sh",
        r#"cat >/dev/null; echo '{"action": "block", "message": "config says no"}'"#,
    );
    env.one_approved_hook(&guard);
    let entry = env.hook_md(
        &env.project_hooks(),
        "soften",
        "name: soften\ndescription: d\ntrigger: pre-tool-call\n",
        r#"cat >/dev/null; echo '{"decision": "allow", "tool_input": {"command": "true"}}'"#,
    );
    env.approve("pre_tool_call", &entry.display().to_string());
}

/// The sources of each hook an answer lists.
fn sources_of(answer: &Value) -> Vec<String> {
    answer["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hook| hook["source"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_request_naming_sources_runs_only_the_hooks_of_those_sources() {
    let env = TestEnv::new();
    config_guard_and_agent_rewrite(&env);
    let payload = serde_json::json!({"tool_name": "terminal", "args": {"command": "rm -rf x"}});
    let mut server = Server::start(&env, &[]);
    let ask = |server: &mut Server, sources: Value| {
        let mut line = request(1, "pre_tool_call", &payload);
        line["sources"] = sources;
        server.ask(&line)
    };
    let agent = ask(&mut server, serde_json::json!(["agent-hooks"]));
    assert_eq!(sources_of(&agent), ["agent-hooks"], "{agent}");
    assert_eq!(agent["exit"], 0, "the config guard did not run: {agent}");
    assert_eq!(agent["action"], "modify", "{agent}");
    assert_eq!(agent["args"], serde_json::json!({"command": "true"}));
    let config = ask(&mut server, serde_json::json!(["config"]));
    assert_eq!(sources_of(&config), ["config"], "{config}");
    assert_eq!(config["action"], "block", "{config}");
    for all in [Value::Null, serde_json::json!(["config", "agent-hooks"])] {
        let answer = ask(&mut server, all);
        assert_eq!(sources_of(&answer), ["config", "agent-hooks"], "{answer}");
        assert_eq!(answer["exit"], 2, "{answer}");
    }
    let none = ask(&mut server, serde_json::json!([]));
    assert_eq!(sources_of(&none), Vec::<String>::new(), "{none}");
    assert_eq!(server.finish().0, 0);
}

#[test]
fn a_config_that_cannot_be_read_is_not_held_against_a_request_for_agent_hooks_only() {
    let env = TestEnv::new();
    env.config("hooks: [unclosed\n");
    let payload = serde_json::json!({"tool_name": "terminal", "args": {"command": "ls"}});
    let mut server = Server::start_with(&env, &[], &[("HERMES_HOOKS_FAIL_CLOSED", "1")]);
    let mut line = request(1, "pre_tool_call", &payload);
    line["sources"] = serde_json::json!(["agent-hooks"]);
    let agent = server.ask(&line);
    assert_eq!(agent["exit"], 0, "Hermes reports its own config: {agent}");
    assert!(agent.get("errors").is_none(), "{agent}");
    let all = server.ask(&request(2, "pre_tool_call", &payload));
    assert_eq!(all["exit"], 2, "the whole set still fails closed: {all}");
    let (code, stderr) = server.finish();
    assert_eq!(code, 0);
    assert_eq!(
        stderr.matches("config.yaml").count(),
        1,
        "the config's error is said for the request that runs it only: {stderr}"
    );
}

#[test]
fn sources_that_are_not_a_list_of_runnable_sources_are_refused_with_the_id() {
    let env = TestEnv::new();
    let mut server = Server::start(&env, &[]);
    for (sources, error) in [
        (serde_json::json!("agent-hooks"), "must be a list"),
        (serde_json::json!([1]), "must list source names"),
        (serde_json::json!(["gateway"]), "run inside Hermes"),
        (serde_json::json!(["agent_hooks"]), "unknown source"),
    ] {
        let mut line = request(9, "pre_tool_call", &serde_json::json!({}));
        line["sources"] = sources.clone();
        let answer = server.ask(&line);
        assert_eq!(answer["id"], 9, "{answer}");
        let text = answer["error"].as_str().unwrap_or_default();
        assert!(text.contains(error), "{sources}: {answer}");
    }
    assert_eq!(server.finish().0, 0);
}

#[test]
fn a_rules_file_edited_in_place_or_renamed_over_counts_from_the_next_request() {
    for way in WAYS {
        let env = TestEnv::new();
        let file = env.hermes_home().join("hermes-hooks/rules.yaml");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "rules:\n- name: first\n  when: {tool_name: x}\n").unwrap();
        let mut both = Beside::new(&env, way, &[]);
        let after = both.across(|| {
            edit_in_place(&file, "rules:\n- name: second\n  when: {tool_name: x}\n");
        });
        assert_eq!(after, ["second"], "{way}");
        let after = both.across(|| {
            rename_over(&file, "rules:\n- name: third\n  when: {tool_name: x}\n");
        });
        assert_eq!(after, ["third"], "{way}");
    }
}

/// A user rules file whose one rule blocks `curl` in a shell command.
fn no_curl_rule(env: &TestEnv) {
    let file = env.hermes_home().join("hermes-hooks/rules.yaml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "rules:\n- name: no-curl\n  tool: shell\n  when: {command: '\\bcurl\\b'}\n",
    )
    .unwrap();
}

#[test]
fn a_rule_decides_in_serve_for_a_request_that_names_the_rules_source() {
    let env = TestEnv::new();
    no_curl_rule(&env);
    let approved = env.cmd().args(["approve", "--yes"]).output().unwrap();
    assert_eq!(code(&approved), 0);
    let payload = serde_json::json!({"tool_name": "terminal", "args": {"command": "curl x | sh"}});
    let mut server = Server::start(&env, &[]);
    let mut ask = |id, sources: Value| {
        let mut line = request(id, "pre_tool_call", &payload);
        line["sources"] = sources;
        server.ask(&line)
    };
    let rules = ask(1, serde_json::json!(["rules", "agent-hooks"]));
    assert_eq!(rules["exit"], 2, "{rules}");
    assert_eq!(rules["message"], "blocked by rule no-curl");
    let agent = ask(2, serde_json::json!(["agent-hooks"]));
    assert_eq!(agent["exit"], 0, "{agent}");
    assert_eq!(ask(3, Value::Null)["exit"], 2);
    assert_eq!(server.finish().0, 0);
}

#[test]
fn an_allowlist_serve_keeps_is_read_again_after_a_revoke_and_after_an_edit_in_place() {
    let env = TestEnv::new();
    no_curl_rule(&env);
    let approve = || {
        let out = env.cmd().args(["approve", "--yes"]).output().unwrap();
        assert_eq!(code(&out), 0);
    };
    approve();
    let payload = serde_json::json!({"tool_name": "terminal", "args": {"command": "curl x"}});
    let mut server = Server::start(&env, &[]);
    let mut exits = Vec::new();
    let mut ask = |server: &mut Server| {
        let id = exits.len() as u64;
        let answer = server.ask(&request(id, "pre_tool_call", &payload));
        exits.push(answer["exit"].as_i64().unwrap());
        answer
    };
    // Past the window in which a second change could leave the allowlist's stamp as it was:
    // from now on the server keeps what it read.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(ask(&mut server)["exit"], 2);
    assert_eq!(ask(&mut server)["exit"], 2);
    // A revoke writes a new file over it.
    let out = env.cmd().args(["revoke", "no-curl"]).output().unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let answer = ask(&mut server);
    assert_eq!(answer["exit"], 0, "{answer}");
    approve();
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(ask(&mut server)["exit"], 2);
    // An edit in place that keeps the size and the modification time: another pin of the same
    // length. Only the change time tells it.
    let allowlist = env.hermes_home().join("shell-hooks-allowlist.json");
    let text = std::fs::read_to_string(&allowlist).unwrap();
    let pin = serde_json::from_str::<Value>(&text).unwrap()["approvals"][0]["script_sha256"]
        .as_str()
        .unwrap()
        .to_owned();
    edit_keeping_times(&allowlist, &text.replace(&pin, &"0".repeat(pin.len())));
    let answer = ask(&mut server);
    assert_eq!(answer["exit"], 0, "{answer}");
    assert_eq!(answer["hooks"][0]["status"], "changed", "{answer}");
    assert_eq!(exits, [2, 2, 0, 2, 0]);
    assert_eq!(server.finish().0, 0);
}

/// With every pack approved, an answer lists each rule: the entries `serve` keeps and copies
/// in runs are the ones `run` writes, whichever rules match in between, call after call.
#[test]
fn every_pack_answers_as_run_does_call_after_call() {
    let env = TestEnv::new();
    std::fs::create_dir_all(env.work().join(".git")).unwrap();
    for args in [&["new", "--rules", "all"][..], &["approve", "--yes"]] {
        let out = env.cmd().args(args).output().unwrap();
        assert_eq!(code(&out), 0, "{args:?}");
    }
    let commands = [
        "ls -la",
        "rm -rf /",
        "git push --force origin main",
        "ls -la",
        "kubectl delete namespace prod",
        "echo 'unterminated",
        "cat .env",
        "ls -la",
    ];
    let mut server = Server::start(&env, &[]);
    for round in 0..2 {
        for (id, command) in (1..).zip(commands) {
            let payload = serde_json::json!({
                "tool_name": "terminal",
                "args": {"command": command},
                "cwd": env.work(),
            });
            let ran = env.run("pre_tool_call", &payload.to_string());
            let mut answer = server.ask(&request(id, "pre_tool_call", &payload));
            let object = answer.as_object_mut().unwrap();
            object.remove("id");
            assert_eq!(object.remove("exit"), Some(Value::from(code(&ran))));
            assert_eq!(
                timeless(answer),
                timeless(json(&ran)),
                "round {round}: {command}"
            );
        }
    }
    let (code, _) = server.finish();
    assert_eq!(code, 0);
}

/// A project moved while `serve` runs and reached through a link where it was: its rules file
/// is kept at the place it now really is, from the next request on.
#[test]
fn a_project_moved_behind_a_link_keeps_its_rules_file_where_it_now_is() {
    let env = TestEnv::new();
    let named = env.work();
    std::fs::create_dir_all(named.join(".git")).unwrap();
    for args in [
        &["new", "--rules", "destructive", "--project", "."][..],
        &["approve", "--yes"],
    ] {
        let out = env.cmd().args(args).output().unwrap();
        assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    }
    let mut server = Server::start(&env, &[]);
    let write = |id: u32, path: &Path| {
        serde_json::json!({"id": id, "event": "pre_tool_call", "payload": {
            "tool_name": "write_file",
            "args": {"path": path, "content": "rules: []\n"},
            "cwd": named,
            "session_id": "s1",
        }})
    };
    let answer = server.ask(&write(1, &named.join("notes.txt")));
    assert_eq!(answer["exit"], 0, "{answer}");
    let answer = server.ask(&write(2, &named.join(".agents/rules.yaml")));
    assert_eq!(answer["exit"], 2, "{answer}");
    let moved = named.with_file_name("moved-project");
    std::fs::rename(&named, &moved).unwrap();
    std::os::unix::fs::symlink(&moved, &named).unwrap();
    let answer = server.ask(&write(3, &moved.join(".agents/rules.yaml")));
    assert_eq!(answer["exit"], 2, "{answer}");
    let answer = server.ask(&write(4, &moved.join("notes.txt")));
    assert_eq!(answer["exit"], 0, "{answer}");
    let (status, _) = server.finish();
    assert_eq!(status, 0);
}

/// `serve` keeps its audit log open between requests only while the path still names that
/// file: a log renamed away (rotated by another process) or removed is started anew at the
/// path, and a link put in its place is refused, never written through.
#[test]
fn the_audit_log_kept_open_follows_its_path() {
    let env = TestEnv::new();
    let log = env.path("audit.jsonl");
    let mut cmd = env.std_cmd();
    cmd.args(["serve", "--audit-log"]).arg(&log);
    let mut server = Server::spawn(cmd);
    let ask = |server: &mut Server, id: u32| {
        let request = serde_json::json!({"id": id, "event": "on_session_start",
            "payload": {"session_id": "s"}});
        let answer = server.ask(&request);
        assert_eq!(answer["id"], id, "{answer}");
    };
    let count = |path: &Path| std::fs::read_to_string(path).map_or(0, |text| text.lines().count());
    // The line is appended after the answer: waited for.
    let settled = |want: (usize, usize), rotated: &Path| {
        let deadline = Instant::now() + PROMPTLY;
        while (count(&log), count(rotated)) != want && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        (count(&log), count(rotated))
    };
    let rotated = env.path("audit.jsonl.old");
    ask(&mut server, 1);
    assert_eq!(settled((1, 0), &rotated), (1, 0));
    std::fs::rename(&log, &rotated).unwrap();
    ask(&mut server, 2);
    assert_eq!(settled((1, 1), &rotated), (1, 1));
    std::fs::remove_file(&log).unwrap();
    ask(&mut server, 3);
    assert_eq!(settled((1, 1), &rotated), (1, 1));
    let victim = env.path("victim.txt");
    std::fs::write(&victim, "").unwrap();
    std::fs::remove_file(&log).unwrap();
    std::os::unix::fs::symlink(&victim, &log).unwrap();
    ask(&mut server, 4);
    let (status, err) = server.finish();
    assert_eq!(status, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "");
    assert_eq!(
        (count(&rotated), std::fs::read_link(&log).ok()),
        (1, Some(victim))
    );
    assert!(err.contains("cannot append to the audit log"), "{err}");
}
