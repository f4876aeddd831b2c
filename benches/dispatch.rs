//! `cargo bench`: what `hermes-hooks run` costs on top of the hooks it runs, measured side by side
//! in one run on this machine, against the targets. Prints one table; exits 1 when a target is
//! missed. Timings are whole processes (spawn, payload on stdin, wait), min and median of N runs.
//! The binary measured is the one `cargo build --release` makes, built in `<target>/bench-shipped`
//! and copied as an install copies it (see [`Shipped`]).

#![allow(clippy::print_stdout)] // the table on stdout is this harness's output

use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use hermes_hooks::{Approval, record, sha256_file};

#[path = "dispatch/audit.rs"]
mod audit;
#[path = "common/cpu.rs"]
mod cpu;
#[path = "dispatch/kept.rs"]
mod kept;
#[path = "dispatch/plugin_module.rs"]
mod plugin_module;
#[path = "dispatch/rules.rs"]
mod rules;

/// The binary under test, built (or named) and installed.
struct Shipped {
    /// The file the build wrote: `HERMES_HOOKS_BENCH_BIN` when set and not empty (to compare
    /// builds), else the release binary as `cargo build --release` makes it (see
    /// [`build_shipped`]).
    built: OsString,
    /// A copy of it, as `cargo install`, pip and npm leave the binary on a person's machine:
    /// what the bench times. The bytes are the same, but not how the kernel holds the file:
    /// the linker writes its output through a memory map, which leaves that file cached in
    /// single pages, each mapped and unmapped on its own at every start, and a copy is
    /// cached in larger pieces. Started from the build's own file, the same binary took
    /// 0.06x to 0.09x more of the trivial-hook row's floor (docs/performance.md, "Where a
    /// start's time goes"); a row below keeps that figure.
    installed: OsString,
    dir: tempfile::TempDir,
}

fn shipped() -> &'static Shipped {
    static SHIPPED: OnceLock<Shipped> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        // The harness's own knob, not the product's environment.
        #[allow(clippy::disallowed_methods)]
        let chosen = std::env::var_os("HERMES_HOOKS_BENCH_BIN").filter(|path| !path.is_empty());
        let built = chosen.unwrap_or_else(|| build_shipped().into_os_string());
        let dir = tempfile::tempdir().expect("a folder for the installed binary");
        let installed = dir.path().join("hermes-hooks");
        std::fs::copy(&built, &installed).expect("install the binary");
        Shipped {
            built,
            installed: installed.into_os_string(),
            dir,
        }
    })
}

/// The installed binary (see [`Shipped`]).
fn bin() -> &'static OsStr {
    &shipped().installed
}

/// Builds the release binary in its own target directory and returns its path. The binary that
/// `cargo bench` builds next to this harness is not the one users get: for bench targets Cargo
/// merges in the dev-dependencies' features (the test tools turn on regex's Unicode tables, for
/// one), which changes the binary's size and start-up.
fn build_shipped() -> PathBuf {
    let deps = std::env::current_exe().expect("the harness's own path");
    // <target>/<profile>/deps/dispatch-<hash>
    let target = deps
        .ancestors()
        .nth(3)
        .expect("the harness runs from <target>/<profile>/deps");
    let dir = target.join("bench-shipped");
    // Cargo says which cargo runs the bench.
    #[allow(clippy::disallowed_methods)]
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--locked",
            "--bin",
            "hermes-hooks",
            "--target-dir",
        ])
        .arg(&dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run cargo build");
    assert!(status.success(), "cargo build --release failed");
    dir.join("release").join("hermes-hooks")
}

const PAYLOAD: &[u8] =
    br#"{"tool_name": "terminal", "args": {"command": "ls -la"}, "session_id": "bench", "tool_call_id": "c1"}"#;

/// Min and median of a set of timings.
#[derive(Clone, Copy)]
struct Stats {
    min: Duration,
    median: Duration,
}

fn measure(runs: usize, mut once: impl FnMut() -> Duration) -> Stats {
    once(); // warm the page cache
    stats((0..runs).map(|_| once()).collect())
}

fn stats(mut times: Vec<Duration>) -> Stats {
    times.sort();
    Stats {
        min: times[0],
        median: times[times.len() / 2],
    }
}

