"""What a hook costs inside the real Hermes agent loop, each way of wiring it side by side in one
run. Not a check: it prints a table and asserts nothing.

    latency.py BINARY [CALLS]

Each row pools PASSES `hermes -z` runs (agent_loop.py's Run: scratch homes, a scripted model
on 127.0.0.1) whose model asks for CALLS read_file calls each (default 32, 8 a message; a
shorter run would weigh its first message, while the plugin's server warms up, more). The rows
take turns, in order and then in reverse, so that a machine whose speed drifts moves both sides
of a ratio (the plugin against the direct shell hook) alike; those two rows, whose ratio the
bench holds to its bar, take RATIO_PASSES runs each, their extra runs in turns too, and so do
the runs of a rule's two rows (two runs of 32 calls of each kind left their ratio anywhere from
0.7x to 1.6x). A timing plugin (hook_timer/) measures inside Hermes how long the
`pre_tool_call` dispatch takes per call: the `tool_request` middleware plus `invoke_hook`. The
rows:

- nothing: no hook at all (what dispatch costs anyway);
- plugin, none applies: the hermes-hooks plugin, no Agent Hooks guard for the event;
- plugin, one trivial hook: the plugin and one project guard that reads its input and exits 0;
- plugin, a rule blocks / plugin, a rule lets through: one run of the plugin and a user rules
  file (approved) whose one rule blocks the calls of even-numbered files, decided inside the
  plugin's server with no process; the calls it blocks and the calls it lets through (where the
  rule is configured and none applies) are shown as two rows of the same run, their messages
  taking turns (each message all of one kind: Hermes runs a message's calls side by side, and a
  blocked call beside calls whose tools run is slowed by them, not by the rule);
- shell hook, direct: the same script as a Hermes config hook;
- bridge, none applies / one trivial hook: a config hook `BINARY run pre_tool_call`.

The plugin rows need a binary with `install hermes`; without it they are left out. The first call
of a run (which starts the plugin's server) is shown apart from the median. Figures worth quoting
come from a release build (`cargo build --release`, then target/release/hermes-hooks): a debug
build starts more slowly, which the bridge rows pay on every call.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # importing agent_loop leaves no __pycache__ in the checkout

import agent_loop  # noqa: E402
from agent_loop import Run  # noqa: E402

HERE = Path(__file__).resolve().parent
TRIVIAL = "#!/bin/sh\ncat >/dev/null\n"
RULE = r"""rules:
- name: no-numbered-files
  tool: read
  when:
    path: '/file-\d*[02468]\.txt$'
  action: block
  message: Reading the numbered files was blocked by a rule.
