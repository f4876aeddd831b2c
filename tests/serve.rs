//! `serve`: one long-lived process answering events as JSON lines, exactly as `run` answers
//! them, and seeing every change to the files between two requests.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process};
use serde_json::Value;

use crate::common::{
    MAX_DEPTH, OTHER_UID, PROMPTLY, TestEnv, await_pid, code, give_away_all, json, nested,
    wait_gone,
};

/// A running `serve`, asked one request at a time.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Server {
    fn start(env: &TestEnv, args: &[&str]) -> Self {
        let mut cmd = env.std_cmd();
        cmd.args(args).arg("serve");
        Self::spawn(cmd)
    }

    /// Starts `cmd` (a `serve` command line) with piped streams.
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
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n",
        slow.display()
    ));
    env.approve("pre_tool_call", &slow.display().to_string());
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
    env.config(&format!(
        "hooks:\n  pre_tool_call:\n    - command: {}\n",
        stubborn.display()
    ));
    env.approve("pre_tool_call", &stubborn.display().to_string());
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