/// Measures commands taking turns, one run of each per round, so that figures compared in a
/// ratio see the same moments of a machine whose speed drifts. Each round takes them in a new
/// order (shuffled from a fixed seed): a process is slower right after some others (a `run`
/// right after the hook script took about 0.1 ms more than right after `true`), so a fixed
/// order would charge that to whichever command always came next.
fn side_by_side<const N: usize>(
    runs: usize,
    mut each: [&mut dyn FnMut() -> Duration; N],
) -> [Stats; N] {
    for once in &mut each {
        once(); // warm the page cache
    }
    let mut times: [Vec<Duration>; N] = std::array::from_fn(|_| Vec::with_capacity(runs));
    let mut order: [usize; N] = std::array::from_fn(|i| i);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..runs {
        // Fisher-Yates with xorshift64: the same orders on every bench run.
        for i in (1..N).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let j = usize::try_from(seed % (i as u64 + 1)).unwrap_or(0);
            order.swap(i, j);
        }
        for &i in &order {
            times[i].push(each[i]());
        }
    }
    times.map(stats)
}

/// Spawns `cmd` with `stdin`, waits, and returns the wall time.
fn timed(cmd: &mut Command, stdin: &[u8]) -> Duration {
    let started = Instant::now();
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut pipe = child.stdin.take().expect("stdin");
    let _ = pipe.write_all(stdin);
    drop(pipe);
    child.wait().expect("wait");
    started.elapsed()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

struct Fixture {
    _dir: tempfile::TempDir,
    home: PathBuf,
    trivial: PathBuf,
    sleeper: PathBuf,
    /// A home with one `pre_tool_call` hook, and an empty project.
    one: PathBuf,
    empty_project: PathBuf,
    /// A home with 250 config hooks across events, and a project with 50 HOOK.md folders.
    many: PathBuf,
    project: PathBuf,
    /// Homes whose one source is a rules file, and their project.
    rules: rules::Homes,
    /// A home with one cheap rule, for the audit log's rows.
    audit: PathBuf,
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    let trivial = script(&home, "trivial.sh", "cat >/dev/null\nprintf '{}'");
    let sleeper = script(&home, "sleep.sh", "cat >/dev/null\nsleep 0.2");
    let flood = script(
        &home,
        "flood.sh",
        "cat >/dev/null\ndd if=/dev/zero bs=1048576 count=50 2>/dev/null\nsleep 0.3",
    );
    let big = script(
        &home,
        "big.sh",
        &format!(
            "cat >/dev/null\n# {}\nprintf '{{}}'",
            "x".repeat(100 * 1024)
        ),
    );
    let config = format!(
        "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: {t}\n  on_session_end:\n    - command: {s} 1\n    - command: {s} 2\n    - command: {s} 3\n  post_llm_call:\n    - command: {f}\n  subagent_stop:\n    - command: {b}\n",
        t = trivial.display(),
        s = sleeper.display(),
        f = flood.display(),
        b = big.display(),
    );
    std::fs::write(home.join("config.yaml"), config).expect("config");
    let mut approvals = Vec::new();
    for (event, command, script) in [
        ("pre_tool_call", trivial.display().to_string(), &trivial),
        (
            "on_session_end",
            format!("{} 1", sleeper.display()),
            &sleeper,
        ),
        (
            "on_session_end",
            format!("{} 2", sleeper.display()),
            &sleeper,
        ),
        (
            "on_session_end",
            format!("{} 3", sleeper.display()),
            &sleeper,
        ),
        ("post_llm_call", flood.display().to_string(), &flood),
        ("subagent_stop", big.display().to_string(), &big),
    ] {
        approvals.push(Approval {
            event: event.to_owned(),
            command,
            script: Some(script.clone()),
            sha256: sha256_file(script).ok(),
            mtime: None,
            manifest: None,
        });
    }
    record(&home.join("shell-hooks-allowlist.json"), &approvals).expect("approve");
    let (one, empty_project) = one_hook(dir.path(), &trivial);
    let (many, project) = many_hooks(dir.path(), &trivial);
    let rules = rules::homes(dir.path());
    let audit = audit::home(dir.path());
    Fixture {
        _dir: dir,
        home,
        trivial,
        sleeper,
        one,
        empty_project,
        many,
        project,
        rules,
        audit,
    }
}

/// A home with one approved `pre_tool_call` hook for `terminal`, and a project without hooks.
fn one_hook(root: &Path, trivial: &Path) -> (PathBuf, PathBuf) {
    let home = root.join("one");
    let project = root.join("empty-project");
    std::fs::create_dir_all(&home).expect("home");
    std::fs::create_dir_all(&project).expect("project");
    std::fs::write(
        home.join("config.yaml"),
        format!(
            "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: {}\n",
            trivial.display()
        ),
    )
    .expect("config");
    let approval = Approval {
        event: "pre_tool_call".to_owned(),
        command: trivial.display().to_string(),
        script: Some(trivial.to_path_buf()),
        sha256: sha256_file(trivial).ok(),
        mtime: None,
        manifest: None,
    };
    record(&home.join("shell-hooks-allowlist.json"), &[approval]).expect("approve");
    (home, project)
}

/// Events the many hooks are spread over: the Hermes name, and the HOOK.md trigger.
const SPREAD: [(&str, &str); 10] = [
    ("pre_tool_call", "pre-tool-call"),
    ("post_tool_call", "post-tool-call"),
    ("pre_llm_call", "pre-agent-turn"),
    ("post_llm_call", "post-agent-turn"),
    ("on_session_start", "pre-session"),
    ("on_session_end", "post-session"),
    ("subagent_stop", "post-subagent"),
    ("pre_api_request", "pre_api_request"),
    ("post_api_request", "post_api_request"),
    ("on_session_reset", "on_session_reset"),
];

/// A home with 250 config hooks (25 per event; those of `pre_tool_call` for other tools than
/// the one called) and a project with 50 HOOK.md folders (5 per event, likewise): hooks that
/// are loaded, or looked at, and none of which applies to a `web_search` call.
fn many_hooks(root: &Path, trivial: &Path) -> (PathBuf, PathBuf) {
    use std::fmt::Write as _;
    let home = root.join("many");
    let project = root.join("project");
    std::fs::create_dir_all(&home).expect("home");
    let mut config = String::from("model: some/model\nhooks:\n");
    for (event, _) in SPREAD {
        let _ = writeln!(config, "  {event}:");
        for n in 0..25 {
            if event == "pre_tool_call" {
                let _ = writeln!(config, "    - matcher: \"tool_{n}\"");
                let _ = writeln!(config, "      command: {} {n}", trivial.display());
            } else {
                let _ = writeln!(config, "    - command: {} {n}", trivial.display());
            }
            let _ = writeln!(config, "      timeout: 10");
        }
    }
    std::fs::write(home.join("config.yaml"), config).expect("config");
    for (n, (_, trigger)) in SPREAD.iter().cycle().take(50).enumerate() {
        let folder = project.join(".agents/hooks").join(format!("hook-{n:02}"));
        std::fs::create_dir_all(folder.join("scripts")).expect("hook folder");
        let matcher = if *trigger == "pre-tool-call" {
            format!("matcher:\n  tool: tool_{n}\n")
        } else {
            String::new()
        };
        std::fs::write(
            folder.join("HOOK.md"),
            format!(
                "---\nname: hook-{n:02}\ndescription: Hook number {n}, here to be looked at\n\
                 trigger: {trigger}\n{matcher}timeout: 10000\n---\n\n# hook-{n:02}\n\n\
                 What this hook does, in a few lines of prose.\n"
            ),
        )
        .expect("HOOK.md");
        script(&folder.join("scripts"), "run", "cat >/dev/null");
    }
    (home, project)
}

fn run_cmd(home: &Path, event: &str) -> Command {
    let mut cmd = tool(home, None);
    cmd.args(["run", event]);
    cmd
}

/// The binary with `home` as the Hermes home, no user hooks, and `project` as the project
/// when one is given.
fn tool(home: &Path, project: Option<&Path>) -> Command {
    tool_at(bin(), home, project)
}

/// [`tool`] with another file of the binary.
fn tool_at(binary: &OsStr, home: &Path, project: Option<&Path>) -> Command {
    let mut cmd = Command::new(binary);
    cmd.arg("--hermes-home")
        .arg(home)
        .args(["--user-hooks", "/nonexistent", "-q"]);
    if let Some(project) = project {
        cmd.arg("--project").arg(project);
    }
    // The parse memos go with the fixture, not into the user's cache.
    cmd.env("XDG_CACHE_HOME", home.join(".cache"))
        .env_remove("HERMES_ACCEPT_HOOKS")
        .env_remove("HERMES_SAFE_MODE")
        .env_remove("HERMES_HOOKS_AUDIT_LOG");
    cmd
}

/// A running `serve`, timed one request at a time.
struct Server {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::io::BufReader<std::process::ChildStdout>,
    line: String,
}

impl Server {
    fn start(home: &Path, project: Option<&Path>) -> Self {
        Self::start_with(home, project, &[])
    }

    /// [`Self::start`] with these variables set.
    fn start_with(home: &Path, project: Option<&Path>, vars: &[(&str, &str)]) -> Self {
        let mut child = tool(home, project)
            .envs(vars.iter().copied())
            .arg("serve")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn serve");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = std::io::BufReader::new(child.stdout.take().expect("stdout"));
        Self {
            child,
            stdin,
            stdout,
            line: String::new(),
        }
    }

    /// Sends `request` (one line, without its newline) and waits for the answer.
    fn ask(&mut self, request: &[u8]) -> Duration {
        use std::io::BufRead as _;
        let started = Instant::now();
        self.stdin.write_all(request).expect("send");
        self.stdin.write_all(b"\n").expect("send");
        self.stdin.flush().expect("send");
        self.line.clear();
        self.stdout.read_line(&mut self.line).expect("answer");
        let elapsed = started.elapsed();
        assert!(
            self.line.starts_with("{\"id\""),
            "serve answered: {}",
            self.line
        );
        elapsed
    }

    fn stop(mut self) {
        drop(self.stdin);
        let _ = self.child.wait();
    }
}

/// Peak resident memory of `run` (kB) with a 5 MB payload and a hook that floods 50 MB, read from
/// /proc while the hook keeps `run` waiting. `None` where there is no /proc.
fn peak_rss_kb(fx: &Fixture) -> Option<u64> {
    let payload = format!(r#"{{"blob": "{}"}}"#, "x".repeat(5 * 1024 * 1024));
    let mut child = run_cmd(&fx.home, "post_llm_call")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let status = PathBuf::from(format!("/proc/{}/status", child.id()));
    let mut pipe = child.stdin.take()?;
    pipe.write_all(payload.as_bytes()).ok()?;
    drop(pipe);
    let mut peak = None;
    while child.try_wait().ok()?.is_none() {
        if let Ok(text) = std::fs::read_to_string(&status) {
            let hwm = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            peak = hwm.or(peak);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    peak
}

struct Row {
    figure: &'static str,
    measured: String,
    target: &'static str,
    met: Option<bool>,
}

/// The same call as Claude Code sends it (its tool named as the config hook's matcher says).
const AGENT_PAYLOAD: &[u8] = br#"{"hook_event_name": "PreToolUse", "session_id": "bench", "cwd": "/", "permission_mode": "default", "tool_name": "terminal", "tool_input": {"command": "ls -la"}, "tool_use_id": "c1"}"#;

/// The hook exactly as `run` feeds it (for the direct exec).
const WIRE: &[u8] = br#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls -la"}, "session_id": "bench", "cwd": "/", "profile": "default", "extra": {"tool_call_id": "c1"}}"#;

/// The timed figures; returns the rows and the median of `run` with one hook (for the baseline).
fn timings(fx: &Fixture) -> (Vec<Row>, Duration) {
    let runs = 200;
    let (mut rows, run_one) = start_rows(fx, runs);
    rows.extend(rules::run_rows(fx));

    let run_many = |home: &Path, project: &Path| {
        let mut cmd = tool(home, Some(project));
        cmd.args(["run", "pre_tool_call"]);
        cmd
    };
    let [one, many] = side_by_side(
        runs,
        [
            &mut || timed(&mut run_many(&fx.one, &fx.empty_project), MISS),
            &mut || timed(&mut run_many(&fx.many, &fx.project), MISS),
        ],
    );
    let ratio = ms(many.median) / ms(one.median);
    rows.push(Row {
        figure: "run, 250 config + 50 HOOK.md hooks, none applies / one hook",
        measured: format!(
            "{:.2} / {:.2} ms = {ratio:.2}x",
            ms(many.median),
            ms(one.median)
        ),
        target: "<= 2x",
        met: Some(ratio <= 2.0),
    });

    rows.extend(serve_rows(fx));
    rows.push(rules::serve_row(fx));

    let one_sleep = measure(5, || timed(&mut Command::new(&fx.sleeper), b"{}"));
    let three = measure(5, || timed(&mut run_cmd(&fx.home, "on_session_end"), b"{}"));
    let ratio = ms(three.median) / ms(one_sleep.median);
    rows.push(Row {
        figure: "run, 3 observer hooks of 200 ms / one hook",
        measured: format!(
            "{:.1} / {:.1} ms = {ratio:.2}x",
            ms(three.median),
            ms(one_sleep.median)
        ),
        target: "<= 1.2x",
        met: Some(ratio <= 1.2),
    });

    let big = fx.home.join("big.sh");
    let pin = measure(1000, || {
        let started = Instant::now();
        let _ = sha256_file(&big);
        started.elapsed()
    });
    rows.push(Row {
        figure: "consent pin, sha256 of a 100 KB script",
        measured: format!("{:.3} ms (min {:.3})", ms(pin.median), ms(pin.min)),
        target: "< 0.2 ms",
        met: Some(ms(pin.median) < 0.2),
    });
    (rows, run_one)
}

/// The rows of one `run` start: one trivial hook against its floor, and none that applies
/// against `true`, each timed from the installed copy and from the build's own file (both held
/// to the bar; each row names its file), and in an agent's mode; with the median of `run` with
/// the hook (the installed copy).
fn start_rows(fx: &Fixture, runs: usize) -> (Vec<Row>, Duration) {
    let mut rows = Vec::new();
    let agent_cmd = || {
        let mut cmd = tool(&fx.home, None);
        cmd.args(["run", "--agent", "claude-code", "PreToolUse"]);
        cmd
    };
    let built_cmd = || {
        let mut cmd = tool_at(&shipped().built, &fx.home, None);
        cmd.args(["run", "pre_tool_call"]);
        cmd
    };
    let [
        direct,
        run_one,
        truth,
        none,
        agent_one,
        run_built,
        none_built,
    ] = side_by_side(
        runs,
        [
            &mut || timed(&mut Command::new(&fx.trivial), WIRE),
            &mut || timed(&mut run_cmd(&fx.home, "pre_tool_call"), PAYLOAD),
            &mut || timed(&mut Command::new("true"), b""),
            &mut || timed(&mut run_cmd(&fx.home, "pre_tool_call"), MISS),
            &mut || timed(&mut agent_cmd(), AGENT_PAYLOAD),
            &mut || timed(&mut built_cmd(), PAYLOAD),
            &mut || timed(&mut built_cmd(), MISS),
        ],
    );
    // No dispatcher can beat one more process start: exec of `true`, then the hook.
    let floor = truth.median + direct.median;
    for (figure, run) in [
        (
            "run, one trivial hook / (exec of true + the hook), installed copy",
            run_one,
        ),
        (
            "run, one trivial hook / (exec of true + the hook), built file",
            run_built,
        ),
    ] {
        let ratio = ms(run.median) / ms(floor);
        rows.push(Row {
            figure,
            measured: format!(
                "{:.2} / ({:.2} + {:.2}) ms = {ratio:.2}x",
                ms(run.median),
                ms(truth.median),
                ms(direct.median)
            ),
            target: "<= 1.25x",
            met: Some(ratio <= 1.25),
        });
    }
    rows.push(Row {
        figure: "  run, one trivial hook / the hook alone, installed copy",
        measured: format!("{:.2}x", ms(run_one.median) / ms(direct.median)),
        target: "(reference)",
        met: None,
    });

    rows.push(agent_row(agent_one.median, run_one.median));

    for (figure, run) in [
        (
            "run, hooks configured, none applies / true, installed copy",
            none,
        ),
        (
            "run, hooks configured, none applies / true, built file",
            none_built,
        ),
    ] {
        let ratio = ms(run.median) / ms(truth.median);
        rows.push(Row {
            figure,
            measured: format!(
                "{:.2} / {:.2} ms = {ratio:.2}x",
                ms(run.median),
                ms(truth.median)
            ),
            target: "<= 2x and < 2 ms",
            met: Some(ratio <= 2.0 && ms(run.median) < 2.0),
        });
    }
    (rows, run_one.median)
}

/// `run` in an agent's mode against `run`: the answer's shape is all that differs.
fn agent_row(agent: Duration, hermes: Duration) -> Row {
    let ratio = ms(agent) / ms(hermes);
    Row {
        figure: "run --agent claude-code, one trivial hook / run",
        measured: format!("{:.2} / {:.2} ms = {ratio:.2}x", ms(agent), ms(hermes)),
        target: "<= 1.1x",
        met: Some(ratio <= 1.1),
    }
}

/// The rows of `serve`: per event with nothing to run (few hooks, and many), and with one
/// trivial hook against exec'ing the hook, the two taking turns.
fn serve_rows(fx: &Fixture) -> Vec<Row> {
    let mut rows = Vec::new();
    // Pairs of the one-hook row: with 200, its ratio moved by 0.03x from one run to the next.
    let runs = 800;
    let requests = 2000;
    let miss = request(MISS);
    for (figure, home, project) in [
        (
            "serve, hooks configured, none applies, one CPU",
            &fx.home,
            None,
        ),
        (
            "serve, 250 config + 50 HOOK.md hooks, none, one CPU",
            &fx.many,
            Some(fx.project.as_path()),
        ),
    ] {
        let mut process = Server::start(home, project);
        let (pinned, one_cpu) = cpu::on_one_cpu(&[process.child.id()], || {
            measure(requests, || process.ask(&miss))
        });
        let scheduled = measure(requests, || process.ask(&miss));
        process.stop();
        let mut row = per_event_row(figure, pinned);
        if !one_cpu {
            row.measured.push_str(" (not pinned)");
        }
        rows.push(row);
        rows.push(Row {
            figure: "  the same, the two processes as the kernel places them",
            measured: format!(
                "{:.1} us (min {:.1})",
                us(scheduled.median),
                us(scheduled.min)
            ),
            target: "(reference)",
            met: None,
        });
    }
    let mut process = Server::start(&fx.home, None);
    let hit = request(PAYLOAD);
    let [per_event, direct] = side_by_side(
        runs,
        [&mut || process.ask(&hit), &mut || {
            timed(&mut Command::new(&fx.trivial), WIRE)
        }],
    );
    process.stop();
    let ratio = ms(per_event.median) / ms(direct.median);
    rows.push(Row {
        figure: "serve, one trivial hook / exec of the hook",
        measured: format!(
            "{:.2} / {:.2} ms = {ratio:.2}x",
            ms(per_event.median),
            ms(direct.median)
        ),
        target: "<= 1.1x",
        met: Some(ratio <= 1.1),
    });

    rows
}

/// A `serve` row timed per event against the 50 µs target, on one CPU.
fn per_event_row(figure: &'static str, per_event: Stats) -> Row {
    Row {
        figure,
        measured: format!(
            "{:.1} us (min {:.1})",
            us(per_event.median),
            us(per_event.min)
        ),
        target: "<= 50 us",
        met: Some(us(per_event.median) <= 50.0),
    }
}

/// A call no hook of the fixtures applies to.
const MISS: &[u8] = br#"{"tool_name": "web_search", "args": {"q": "x"}}"#;

/// The `serve` request for a `run` payload.
fn request(payload: &[u8]) -> Vec<u8> {
    let mut line = br#"{"id": 1, "event": "pre_tool_call", "payload": "#.to_vec();
    line.extend_from_slice(payload);
    line.push(b'}');
    line
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// What an agent written in Python sees per event through `serve`: the client in `examples/`,
/// timing its own round trips.
fn python_client(fx: &Fixture) -> Row {
    let figure = "  Python agent through serve (examples/serve_client.py)";
    let client = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/serve_client.py");
    let output = Command::new("python3")
        .arg(&client)
        .arg("--bin")
        .arg(bin())
        .args(["--events", "2000", "--", "--hermes-home"])
        .arg(&fx.home)
        .args(["--user-hooks", "/nonexistent", "-q"])
        .env("XDG_CACHE_HOME", fx.home.join(".cache"))
        .stderr(Stdio::null())
        .output();
    let measured = match output {
        Ok(out) if out.status.success() => format!(
            "{} us per event, none applies",
            String::from_utf8_lossy(&out.stdout).trim()
        ),
        _ => "skipped (no python3)".to_owned(),
    };
    Row {
        figure,
        measured,
        target: "(reference)",
        met: None,
    }
}

/// How many of the functions in link/hot-code.txt the binary has (the linker places those it
/// has side by side; a list gone stale after a change of code, dependency or toolchain names
/// others), read with `nm`.
fn hot_code_row(binary: &OsStr) -> Row {
    let figure = "  functions of link/hot-code.txt the binary has";
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("link/hot-code.txt");
    let listed = std::fs::read_to_string(list).unwrap_or_default();
    let defined = Command::new("nm")
        .arg("--defined-only")
        .arg(binary)
        .stderr(Stdio::null())
        .output();
    let measured = match defined {
        Ok(out) if out.status.success() => {
            let names = String::from_utf8_lossy(&out.stdout);
            let names: std::collections::HashSet<&str> = names
                .lines()
                .filter_map(|line| line.split_whitespace().nth(2))
                .collect();
            let total = listed.lines().count();
            let found = listed.lines().filter(|name| names.contains(name)).count();
            format!("{found} of {total} (link/hot-code.sh lists them anew)")
        }
        _ => "skipped (no nm)".to_owned(),
    };
    Row {
        figure,
        measured,
        target: "(reference)",
        met: None,
    }
}

/// The environment tests/interop/run.sh is told to use, else the one it makes: in the clients'
/// cache (as .ci/run names it) or in the target folder.
fn hermes_venv(root: &Path) -> PathBuf {
    #[allow(clippy::disallowed_methods)]
    let var = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    let cache = var("HERMES_HOOKS_CLIENTS_CACHE")
        .map(PathBuf::from)
        .or_else(|| var("XDG_CACHE_HOME").map(|dir| PathBuf::from(dir).join("hermes-hooks-ci")))
        .or_else(|| var("HOME").map(|dir| PathBuf::from(dir).join(".cache/hermes-hooks-ci")));
    var("HERMES_INTEROP_VENV").map_or_else(
        || {
            cache
                .into_iter()
                .chain(Some(root.join("target")))
                .map(|folder| folder.join("interop/venv-0.19.0"))
                .find(|venv| venv.join("bin/python").exists())
                .unwrap_or_else(|| root.join("target/interop/venv-0.19.0"))
        },
        PathBuf::from,
    )
}

/// The `pre_tool_call` dispatch measured inside the real Hermes agent loop by a timing plugin
/// (tests/interop/latency.py), each wiring side by side in one run: the plugin's rows against
/// their targets, a direct shell hook and the bridge beside them. Needs the Hermes environment
/// that tests/interop/run.sh installs; without it, one row says so.
fn inside_hermes(binary: &OsStr) -> Vec<Row> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = hermes_venv(root);
    let python = venv.join("bin/python");
    let skipped = |why: &str| {
        vec![Row {
            figure: "inside Hermes: plugin, none applies (ms per call)",
            measured: format!("skipped ({why})"),
            target: "<= 0.3 ms",
            met: None,
        }]
    };
    if !python.exists() {
        return skipped("run tests/interop/run.sh or .ci/run once to install Hermes");
    }
    let Ok(out) = Command::new(&python)
        .arg(root.join("tests/interop/latency.py"))
        .arg(binary)
        .arg("64")
        .stderr(Stdio::null())
        .output()
    else {
        return skipped("latency.py did not start");
    };
    let text = String::from_utf8_lossy(&out.stdout);
    // Each row: the wiring's words, then first, median, p90, min.
    let median = |wiring: &str| {
        text.lines()
            .find(|line| line.starts_with(wiring))
            .and_then(|line| {
                line[wiring.len()..]
                    .split_whitespace()
                    .nth(1)?
                    .parse::<f64>()
                    .ok()
            })
    };
    let (Some(none), Some(one), Some(direct)) = (
        median("plugin, none applies"),
        median("plugin, one trivial hook"),
        median("shell hook, direct"),
    ) else {
        return skipped("latency.py gave no plugin rows");
    };
    let bridge = |wiring| median(wiring).map_or_else(|| "n/a".to_owned(), |m| format!("{m:.2} ms"));
    // The calls a rule blocks against the calls it lets through, from the same run in turns:
    // two Hermes runs differ by more than a rule costs.
    let rule = match (
        median("plugin, a rule blocks"),
        median("plugin, a rule lets through"),
    ) {
        (Some(blocked), Some(passed)) => Row {
            figure: "inside Hermes: plugin, a rule blocks / none applies",
            measured: format!(
                "{blocked:.2} / {passed:.2} ms = {:.2}x (the same runs; no hooks: {none:.2} ms)",
                blocked / passed
            ),
            target: "<= 1.1x",
            met: Some(blocked / passed <= 1.1),
        },
        _ => Row {
            figure: "inside Hermes: plugin, a rule blocks / none applies",
            measured: "n/a (latency.py gave no rule rows)".to_owned(),
            target: "<= 1.1x",
            met: None,
        },
    };
    vec![
        Row {
            figure: "inside Hermes: plugin, none applies (ms per call)",
            measured: format!("{none:.2} ms"),
            target: "<= 0.3 ms",
            met: Some(none <= 0.3),
        },
        Row {
            figure: "inside Hermes: plugin, one trivial hook / shell hook",
            measured: format!("{one:.2} / {direct:.2} ms = {:.2}x", one / direct),
            target: "<= 1.1x",
            met: Some(one / direct <= 1.1),
        },
        rule,
        Row {
            figure: "  bridge, none applies / one trivial hook",
            measured: format!(
                "{} / {}",
                bridge("bridge, none applies"),
                bridge("bridge, one trivial hook")
            ),
            target: "(reference)",
            met: None,
        },
    ]
}

/// Every row of the bench.
fn all_rows(fx: &Fixture, binary: &'static OsStr) -> Vec<Row> {
    let (mut rows, run_one) = timings(fx);
    rows.extend(audit::rows(&fx.audit));
    match peak_rss_kb(fx) {
        Some(kb) => rows.push(Row {
            figure: "peak RSS, 5 MB payload, hook floods 50 MB",
            #[allow(clippy::cast_precision_loss)] // kilobytes of one process fit an f64
            measured: format!("{:.1} MB", kb as f64 / 1024.0),
            target: "<= payload + 10 MB",
            met: Some(kb <= 15 * 1024),
        }),
        None => rows.push(Row {
            figure: "peak RSS, 5 MB payload, hook floods 50 MB",
            measured: "n/a (no /proc)".to_owned(),
            target: "<= payload + 10 MB",
            met: None,
        }),
    }

    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/dispatcher.py");
    let has_yaml = Command::new("python3")
        .args(["-c", "import yaml"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if has_yaml {
        let py = measure(50, || {
            timed(
                Command::new("python3")
                    .arg(&python)
                    .arg(&fx.home)
                    .arg("pre_tool_call"),
                PAYLOAD,
            )
        });
        rows.push(Row {
            figure: "baseline: Python dispatcher, one trivial hook",
            measured: format!(
                "{:.2} ms = {:.1}x hermes-hooks run",
                ms(py.median),
                ms(py.median) / ms(run_one)
            ),
            target: "(reference)",
            met: None,
        });
    } else {
        rows.push(Row {
            figure: "baseline: Python dispatcher, one trivial hook",
            measured: "skipped (no python3 with PyYAML)".to_owned(),
            target: "(reference)",
            met: None,
        });
    }

    rows.push(python_client(fx));
    rows.extend(inside_hermes(binary));
    rows.push(hot_code_row(binary));
    rows.push(plugin_module::row(binary));

    rows
}

fn main() -> ExitCode {
    let binary = bin(); // builds it first, so no build lands inside a measurement
    let fx = fixture();
    // `HERMES_HOOKS_BENCH_ONLY=serve` times the `serve` rows alone (a minute, not a quarter of
    // an hour), for a figure taken when the machine is quiet.
    // The harness's own knob, not the product's environment.
    #[allow(clippy::disallowed_methods)]
    let only_serve =
        std::env::var_os("HERMES_HOOKS_BENCH_ONLY").is_some_and(|only| only == "serve");
    let rows = if only_serve {
        let mut rows = serve_rows(&fx);
        rows.push(rules::serve_row(&fx));
        rows
    } else {
        all_rows(&fx, binary)
    };
    println!(
        "binary: {} (the built file) and a copy of it (an installed copy); a row names the file \
         it timed, else it timed the installed copy",
        shipped().built.to_string_lossy()
    );
    println!(
        "{:<70} {:<40} {:<18} met",
        "figure", "measured (median)", "target"
    );
    let mut missed = false;
    for row in &rows {
        let met = match row.met {
            Some(true) => "yes",
            Some(false) => {
                missed = true;
                "NO"
            }
            None => "-",
        };
        println!(
            "{:<70} {:<40} {:<18} {met}",
            row.figure, row.measured, row.target
        );
    }
    let kept = kept::figures(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/performance.md"));
    let measured: Vec<(&str, &str)> = rows
        .iter()
        .map(|row| (row.figure, row.measured.as_str()))
        .collect();
    for line in kept::report(&measured, &kept) {
        println!("{line}");
    }
    // A static is never dropped: the installed copy's folder goes by hand.
    let _ = std::fs::remove_dir_all(shipped().dir.path());
    if missed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
