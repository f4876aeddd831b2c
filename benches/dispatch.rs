//! `cargo bench`: what `hermes-hooks run` costs on top of the hooks it runs, measured side by side
//! in one run on this machine, against the targets. Prints one table; exits 1 when a target is
//! missed. Timings are whole processes (spawn, payload on stdin, wait), min and median of N runs.
//! The binary measured is the one `cargo build --release` makes, built in `<target>/bench-shipped`.

#![allow(clippy::print_stdout)] // the table on stdout is this harness's output

use std::ffi::{OsStr, OsString};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use hermes_hooks::{Approval, record, sha256_file};

/// The binary under test: `HERMES_HOOKS_BENCH_BIN` when set and not empty (to compare builds),
/// else the release binary as `cargo build --release` makes it (see [`build_shipped`]).
fn bin() -> &'static OsStr {
    static BIN: OnceLock<OsString> = OnceLock::new();
    BIN.get_or_init(|| {
        // The harness's own knob, not the product's environment.
        #[allow(clippy::disallowed_methods)]
        let chosen = std::env::var_os("HERMES_HOOKS_BENCH_BIN").filter(|path| !path.is_empty());
        chosen.unwrap_or_else(|| build_shipped().into_os_string())
    })
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
    let mut times: Vec<Duration> = (0..runs).map(|_| once()).collect();
    times.sort();
    Stats {
        min: times[0],
        median: times[times.len() / 2],
    }
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
        });
    }
    record(&home.join("shell-hooks-allowlist.json"), &approvals).expect("approve");
    Fixture {
        _dir: dir,
        home,
        trivial,
        sleeper,
    }
}

fn run_cmd(home: &Path, event: &str) -> Command {
    let mut cmd = Command::new(bin());
    cmd.arg("--hermes-home")
        .arg(home)
        .args(["--user-hooks", "/nonexistent", "-q", "run", event]);
    cmd.env_remove("HERMES_ACCEPT_HOOKS")
        .env_remove("HERMES_SAFE_MODE");
    cmd
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

/// The hook exactly as `run` feeds it (for the direct exec).
const WIRE: &[u8] = br#"{"hook_event_name": "pre_tool_call", "tool_name": "terminal", "tool_input": {"command": "ls -la"}, "session_id": "bench", "cwd": "/", "profile": "default", "extra": {"tool_call_id": "c1"}}"#;

/// The timed figures; returns the rows and the median of `run` with one hook (for the baseline).
fn timings(fx: &Fixture) -> (Vec<Row>, Duration) {
    let runs = 200;
    let mut rows = Vec::new();
    let direct = measure(runs, || timed(&mut Command::new(&fx.trivial), WIRE));
    let run_one = measure(runs, || {
        timed(&mut run_cmd(&fx.home, "pre_tool_call"), PAYLOAD)
    });
    let truth = measure(runs, || timed(&mut Command::new("true"), b""));
    let ratio = ms(run_one.median) / ms(direct.median);
    rows.push(Row {
        figure: "run, one trivial hook / exec of the hook",
        measured: format!(
            "{:.2} / {:.2} ms = {ratio:.2}x",
            ms(run_one.median),
            ms(direct.median)
        ),
        target: "<= 1.3x",
        met: Some(ratio <= 1.3),
    });
    // No dispatcher can beat one more process start: exec of `true`, then the hook.
    let floor = (ms(truth.median) + ms(direct.median)) / ms(direct.median);
    rows.push(Row {
        figure: "  floor: (exec of true + the hook) / the hook",
        measured: format!("{floor:.2}x"),
        target: "(reference)",
        met: None,
    });

    let miss = br#"{"tool_name": "web_search", "args": {"q": "x"}}"#;
    let none = measure(runs, || {
        timed(&mut run_cmd(&fx.home, "pre_tool_call"), miss)
    });
    let ratio = ms(none.median) / ms(truth.median);
    rows.push(Row {
        figure: "run, hooks configured, none applies / true",
        measured: format!(
            "{:.2} / {:.2} ms = {ratio:.2}x",
            ms(none.median),
            ms(truth.median)
        ),
        target: "<= 2x and < 2 ms",
        met: Some(ratio <= 2.0 && ms(none.median) < 2.0),
    });

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
    (rows, run_one.median)
}

fn main() -> ExitCode {
    let binary = bin(); // builds it first, so no build lands inside a measurement
    let fx = fixture();
    let (mut rows, run_one) = timings(&fx);
    match peak_rss_kb(&fx) {
        Some(kb) => rows.push(Row {
            figure: "peak RSS, 5 MB payload, hook floods 50 MB",
            #[allow(clippy::cast_precision_loss)] // kilobytes of one process fit an f64
            measured: format!("{:.1} MB", kb as f64 / 1024.0),
            target: "<= 10 MB",
            met: Some(kb <= 10 * 1024),
        }),
        None => rows.push(Row {
            figure: "peak RSS, 5 MB payload, hook floods 50 MB",
            measured: "n/a (no /proc)".to_owned(),
            target: "<= 10 MB",
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

    println!("binary: {}", binary.to_string_lossy());
    println!(
        "{:<46} {:<36} {:<18} met",
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
            "{:<46} {:<36} {:<18} {met}",
            row.figure, row.measured, row.target
        );
    }
    if missed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
