//! `cargo bench --bench corpus`: every shipped pack, approved as `new --rules all` writes them,
//! against the labelled command lines of `benches/corpus/` (sources in its SOURCES.md), asked of
//! one `hermes-hooks serve` as an agent asks it. Prints, as Markdown, how many lines labelled
//! destructive are stopped (recall) and how many labelled safe are stopped (false positives), per
//! category and per pack, for the lines the packs were tuned on and the held-out ones apart, and
//! what a request took: with this process and the server on one CPU, as the dispatch bench times
//! `serve` (held to the target; the median of several passes), beside the same lines where no
//! rule is approved and as the kernel places the two processes. Where this project's documented
//! stance labels a line otherwise (`benches/corpus/stance.jsonl`, each with its reason in
//! docs/choices.md), the line counts as the stance says, and the tables say how many such lines
//! there are. The tuned lines the packs get wrong are written to `<target>/corpus/misses.txt`;
//! the held-out ones are never listed.
//! Exits 1 when a target is missed: 95% recall, at most 1% false positives, 100 us a request.

#![allow(clippy::print_stdout)] // the tables on stdout are this harness's output

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

#[path = "common/cpu.rs"]
mod cpu;

/// The recall every pack together must reach, on each split.
const RECALL_MIN: f64 = 0.95;
/// The share of safe lines they may stop, on each split.
const FALSE_MAX: f64 = 0.01;
/// The median time of one request, in microseconds.
const REQUEST_MAX_US: f64 = 100.0;
/// How many times the lines are timed on one CPU (the median pass counts).
const PASSES: usize = 5;

/// One labelled command line.
struct Line {
    command: String,
    /// Whether a guard should stop it, as the project's stance has it.
    destructive: bool,
    /// Whether the stance file relabelled it.
    relabelled: bool,
    category: String,
    held_out: bool,
}

/// What the packs did with a line.
struct Verdict {
    stopped: bool,
    /// The packs whose rules stopped it.
    packs: Vec<String>,
    took: Duration,
}

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lines = corpus(&root.join("benches/corpus"));
    let dir = scratch(root);
    println!(
        "Home and project made under {} (outside every temporary folder the packs allow).",
        dir.path().display()
    );
    let (home, project) = fixture(dir.path());
    // As an agent's server is placed by the kernel: the verdicts, and the time as a reference.
    let (verdicts, _) = ask(dir.path(), &home, &project, &lines, false);
    // On one CPU, as the dispatch bench times `serve`: the figure held to the target. And the
    // same lines where nothing applies (a home with no rules), the floor of this client. Each
    // pass takes about a second; the machine's busy spells last longer, so the two are timed in
    // turns, several passes each, and the median pass counts.
    let bare = dir.path().join("bare");
    std::fs::create_dir_all(&bare).expect("a home with nothing");
    let mut passes = Vec::new();
    let mut floors = Vec::new();
    let mut one_cpu = true;
    for _ in 0..PASSES {
        let (pinned, pinned_here) = ask(dir.path(), &home, &project, &lines, true);
        one_cpu &= pinned_here;
        passes.push(spread(&pinned));
        floors.push(spread(&ask(dir.path(), &bare, &project, &lines, true).0).0);
    }
    let mut out = String::new();
    let mut met = true;
    for (name, held_out) in [("tuned on", false), ("held out", true)] {
        let chosen: Vec<(&Line, &Verdict)> = lines
            .iter()
            .zip(&verdicts)
            .filter(|(line, _)| line.held_out == held_out)
            .collect();
        met &= table(&mut out, name, &chosen);
    }
    passes.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (median, slowest) = passes[passes.len() / 2];
    let medians: Vec<String> = passes.iter().map(|p| format!("{:.1}", p.0)).collect();
    floors.sort_by(f64::total_cmp);
    let none = floors[floors.len() / 2];
    let (placed, _) = spread(&verdicts);
    let _ = writeln!(
        out,
        "\nA request to `serve` with every pack, the two processes on one CPU{}: median \
         {median:.1} us, slowest {slowest:.0} us (the median of {PASSES} passes of {} requests, \
         whose medians were {} us; target: median <= {REQUEST_MAX_US} us). Where no rule is \
         approved, the same lines: {none:.1} us. As the kernel places the two processes (a \
         reference): {placed:.1} us.",
        if one_cpu { "" } else { " (could not pin them)" },
        lines.len(),
        medians.join(", ")
    );
    met &= median <= REQUEST_MAX_US;
    print!("{out}");
    misses(root, &lines, &verdicts);
    if met {
        ExitCode::SUCCESS
    } else {
        println!("\nA target is missed.");
        ExitCode::FAILURE
    }
}

