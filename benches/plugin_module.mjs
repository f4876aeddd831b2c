// What a tool call costs through the OpenCode plugin module, as OpenCode calls it: the module is
// loaded from a file with its marks filled, as `install opencode` writes it, and its
// `tool.execute.before` is awaited for each call.
//
//   node benches/plugin_module.mjs HERMES_HOOKS_BINARY [CALLS]
//
// Prints one JSON line: the median microseconds a call adds where nothing applies (the target:
// at most 300), and, with one trivial Agent Hooks hook approved, the median of a call through
// the module against running the hook itself from here (spawn, payload on stdin, wait; the
// target: at most 1.1x), both measured in turns in one run.

import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync, chmodSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const binary = resolve(process.argv[2] || "");
const calls = Number(process.argv[3] || 400);
const here = dirname(fileURLToPath(import.meta.url));
const root = mkdtempSync(join(tmpdir(), "hh-plugin-bench-"));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// A person's home, a project in it, and the module written as install writes it.
function setUp(name, withHook) {
  const home = join(root, name);
  const project = join(home, "project");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(home, ".hermes"), { recursive: true });
  const env = { PATH: process.env.PATH, HOME: home, HERMES_HOOKS_AUDIT_LOG: "off" };
  let script = null;
  if (withHook) {
    const folder = join(home, ".config", "agents", "hooks", "trivial");
    mkdirSync(join(folder, "scripts"), { recursive: true });
    script = join(folder, "scripts", "run.sh");
    writeFileSync(script, "#!/bin/sh\ncat >/dev/null\n");
    chmodSync(script, 0o755);
    writeFileSync(
      join(folder, "HOOK.md"),
      "---\nname: trivial\ndescription: Reads the call and says nothing\ntrigger: pre_tool_call\n" +
        "---\nReads the call.\n",
    );
    execFileSync(binary, ["approve", "--yes"], { cwd: project, env, stdio: ["ignore", "ignore", "inherit"] });
  }
  const text = readFileSync(join(here, "..", "src", "agents", "opencode_plugin", "hermes-hooks.js"), "utf8")
    .replaceAll('"@HERMES_HOOKS_BIN@"', JSON.stringify(binary))
    .replaceAll('"@HERMES_HOOKS_AGENT@"', JSON.stringify("opencode"))
    .replaceAll("@HERMES_HOOKS_VERSION@", "bench");
  const file = join(home, "hermes-hooks.js");
  writeFileSync(file, text);
  return { home, project, env, file, script };
}

async function load(setup) {
  for (const name of Object.keys(process.env)) {
    if (name.startsWith("XDG_") || name.startsWith("HERMES")) delete process.env[name];
  }
  Object.assign(process.env, setup.env);
  const module = await import(pathToFileURL(setup.file).href);
  const hooks = await module.default.server({ directory: setup.project, worktree: setup.project });
  return hooks;
}

async function throughModule(hooks, n) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const output = { args: { command: "ls -la" } };
    const start = process.hrtime.bigint();
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_bench", callID: `call_${i}` }, output);
    times.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return times;
}

function direct(script, payload) {
  return new Promise((done, fail) => {
    const start = process.hrtime.bigint();
    const child = spawn(script, [], { stdio: ["pipe", "ignore", "ignore"] });
    child.on("error", fail);
    child.on("close", () => done(Number(process.hrtime.bigint() - start) / 1000));
    child.stdin.end(payload);
  });
}

const empty = setUp("empty", false);
const nothing = await load(empty);
await throughModule(nothing, 20);
const idle = await throughModule(nothing, calls);

const trivial = setUp("trivial", true);
const withHook = await load(trivial);
await throughModule(withHook, 10);
const payload = JSON.stringify({ tool_name: "bash", tool_input: { command: "ls -la" } });
const viaModule = [];
const itself = [];
for (let i = 0; i < Math.max(50, Math.floor(calls / 4)); i++) {
  viaModule.push(...(await throughModule(withHook, 1)));
  itself.push(await direct(trivial.script, payload));
}
const ratio = median(viaModule) / median(itself);
console.log(JSON.stringify({
  nothing_applies_us: Math.round(median(idle)),
  one_hook_us: Math.round(median(viaModule)),
  hook_itself_us: Math.round(median(itself)),
  ratio: Math.round(ratio * 100) / 100,
  met: median(idle) <= 300 && ratio <= 1.1,
}));
for (const hooks of [nothing, withHook]) {
  if (hooks.dispose) await hooks.dispose();
}
rmSync(root, { recursive: true, force: true });
process.exit(0);
