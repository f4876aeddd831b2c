//! Shared test setup: a temporary HOME (with `~/.hermes` as the Hermes home) and a working
//! directory, POSIX `sh` hook scripts, and the command under test with a clean environment.

#![allow(dead_code)] // each test module uses a different part

use std::fs;
use std::os::unix::fs::{OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// Environment variables the tool reads; cleared for every test command.
const TOOL_ENV: [&str; 27] = [
    "HERMES_HOME",
    // What agents set for their tools: a test is a person's command unless it says otherwise.
    "CLAUDECODE",
    "CODEX_THREAD_ID",
    "CODEX_CI",
    "GEMINI_CLI",
    "QWEN_CODE",
    "COPILOT_CLI",
    "FACTORY_EXEC_TARGET_AUTONOMY",
    "HERMES_SESSION_ID",
    "AI_AGENT",
    "OPENCODE",
    "PI_CODING_AGENT_DIR",
    "HERMES_ACCEPT_HOOKS",
    "HERMES_HOOKS_ACCEPT",
    "CLAUDE_PROJECT_DIR",
    "GEMINI_PROJECT_DIR",
    "COPILOT_PROJECT_DIR",
    "HERMES_SAFE_MODE",
    "HERMES_HOOKS_AUDIT_LOG",
    "HERMES_HOOKS_AUDIT_PAYLOAD",
    "HERMES_HOOKS_GATE_LIMIT",
    "HERMES_HOOKS_FAIL_CLOSED",
    "HERMES_HOOKS_WATCH_LIMIT",
    "NO_COLOR",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "XDG_DATA_HOME",
];

/// A generous bound for anything that must "return promptly" (never a speed claim).
pub const PROMPTLY: Duration = Duration::from_secs(30);

pub struct TestEnv {
    dir: TempDir,
}

impl TestEnv {
    pub fn new() -> Self {
        let dir = tempfile::Builder::new()
            .prefix("hermes-hooks-test")
            .tempdir()
            .unwrap();
        fs::create_dir_all(dir.path().join("home/.hermes/agent-hooks")).unwrap();
        fs::create_dir_all(dir.path().join("work")).unwrap();
        Self { dir }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// `$HOME`.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// The Hermes home (`~/.hermes`, found through HOME).
    pub fn hermes_home(&self) -> PathBuf {
        self.home().join(".hermes")
    }

    /// The current directory of every command.
    pub fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    pub fn allowlist_path(&self) -> PathBuf {
        self.hermes_home().join("shell-hooks-allowlist.json")
    }

    /// Writes an executable `#!/bin/sh` script into `~/.hermes/agent-hooks/` and returns its path.
    pub fn script(&self, name: &str, body: &str) -> PathBuf {
        let path = self.hermes_home().join("agent-hooks").join(name);
        fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// The user-level Agent Hooks folder (the default: `~/.config/agents/hooks`).
    pub fn user_hooks(&self) -> PathBuf {
        self.home().join(".config/agents/hooks")
    }

    /// The project-level Agent Hooks folder of the working directory.
    pub fn project_hooks(&self) -> PathBuf {
        self.work().join(".agents/hooks")
    }

    /// Writes `<level>/<name>/HOOK.md` (with `frontmatter` between the `---` lines) and an
    /// executable `scripts/run` with `body`; returns the entry script.
    #[allow(clippy::unused_self)] // a method like the other helpers, for one calling style
    pub fn hook_md(&self, level: &Path, name: &str, frontmatter: &str, body: &str) -> PathBuf {
        let folder = level.join(name);
        fs::create_dir_all(folder.join("scripts")).unwrap();
        fs::write(
            folder.join("HOOK.md"),
            format!("---\n{frontmatter}---\n\n# {name}\n"),
        )
        .unwrap();
        let entry = folder.join("scripts/run");
        fs::write(&entry, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&entry, fs::Permissions::from_mode(0o755)).unwrap();
        entry
    }

    /// Writes `~/.hermes/config.yaml`.
    pub fn config(&self, yaml: &str) {
        fs::write(self.hermes_home().join("config.yaml"), yaml).unwrap();
    }

    /// A config whose one hook is `script` for `pre_tool_call`, approved.
    pub fn one_approved_hook(&self, script: &Path) {
        self.config(&format!(
            "hooks:\n  pre_tool_call:\n    - command: {}\n",
            script.display()
        ));
        self.approve("pre_tool_call", &script.display().to_string());
    }

    /// A file in the temporary root (for markers written by hooks).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The binary with HOME set, the tool's variables cleared, in the working directory.
    pub fn std_cmd(&self) -> std::process::Command {
        self.std_cmd_of(assert_cmd::cargo::cargo_bin!("hermes-hooks"))
    }

    /// [`Self::std_cmd`] running `program` (a copy of the binary, say).
    pub fn std_cmd_of(&self, program: &Path) -> std::process::Command {
        let mut cmd = std::process::Command::new(program);
        for name in TOOL_ENV {
            cmd.env_remove(name);
        }
        // Not inside an agent's tool call, even when the suite runs inside one (a debug build's
        // switch); tests/person.rs puts an agent there itself.
        cmd.env("HERMES_HOOKS_TEST_NO_ANCESTORS", "1");
        // A managed scope only when a test writes one (never the machine's /etc/hermes).
        cmd.env("HERMES_MANAGED_DIR", self.managed_dir());
        // Nor the machine's Gemini system settings (a test writes them there when it needs them).
        cmd.env(
            "GEMINI_CLI_SYSTEM_SETTINGS_PATH",
            self.dir.path().join("gemini-system-settings.json"),
        );
        // Whole scripts and diffs that `approve` pages go straight to the terminal.
        cmd.env("PAGER", "cat");
        cmd.env("HOME", self.home()).current_dir(self.work());
        cmd
    }

    /// The managed scope's folder (it exists once [`Self::managed_config`] writes into it).
    pub fn managed_dir(&self) -> PathBuf {
        self.dir.path().join("managed")
    }

    /// Writes the managed config.yaml.
    pub fn managed_config(&self, yaml: &str) -> PathBuf {
        std::fs::create_dir_all(self.managed_dir()).unwrap();
        let path = self.managed_dir().join("config.yaml");
        std::fs::write(&path, yaml).unwrap();
        path
    }

    /// [`Self::std_cmd`] with `assert_cmd`'s conveniences (`write_stdin`).
    pub fn cmd(&self) -> Command {
        Command::from_std(self.std_cmd())
    }

    /// `run <event>` with `payload` on stdin.
    pub fn run(&self, event: &str, payload: &str) -> Output {
        self.cmd()
            .args(["run", event])
            .write_stdin(payload)
            .output()
            .unwrap()
    }

    /// Records an approval the way `--accept-hooks` would, through the library.
    pub fn approve(&self, event: &str, command: &str) {
        // `~` means this test's HOME, not the HOME of the test process.
        let home = format!("{}/", self.home().display());
        let resolved = command.replace("~/", &home);
        let script = hermes_hooks::script_path(&resolved, &self.work());
        let sha256 = script
            .as_deref()
            .and_then(|p| hermes_hooks::sha256_file(p).ok());
        let approval = hermes_hooks::Approval {
            event: event.to_owned(),
            command: command.to_owned(),
            script,
            sha256,
            mtime: None,
            manifest: None,
        };
        hermes_hooks::record(&self.allowlist_path(), &[approval]).unwrap();
    }

    /// Adds an approval the way Hermes writes it: no pin, the given mtime (or null).
    pub fn hermes_approval(&self, event: &str, command: &str, mtime: Option<&str>) {
        let path = self.allowlist_path();
        let mut doc: Value = fs::read(&path).map_or_else(
            |_| serde_json::json!({"approvals": []}),
            |b| serde_json::from_slice(&b).unwrap(),
        );
        doc["approvals"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({
                "approved_at": "2026-01-01T00:00:00Z", "command": command, "event": event,
                "script_mtime_at_approval": mtime,
            }));
        fs::write(&path, doc.to_string()).unwrap();
    }

    /// The allowlist as JSON.
    pub fn allowlist(&self) -> Value {
        serde_json::from_slice(&fs::read(self.allowlist_path()).unwrap()).unwrap()
    }

    pub fn approvals(&self) -> Vec<Value> {
        self.allowlist()["approvals"].as_array().unwrap().clone()
    }
}

/// The one JSON line `run` printed.
pub fn json(output: &Output) -> Value {
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        text.matches('\n').count(),
        1,
        "exactly one line on stdout: {text:?}"
    );
    serde_json::from_str(text.trim_end()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exited normally")
}

/// Statuses of the hooks in a `run` line, in order.
pub fn statuses(line: &Value) -> Vec<String> {
    line["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["status"].as_str().unwrap().to_owned())
        .collect()
}

/// Rewrites `path` in place to `text` (of the same length, for the test to mean anything) and
/// puts its modification time back, as `cp -p`, `touch -r` and rsync do: only its change time
/// tells that it changed.
pub fn edit_keeping_times(path: &Path, text: &str) {
    let modified = fs::metadata(path).unwrap().modified().unwrap();
    let mut file = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(path)
        .unwrap();
    std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
    file.set_modified(modified).unwrap();
}

/// Whether a process is still running (zombies count as gone).
pub fn alive(pid: i32) -> bool {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat"));
    if let Ok(stat) = stat {
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next());
        return state != Some("Z");
    }
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return false;
    };
    rustix::process::test_kill_process(pid).is_ok()
}

/// Polls until `pid` is gone, up to `PROMPTLY`.
pub fn wait_gone(pid: i32) -> bool {
    let until = std::time::Instant::now() + PROMPTLY;
    while std::time::Instant::now() < until {
        if !alive(pid) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Reads a pid a hook wrote to `file`.
pub fn read_pid(file: &Path) -> i32 {
    fs::read_to_string(file).unwrap().trim().parse().unwrap()
}

/// Waits (up to `within`) for a hook started in the background to write its pid to `file`; the
/// file may exist a moment before its content does.
pub fn await_pid(file: &Path, within: Duration) -> i32 {
    let until = std::time::Instant::now() + within;
    loop {
        let text = fs::read_to_string(file).unwrap_or_default();
        if let Ok(pid) = text.trim().parse() {
            return pid;
        }
        assert!(
            std::time::Instant::now() < until,
            "no pid in {}",
            file.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// stdout as text with the temporary root replaced by `[ROOT]`, for snapshots.
pub fn redacted(env: &TestEnv, bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace(&env.root().display().to_string(), "[ROOT]")
}

/// A pseudo-terminal: its controlling side, and the terminal a command is given.
pub fn pty_pair() -> (fs::File, fs::File) {
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).unwrap();
    grantpt(&master).unwrap();
    unlockpt(&master).unwrap();
    let name = ptsname(&master, Vec::new()).unwrap();
    // Never the test process's controlling terminal.
    let tty = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(rustix::fs::OFlags::NOCTTY.bits().cast_signed())
        .open(name.to_str().unwrap())
        .unwrap();
    (fs::File::from(master), tty)
}

/// Runs the command with stdin and stderr on a pseudo-terminal (stdout piped). For each
/// `(prompt, answer)` step in turn, waits until the command asks again: `prompt` is shown anew
/// on the last line of the terminal, the one the command waits on (a line that repeats the
/// question with the answer given ends with a newline and does not count); then types
/// `answer`. Returns everything the terminal showed, and the command's output. A command that is
/// not done within [`PROMPTLY`] of its last answer is killed, and the test fails.
pub fn on_a_terminal(env: &TestEnv, args: &[&str], steps: &[(&str, &[u8])]) -> (String, Output) {
    on_a_terminal_with(env, args, &[], steps)
}

/// [`on_a_terminal`] with environment variables set for the command.
pub fn on_a_terminal_with(
    env: &TestEnv,
    args: &[&str],
    vars: &[(&str, &str)],
    steps: &[(&str, &[u8])],
) -> (String, Output) {
    on_a_terminal_typed_ahead(env, args, vars, b"", steps)
}

/// [`on_a_terminal_with`], with `typed_ahead` typed on the terminal before the command starts.
pub fn on_a_terminal_typed_ahead(
    env: &TestEnv,
    args: &[&str],
    vars: &[(&str, &str)],
    typed_ahead: &[u8],
    steps: &[(&str, &[u8])],
) -> (String, Output) {
    asked_on_a_terminal(env, args, vars, typed_ahead, steps, 0)
}

/// [`on_a_terminal_with`] on a terminal `cols` columns wide.
pub fn on_a_sized_terminal_asked(
    env: &TestEnv,
    args: &[&str],
    vars: &[(&str, &str)],
    cols: u16,
    steps: &[(&str, &[u8])],
) -> (String, Output) {
    asked_on_a_terminal(env, args, vars, b"", steps, cols)
}

/// [`on_a_terminal_typed_ahead`] on a terminal `cols` columns wide (0: one that reports no size).
fn asked_on_a_terminal(
    env: &TestEnv,
    args: &[&str],
    vars: &[(&str, &str)],
    typed_ahead: &[u8],
    steps: &[(&str, &[u8])],
    cols: u16,
) -> (String, Output) {
    use std::io::{Read as _, Write as _};
    use std::sync::{Arc, Mutex};
    let (mut master, tty) = pty_pair();
    let size = rustix::termios::Winsize {
        ws_row: 50,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    rustix::termios::tcsetwinsize(&tty, size).unwrap();
    master.write_all(typed_ahead).unwrap();
    let child = env
        .std_cmd()
        .args(args)
        .envs(vars.iter().copied())
        .stdin(tty.try_clone().unwrap())
        .stderr(tty)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let screen = Arc::new(Mutex::new(String::new()));
    // Told when everything shown on the terminal has been read.
    let (done, read) = std::sync::mpsc::channel();
    {
        let screen = Arc::clone(&screen);
        let mut reader = master.try_clone().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0_u8; 4096];
            // EIO says nobody holds the terminal any longer, which a kernel may report while the
            // last of the output is on its way: the terminal is read once more a moment later.
            let mut closed = false;
            loop {
                match reader.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => screen
                        .lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&buf[..n])),
                    Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) if !closed => {
                        closed = true;
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    Err(_) => break,
                }
            }
            let _ = done.send(());
        });
    }
    let pid = rustix::process::Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
    // Where the last question answered was shown: the next one is shown after it.
    let mut answered = 0;
    for (step, (prompt, answer)) in steps.iter().enumerate() {
        let until = std::time::Instant::now() + PROMPTLY;
        loop {
            if let Some(at) = asked_at(&screen.lock().unwrap(), prompt, answered) {
                answered = at + prompt.len();
                break;
            }
            if std::time::Instant::now() >= until {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
                panic!("not asked for step {step}: {}", screen.lock().unwrap());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        master.write_all(answer).unwrap();
    }
    let watchdog = kill_after(pid, PROMPTLY);
    let out = child.wait_with_output().unwrap();
    // The command's last words on the terminal may still be on their way to the reader.
    let _ = read.recv_timeout(PROMPTLY);
    let shown = screen.lock().unwrap().clone();
    assert!(!watchdog.join().unwrap(), "still waiting, killed: {shown}");
    (shown, out)
}

/// Where `prompt` stands on the last line of `screen`, when it does and that is at or after
/// `from`.
fn asked_at(screen: &str, prompt: &str, from: usize) -> Option<usize> {
    let at = screen.rfind(prompt)?;
    (at >= from && !screen[at..].contains('\n')).then_some(at)
}

/// Kills `pid` if it is still running after `within`; the thread answers whether it did.
fn kill_after(pid: rustix::process::Pid, within: Duration) -> std::thread::JoinHandle<bool> {
    let until = std::time::Instant::now() + within;
    std::thread::spawn(move || {
        while std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(50));
            if !alive(pid.as_raw_nonzero().get()) {
                return false;
            }
        }
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
        true
    })
}

/// Runs the command with `stdin`, killing it if it has not finished within [`PROMPTLY`] (then
/// the test fails: it hung).
pub fn bounded(env: &TestEnv, args: &[&str], stdin: &str) -> Output {
    use std::io::Write as _;
    let mut child = env
        .std_cmd()
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin.as_bytes());
    drop(input);
    let pid = rustix::process::Pid::from_raw(i32::try_from(child.id()).unwrap()).unwrap();
    let watchdog = kill_after(pid, PROMPTLY);
    let out = child.wait_with_output().unwrap();
    let hung = watchdog.join().unwrap();
    assert!(!hung, "{args:?} hung and was killed");
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{args:?} panicked: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs the command with stdout on a pseudo-terminal `cols` columns wide (0: a terminal that
/// reports no size), and returns what it printed there.
pub fn on_a_sized_terminal(env: &TestEnv, args: &[&str], cols: u16) -> String {
    let mut cmd = env.std_cmd();
    cmd.args(args);
    command_on_a_sized_terminal(cmd, cols)
}

/// [`on_a_sized_terminal`] with `size` as (columns, rows) and `vars` set in the environment.
pub fn on_a_terminal_sized(
    env: &TestEnv,
    args: &[&str],
    size: (u16, u16),
    vars: &[(&str, &str)],
) -> String {
    let mut cmd = env.std_cmd();
    cmd.args(args).envs(vars.iter().copied());
    command_on_a_terminal(cmd, size)
}

/// [`on_a_sized_terminal`] for a command set up by the caller (another HOME, another directory).
pub fn command_on_a_sized_terminal(cmd: std::process::Command, cols: u16) -> String {
    command_on_a_terminal(cmd, (cols, 50))
}

/// Runs `cmd` with stdout on a pseudo-terminal of `(cols, rows)`; what it printed there.
fn command_on_a_terminal(mut cmd: std::process::Command, (cols, rows): (u16, u16)) -> String {
    use rustix::termios::{OptionalActions, Winsize, tcgetattr, tcsetattr, tcsetwinsize};
    use std::io::Read as _;
    let (mut master, tty) = pty_pair();
    let size = Winsize {
        ws_row: rows,
        ws_col: cols,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    tcsetwinsize(&tty, size).unwrap();
    // No "\n" to "\r\n" translation, so the text reads as the program wrote it.
    let mut modes = tcgetattr(&tty).unwrap();
    modes.output_modes = rustix::termios::OutputModes::empty();
    tcsetattr(&tty, OptionalActions::Now, &modes).unwrap();
    // Its stderr, kept to explain a command that ended early.
    let mut talk = tempfile::tempfile().unwrap();
    let mut child = cmd
        .stdin(std::process::Stdio::null())
        .stdout(tty.try_clone().unwrap())
        .stderr(talk.try_clone().unwrap())
        .spawn()
        .unwrap();
    // The command keeps its copy of the terminal until it is dropped.
    drop(cmd);
    drop(tty);
    let mut shown = Vec::new();
    let mut buf = [0_u8; 4096];
    let mut status = None;
    // Reading ends with EIO once nobody holds the terminal, which a kernel may report while the
    // last of the output is still on its way: after the command has exited, the terminal is read
    // once more, until it is empty.
    loop {
        match master.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => shown.extend_from_slice(&buf[..n]),
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) if status.is_none() => status = Some(child.wait().unwrap()),
            Err(_) => break,
        }
    }
    let status = status.unwrap_or_else(|| child.wait().unwrap());
    assert!(
        status.code().is_some(),
        "the command ended on a signal ({status}): {}",
        String::from_utf8_lossy(&shown)
    );
    if !status.success() {
        // The harness keeps what `println!` prints, and shows it only when the test fails.
        let mut said = String::new();
        std::io::Seek::rewind(&mut talk).unwrap();
        talk.read_to_string(&mut said).unwrap();
        #[allow(clippy::print_stdout)]
        {
            println!("the command on a terminal ended with {status}; its stderr:\n{said}");
        }
    }
    String::from_utf8_lossy(&shown).into_owned()
}

/// A user id that stands for another user on this machine (one nobody here is).
pub const OTHER_UID: u32 = 4242;

/// Hands `path` (not following a symlink) to `uid`, to stand for a folder another user made.
/// Only root can: elsewhere it prints a note that the test is skipped and returns `false`, and
/// the caller returns without asserting anything (it never passes as if it had tested).
pub fn give_away(path: &Path, uid: u32) -> bool {
    match std::os::unix::fs::lchown(path, Some(uid), Some(uid)) {
        Ok(()) => true,
        Err(err) if err.kind() == std::io::ErrorKind::PermissionDenied => {
            say_skipped(&format!(
                "only root can hand {} to another user here ({err}); the owner rule is not \
                 tested in this run",
                path.display()
            ));
            false
        }
        Err(err) => panic!("cannot hand {} to uid {uid}: {err}", path.display()),
    }
}

/// [`give_away`] for `path` and everything in it.
pub fn give_away_all(path: &Path, uid: u32) -> bool {
    if !give_away(path, uid) {
        return false;
    }
    if fs::symlink_metadata(path).unwrap().is_dir() {
        for entry in fs::read_dir(path).unwrap() {
            assert!(give_away_all(&entry.unwrap().path(), uid));
        }
    }
    true
}

/// Says on the real stderr (past the test harness's capture, so it shows in every run) that a
/// test was skipped, and why.
pub fn say_skipped(why: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "skipped: {why}");
}

/// How deep the tool reads a payload: at least as deep as Python's `json.loads` (994 levels).
pub const MAX_DEPTH: usize = 1_000;

/// `inner` inside `levels` arrays and objects in turn (`[{"k": [...]}]`), written with
/// `separator` after each key's colon.
pub fn nested(levels: usize, inner: &str, separator: &str) -> String {
    let mut text = String::with_capacity(levels * 6 + inner.len());
    for level in 0..levels {
        if level % 2 == 0 {
            text.push('[');
        } else {
            text.push_str("{\"k\":");
            text.push_str(separator);
        }
    }
    text.push_str(inner);
    for level in (0..levels).rev() {
        text.push(if level % 2 == 0 { ']' } else { '}' });
    }
    text
}

/// `cmd`'s output, where `cmd` runs a program this test has just copied: while another test's
/// thread forks, the child briefly holds the copy's write descriptor, and the exec fails with
/// "text file busy" until it has gone, so that is tried again.
pub fn output_of_copy(cmd: &mut std::process::Command) -> Output {
    for _ in 0..200 {
        match cmd.output() {
            Err(err) if err.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(Duration::from_millis(25));
            }
            other => return other.unwrap(),
        }
    }
    panic!("{cmd:?} stayed busy");
}