/// Every line of every `*.jsonl` of `folder` but the stance file, labelled as the stance file
/// says where it names the line.
fn corpus(folder: &Path) -> Vec<Line> {
    let stance: BTreeMap<String, bool> = read_jsonl(&folder.join("stance.jsonl"))
        .into_iter()
        .map(|value| {
            let command = value["command"].as_str().expect("command").to_owned();
            let label = value["stance"].as_str().expect("stance");
            (command, label == "destructive")
        })
        .collect();
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .expect("benches/corpus")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| {
            path.extension().is_some_and(|ext| ext == "jsonl")
                && path.file_name().is_some_and(|name| name != "stance.jsonl")
        })
        .collect();
    files.sort();
    let mut lines = Vec::new();
    for file in files {
        for value in read_jsonl(&file) {
            let command = value["command"].as_str().expect("command").to_owned();
            let labelled = value["label"].as_str().expect("label") == "destructive";
            let destructive = stance.get(&command).copied().unwrap_or(labelled);
            lines.push(Line {
                relabelled: destructive != labelled,
                destructive,
                category: value["category"].as_str().expect("category").to_owned(),
                held_out: value["split"] == "held-out",
                command,
            });
        }
    }
    lines
}

fn read_jsonl(file: &Path) -> Vec<Value> {
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

/// A scratch folder for the person's home and project that no pack counts as temporary: the
/// packs let deletes under /tmp and /var/tmp go, so a home there would make `rm -rf ~/x` scratch
/// work. The build's target folder, else the user's cache folder, whichever lies outside them.
fn scratch(root: &Path) -> tempfile::TempDir {
    // The harness's own knobs, not the product's environment.
    #[allow(clippy::disallowed_methods)]
    let candidates = [
        std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from),
        std::env::var_os("HOME").map_or_else(
            || root.join("target"),
            |home| PathBuf::from(home).join(".cache"),
        ),
    ];
    for base in candidates {
        let Ok(base) = std::fs::create_dir_all(&base).and_then(|()| base.canonicalize()) else {
            continue;
        };
        let temporary = ["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"]
            .iter()
            .any(|tmp| base.starts_with(tmp));
        if !temporary && let Ok(dir) = tempfile::Builder::new().prefix("corpus-").tempdir_in(&base)
        {
            return dir;
        }
    }
    panic!("no folder outside /tmp and /var/tmp to make the corpus's home and project in");
}

/// The binary `cargo bench` built, with an environment of its own under `dir`.
fn tool(dir: &Path, home: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hermes-hooks"));
    cmd.env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", dir.join("person"))
        .env("HERMES_HOME", home)
        .env("XDG_CONFIG_HOME", dir.join("person/.config"))
        .env("XDG_DATA_HOME", dir.join("person/.local/share"))
        .env("XDG_CACHE_HOME", dir.join("person/.cache"))
        .env("XDG_STATE_HOME", dir.join("person/.local/state"));
    cmd
}