"""


def read_file(path):
    return {"name": "read_file", "arguments": {"path": path}}


def with_timer(run):
    target = run.hermes / "plugins" / "hook-timer"
    shutil.copytree(HERE / "hook_timer", target)
    run.config(9)
    subprocess.run([agent_loop.HERMES, "plugins", "enable", "hook-timer"], cwd=run.proj,
                   env=run.env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                   check=True)
    run.extra_env["HOOK_TIMER_LOG"] = str(run.root / "timer.jsonl")


def trivial_guard(run):
    folder = run.proj / ".agents" / "hooks" / "trivial"
    (folder / "scripts").mkdir(parents=True)
    (folder / "HOOK.md").write_text(
        "---\nname: trivial\ndescription: Reads its input and allows.\n"
        "trigger: pre-tool-call\n---\n")
    script = folder / "scripts" / "run"
    script.write_text(TRIVIAL)
    script.chmod(0o755)


def blocking_rule(run):
    """The user rules file (approved with the plugin) whose rule blocks every other timed call."""
    path = run.hermes / "hermes-hooks" / "rules.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(RULE)


def trivial_script(run):
    script = run.root / "trivial.sh"
    script.write_text(TRIVIAL)
    script.chmod(0o755)
    return str(script)


def setups(plugin):
    rows = [("nothing", lambda r: None)]
    if plugin:
        rows += [
            ("plugin, none applies", lambda r: r.plugin()),
            ("plugin, one trivial hook", lambda r: (trivial_guard(r), r.plugin())),
            (("plugin, a rule blocks", "plugin, a rule lets through"),
             lambda r: (blocking_rule(r), r.plugin())),
        ]
    rows += [
        ("shell hook, direct", lambda r: r.shell_hooks({"pre_tool_call": trivial_script(r)})),
        ("bridge, none applies", lambda r: r.bridge(["pre_tool_call"])),
        ("bridge, one trivial hook", lambda r: (trivial_guard(r), r.bridge(["pre_tool_call"]))),
    ]
    return rows


def per_call(run):
    """(path, milliseconds) per tool call, in the order the calls were dispatched: the middleware
    and the hook dispatch of the same call summed."""
    path = run.root / "timer.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []
    middleware = {}
    for x in lines:
        if x["what"] == "middleware":
            middleware.setdefault(x.get("path"), []).append(x["ns"])
    calls = []
    for x in lines:
        if x["what"] == "hook":
            kept = middleware.get(x.get("path")) or [0]
            calls.append((x.get("path"), (x["ns"] + kept.pop(0)) / 1e6))
    return calls


def even(path):
    """Whether `path` names an even-numbered file (the ones the rule blocks)."""
    digits = "".join(c for c in str(path) if c.isdigit())
    return bool(digits) and int(digits) % 2 == 0


def measure(labels, setup, calls):
    """The rows of one run: one label for every call, or two (the calls of even-numbered files,
    then the others)."""
    label = labels if isinstance(labels, str) else labels[0]
    run = Run("latency-" + label.replace(" ", "-").replace(",", ""))
    try:
        with_timer(run)
        setup(run)
        for i in range(2 * calls):
            (run.proj / f"file-{i}.txt").write_text(f"file {i}\n")
        if isinstance(labels, str):
            rounds = [[read_file(f"file-{r * 8 + i}.txt") for i in range(8)]
                      for r in range(max(1, calls // 8))]
        else:
            # Messages in turns: eight even-numbered files, then eight odd-numbered ones.
            rounds = [[read_file(f"file-{(r // 2) * 16 + 2 * i + r % 2}.txt") for i in range(8)]
                      for r in range(max(2, calls // 8))]
        run.drive(rounds)
        timed = per_call(run)
        if not run.ended() or len(timed) < 4:
            return [(label, None, run.why())]
        if isinstance(labels, str):
            return [(labels, [ms for _, ms in timed], None)]
        # The first call (which starts the server) stays first of the first row.
        first, rest = timed[0], timed[1:]
        blocked = [first[1]] + [ms for path, ms in rest if even(path)]
        passed = [first[1]] + [ms for path, ms in rest if not even(path)]
        return [(labels[0], blocked, None), (labels[1], passed, None)]
    finally:
        shutil.rmtree(run.root, ignore_errors=True)


# Runs a row is pooled from. Each run's first call starts what that run starts (the plugin's
# server), so only the first run's is shown, apart; the others' are left out.
PASSES = 2
# The two rows whose ratio the bench holds to its bar get this many runs each: two Hermes runs of
# one wiring can differ by a fifth, more than the bar's margin. The rule's two rows, whose ratio
# the bench holds to a bar too, come from one setup and get as many runs. With four, eight whole
# bench runs read the plugin's one-hook ratio anywhere from 0.96x to 1.12x around a bar of 1.1x.
RATIO_PASSES = 8
RATIO_ROWS = ("plugin, one trivial hook", "shell hook, direct")
RULE_ROWS = ("plugin, a rule blocks", "plugin, a rule lets through")


def pooled(rows, calls):
    """Every row's times over PASSES runs taken in turns (RATIO_PASSES for RATIO_ROWS and the
    rule's setup, the extra runs also in turns): (label, times or None, why)."""
    order, kept = [], {}
    pair = [row for row in rows if row[0] in RATIO_ROWS]
    extra = (pair if len(pair) == len(RATIO_ROWS) else []) + [
        row for row in rows if row[0] == RULE_ROWS]
    turns = [rows if turn % 2 == 0 else list(reversed(rows)) for turn in range(PASSES)]
    if extra:
        turns += [extra if turn % 2 == 0 else list(reversed(extra))
                  for turn in range(PASSES, RATIO_PASSES)]
    for turn in turns:
        for labels, setup in turn:
            for label, times, why in measure(labels, setup, calls):
                if label not in kept:
                    order.append(label)
                    kept[label] = (times, why)
                    continue
                had, _ = kept[label]
                if times is None:
                    kept[label] = (None, why)
                elif had is not None:
                    kept[label] = (had + times[1:], None)
    return [(label, *kept[label]) for label in order]


def main():
    agent_loop.BINARY = os.path.abspath(sys.argv[1])
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 32
    rows = pooled(setups(agent_loop.has_plugin()), calls)
    print(f"pre_tool_call dispatch inside Hermes, ms per tool call ({calls} calls a run, "
          f"{PASSES} runs a row, {RATIO_PASSES} for the plugin's one hook, the direct shell hook "
          f"and the rule's rows, {agent_loop.BINARY})")
    print(f"{'wiring':<28} {'first':>8} {'median':>8} {'p90':>8} {'min':>8}")
    for label, times, why in rows:
        if times is None:
            print(f"{label:<28} failed: {why.splitlines()[0]}")
            continue
        rest = sorted(times[1:])
        p90 = rest[min(len(rest) - 1, int(len(rest) * 0.9))]
        print(f"{label:<28} {times[0]:>8.2f} {statistics.median(rest):>8.2f} {p90:>8.2f} "
              f"{rest[0]:>8.2f}")


if __name__ == "__main__":
    main()