/// A Hermes home with every pack written and approved, and a project (it has `.git`).
fn fixture(dir: &Path) -> (PathBuf, PathBuf) {
    let home = dir.join("hermes");
    let project = dir.join("person/project");
    std::fs::create_dir_all(project.join(".git")).expect("the project");
    for args in [&["new", "--rules", "all"][..], &["approve", "--yes"]] {
        let out = tool(dir, &home)
            .args(args)
            .current_dir(&project)
            .output()
            .expect("hermes-hooks");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    (home, project)
}

/// The median and the slowest request of `verdicts`, in microseconds.
fn spread(verdicts: &[Verdict]) -> (f64, f64) {
    let mut times: Vec<Duration> = verdicts.iter().map(|verdict| verdict.took).collect();
    times.sort();
    let median = times[times.len() / 2].as_secs_f64() * 1e6;
    let slowest = times.last().map_or(0.0, |took| took.as_secs_f64() * 1e6);
    (median, slowest)
}

/// Each line's verdict, from one `serve` in the project, as a Hermes shell call; with `pin`,
/// this process and the server on one CPU (and whether they could be).
fn ask(dir: &Path, home: &Path, project: &Path, lines: &[Line], pin: bool) -> (Vec<Verdict>, bool) {
    let mut child = tool(dir, home)
        .arg("serve")
        .current_dir(project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut asking = || {
        let mut verdicts = Vec::with_capacity(lines.len());
        let mut answer = String::new();
        for (id, line) in lines.iter().enumerate() {
            let request = json!({
                "id": id,
                "event": "pre_tool_call",
                "payload": {
                    "tool_name": "terminal",
                    "args": {"command": line.command},
                    "cwd": project,
                    "session_id": "corpus",
                },
            });
            let mut text = request.to_string();
            text.push('\n');
            let start = Instant::now();
            input.write_all(text.as_bytes()).expect("a request");
            input.flush().expect("a request");
            answer.clear();
            output.read_line(&mut answer).expect("an answer");
            let took = start.elapsed();
            let value: Value = serde_json::from_str(&answer).expect("an answer");
            // Blocked, or handed to a person (which Hermes, asked here, cannot do: a block too).
            let stopped = value["exit"] == 2;
            let mut packs: Vec<String> = value["hooks"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .filter(|hook| matches!(hook["status"].as_str(), Some("blocked" | "asked")))
                .filter_map(|hook| hook["name"].as_str())
                .map(pack_of)
                .collect();
            packs.dedup();
            verdicts.push(Verdict {
                stopped,
                packs,
                took,
            });
        }
        verdicts
    };
    let (verdicts, pinned) = if pin {
        cpu::on_one_cpu(&[child.id()], asking)
    } else {
        (asking(), false)
    };
    drop(input);
    let _ = child.wait();
    (verdicts, pinned)
}

/// The pack a shipped rule's name comes from: the longest pack name it starts with.
fn pack_of(rule: &str) -> String {
    const PACKS: [&str; 14] = [
        "destructive",
        "force-push",
        "git-discard",
        "containers",
        "kubernetes",
        "infrastructure",
        "publishing",
        "services",
        "cloud",
        "databases",
        "platforms",
        "secrets",
        "secret-stores",
        "outside-project",
    ];
    PACKS
        .iter()
        .filter(|pack| rule.starts_with(&format!("{pack}-")))
        .max_by_key(|pack| pack.len())
        .map_or_else(|| rule.to_owned(), |pack| (*pack).to_owned())
}

/// Counts of one group of lines.
#[derive(Default)]
struct Counts {
    destructive: usize,
    stopped: usize,
    safe: usize,
    wrongly: usize,
    relabelled: usize,
}

impl Counts {
    fn add(&mut self, line: &Line, stopped: bool) {
        self.add_as(line.destructive, stopped);
        self.relabelled += usize::from(line.relabelled);
    }

    /// Counts a line labelled `destructive` (or safe) that the packs `stopped` (or not).
    fn add_as(&mut self, destructive: bool, stopped: bool) {
        if destructive {
            self.destructive += 1;
            self.stopped += usize::from(stopped);
        } else {
            self.safe += 1;
            self.wrongly += usize::from(stopped);
        }
    }

    fn recall(&self) -> f64 {
        ratio(self.stopped, self.destructive)
    }

    fn false_rate(&self) -> f64 {
        ratio(self.wrongly, self.safe)
    }

    fn row(&self, name: &str) -> String {
        format!(
            "| {name} | {} | {} ({:.1}%) | {} | {} ({:.1}%) | {} |",
            self.destructive,
            self.stopped,
            self.recall() * 100.0,
            self.safe,
            self.wrongly,
            self.false_rate() * 100.0,
            self.relabelled
        )
    }
}

#[allow(clippy::cast_precision_loss)] // counts of lines
fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        return 0.0;
    }
    part as f64 / whole as f64
}

/// The tables of one split; whether its targets are met.
fn table(out: &mut String, name: &str, lines: &[(&Line, &Verdict)]) -> bool {
    let mut all = Counts::default();
    // Every line as its source labels it, the stance aside: the figure to set the stance's
    // relabelling against.
    let mut as_labelled = Counts::default();
    let mut by_category: BTreeMap<&str, Counts> = BTreeMap::new();
    // Per pack: the destructive lines it stops, the safe lines it stops.
    let mut by_pack: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (line, verdict) in lines {
        all.add(line, verdict.stopped);
        as_labelled.add_as(line.destructive != line.relabelled, verdict.stopped);
        by_category
            .entry(&line.category)
            .or_default()
            .add(line, verdict.stopped);
        for pack in &verdict.packs {
            let entry = by_pack.entry(pack).or_default();
            if line.destructive {
                entry.0 += 1;
            } else {
                entry.1 += 1;
            }
        }
    }
    let _ = writeln!(
        out,
        "\n### Lines {name}: {} (every pack approved)\n\n| category | destructive | stopped | \
         safe | wrongly stopped | relabelled by the stance |\n|---|---|---|---|---|---|",
        lines.len()
    );
    for (category, counts) in &by_category {
        let _ = writeln!(out, "{}", counts.row(&format!("`{category}`")));
    }
    let _ = writeln!(out, "{}", all.row("**all**"));
    let _ = writeln!(out, "{}", as_labelled.row("all, as the sources label them"));
    let _ = writeln!(
        out,
        "\n| pack | destructive lines it stops | safe lines it stops |\n|---|---|---|"
    );
    for (pack, (hit, wrong)) in &by_pack {
        let _ = writeln!(out, "| `{pack}` | {hit} | {wrong} |");
    }
    all.recall() >= RECALL_MIN && all.false_rate() <= FALSE_MAX
}

/// Writes the tuned lines the packs get wrong to `<target>/corpus/misses.txt`.
fn misses(root: &Path, lines: &[Line], verdicts: &[Verdict]) {
    // The harness's own knob, not the product's environment.
    #[allow(clippy::disallowed_methods)]
    let folder = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| root.join("target"), PathBuf::from)
        .join("corpus");
    let _ = std::fs::create_dir_all(&folder);
    let mut text = String::new();
    for (line, verdict) in lines.iter().zip(verdicts) {
        if !line.held_out && line.destructive != verdict.stopped {
            let what = if line.destructive {
                "missed"
            } else {
                "wrongly stopped"
            };
            let _ = writeln!(
                text,
                "{what}\t{}\t{}\t{}",
                line.category,
                verdict.packs.join(","),
                line.command.replace('\n', "\\n")
            );
        }
    }
    let file = folder.join("misses.txt");
    if std::fs::write(&file, text).is_ok() {
        println!("\nThe tuned lines the packs get wrong: {}", file.display());
    }
}
