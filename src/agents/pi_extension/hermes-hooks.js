// hermes-hooks inside Pi: the rules (rules.yaml), the Agent Hooks (HOOK.md folders) and the
// config hooks run for the extension API's events, with every effect the API lets an extension
// have.
//
// Each event is sent, under its own name, to a long-lived `hermes-hooks serve` (JSON lines on its
// stdin and stdout) as {"id", "agent": "pi", "event", "project_dir", "payload"}, the payload
// being the event object with `cwd` (ctx.cwd) and `session_id` added, and the answer is done
// here:
//   tool_call           {"block": true, "reason": M} -> returned: the call does not run, the
//                       model reads M. {"input": A} -> the call's input is replaced IN PLACE
//                       (every key deleted, then A assigned): Pi runs the object it handed over.
//   tool_result         {"context": C} -> the result's content with a text part C appended;
//                       {"block": true, "reason": M} -> the result is replaced by M, as an error.
//   before_agent_start  {"message": {...}} -> returned: a message the model reads after the
//                       person's prompt; a block -> thrown.
//   session_start, session_shutdown, agent_end: reported; a block -> thrown.
//   {}                  nothing.
// Without a screen (`pi -p`) nothing can ask a person, so serve already answers an ask as a
// block; a follow-up sent at agent_end starts no turn in `pi -p`, so there is no quality gate.
//
// Servers: started when first needed, at most POOL_SIZE, each answering one request at a time
// (Pi preflights one tool call at a time, but the code is OpenCode's plugin's); one that died is
// replaced at the next request. They are started without the host's consent switch
// (HERMES_ACCEPT_HOOKS: approving a hook is a person's act), are unref'd with their pipes, and
// their stdin is closed on session_shutdown: a live child with open pipes would keep `pi -p`
// from ever exiting. Events after that (a reload, a new session) start new servers.
//
// Failing closed. serve enforces each hook's own deadline; the extension waits at most
// ANSWER_SECONDS (120 s) for a whole answer, a ceiling for a server that hangs. When no answer
// comes (the binary missing, a server that died or garbled its line, the ceiling reached, a bug
// here), this is said once on stderr and the event goes on as if answered {}, EXCEPT that it is
// answered as a block:
//   - for a tool call, when HERMES_HOOKS_FAIL_CLOSED=1, or when the ceiling was reached (a hook
//     may still have been deciding: letting the call run then would let slowness bypass it), or
//     when the binary cannot be found and install wrote IF_MISSING "block" (its default;
//     `install --if-missing allow` writes "allow"), as the command wiring of other agents does;
//   - for any event, when a `fail_closed` hook of the project could apply to it. Which events
//     have one is learned with `hermes-hooks list --json` in the project folder when the
//     extension first sees it, again in the background when older than 30 s; a request that
//     fails waits up to 10 s for the first answer. With the binary gone, nothing can be learned,
//     so only IF_MISSING and HERMES_HOOKS_FAIL_CLOSED=1 block.
// Nothing else is ever thrown into Pi.
//
// Bypass the agent has (doctor and the docs say so): `pi --no-extensions` loads no extension
// discovered in the extension folders (only those named with `-e`), and a `settings.json`
// `extensions` pattern can switch this one off.
//
// Written by `hermes-hooks install pi` (version @HERMES_HOOKS_VERSION@). Pi loads one default
// export, a function; the extension imports nothing but node: built-ins.

import { spawn, execFile } from "node:child_process";
import { statSync, accessSync, constants as fsConstants } from "node:fs";
import { delimiter, join, isAbsolute } from "node:path";

const INSTALLED_BINARY = "@HERMES_HOOKS_BIN@";
const AGENT = "@HERMES_HOOKS_AGENT@";
const PLUGIN_VERSION = "@HERMES_HOOKS_VERSION@";
// What a tool call meets when the binary cannot be found: "block" or "allow".
const IF_MISSING = "@HERMES_HOOKS_IF_MISSING@";

// Servers at once, and the ceiling on one answer (serve's own hook deadlines come first).
const POOL_SIZE = 4;
const ANSWER_SECONDS = 120;
// How long `list` may take, and how old what it said may be before it is asked again.
const LIST_SECONDS = 10;
const GUARDS_FRESH_SECONDS = 30;
// Projects whose guards are kept.
const KEPT_PROJECTS = 64;
// The host's own consent switches: they never reach a process the extension starts.
const CONSENT_SWITCHES = ["HERMES_ACCEPT_HOOKS"];
// The events answered as a tool call (HERMES_HOOKS_FAIL_CLOSED=1 and the ceiling block these).
const TOOL_CALLS = ["tool_call"];
// Each event as `list` names it (the event its fail_closed hooks are declared for).
const LISTED_AS = {
  tool_call: "pre_tool_call",
  tool_result: "post_tool_call",
  before_agent_start: "pre_llm_call",
  session_start: "on_session_start",
  session_shutdown: "on_session_end",
};
// The sources serve runs for this agent, whose fail_closed hooks count.
const SOURCES = ["rules", "agent-hooks", "config"];

// ---- saying things ----------------------------------------------------------------------------

const said = new Set();

function warn(text) {
  try {
    process.stderr.write(text.endsWith("\n") ? text : text + "\n");
  } catch {
    // Nowhere to say it.
  }
}

function warnOnce(key, text) {
  if (said.has(key)) return;
  said.add(key);
  warn(text);
}

function failClosedSwitch() {
  return ["1", "true", "yes", "on"].includes(String(process.env.HERMES_HOOKS_FAIL_CLOSED || "").trim().toLowerCase());
}

// ---- finding and starting the binary --------------------------------------------------------

function usable(path) {
  try {
    if (!path || !statSync(path).isFile()) return false;
    accessSync(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name) {
  for (const dir of String(process.env.PATH || "").split(delimiter)) {
    if (dir && isAbsolute(dir) && usable(join(dir, name))) return join(dir, name);
  }
  return null;
}

// The path install wrote (absolute, or a bare name looked up on PATH), else HERMES_HOOKS_BIN,
// else `hermes-hooks` on PATH (a fallback is said once: it may be another version, or not the
// one meant).
function binary() {
  const stamped = !INSTALLED_BINARY.startsWith("@");
  if (stamped) {
    const named = isAbsolute(INSTALLED_BINARY) ? INSTALLED_BINARY : onPath(INSTALLED_BINARY);
    if (named && usable(named)) return named;
  }
  let program = null;
  let how = "";
  if (usable(process.env.HERMES_HOOKS_BIN)) {
    program = process.env.HERMES_HOOKS_BIN;
    how = "HERMES_HOOKS_BIN";
  } else {
    program = onPath("hermes-hooks");
    how = "PATH";
  }
  if (program && stamped) {
    warnOnce("fallback", `hermes-hooks: the binary \`hermes-hooks install ${AGENT}\` wrote this plugin (version ${PLUGIN_VERSION}) for (${INSTALLED_BINARY}) is gone; using ${program} from ${how} instead (run \`hermes-hooks install ${AGENT}\` again with the binary you mean)`);
  }
  return program;
}

function childEnv() {
  const env = { ...process.env };
  for (const name of CONSENT_SWITCHES) delete env[name];
  return env;
}

// Neither the child nor its pipes keep the host alive; a request in flight is kept alive by its
// deadline timer instead.
function unrefAll(child) {
  for (const it of [child, child.stdin, child.stdout, child.stderr]) {
    try {
      it?.unref?.();
    } catch {
      // Not every runtime's stream has unref.
    }
  }
}

// No answer came: `kind` says why (missing, died, slow, garbled, refused, unsent, failed), and
// `sent` whether the request reached a server (a request that did not may go to another one).
class Unanswered extends Error {
  constructor(kind, message, sent = true) {
    super(message);
    this.kind = kind;
    this.sent = sent;
  }
}

function asUnanswered(err) {
  if (err instanceof Unanswered) return err;
  const what = err && err.message ? `${err.name || "Error"}: ${err.message}` : String(err);
  return new Unanswered("failed", `the hermes-hooks plugin failed while deciding (${what})`);
}

// ---- one server -------------------------------------------------------------------------------

class Server {
  constructor(program) {
    this.alive = true;
    this.pending = null; // {id, resolve, reject}
    this.buffer = "";
    this.child = spawn(program, ["serve"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: childEnv(),
      // Its own process group: a Ctrl-C that stops a turn does not end it.
      detached: true,
      windowsHide: true,
    });
    unrefAll(this.child);
    this.child.on("error", (err) => this.ended(`cannot run ${program} serve: ${err.message}`, err.code === "ENOENT" ? "missing" : "died"));
    // An answer written just before the end is still read first.
    this.child.on("exit", (code, signal) => setTimeout(() => this.ended(`a hermes-hooks server ended (${signal ? "signal " + signal : "exit status " + code})`, "died"), 50));
    this.child.stdin.on("error", () => {});
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (text) => this.read(text));
    this.child.stdout.on("error", () => {});
    this.child.stderr.setEncoding("utf8");
    let talk = "";
    this.child.stderr.on("data", (text) => {
      talk += text;
      let at;
      while ((at = talk.indexOf("\n")) >= 0) {
        const line = talk.slice(0, at).trimEnd();
        talk = talk.slice(at + 1);
        // serve's own lines start with "hermes-hooks:".
        if (line) warn(line);
      }
    });
    this.child.stderr.on("error", () => {});
  }

  ended(message, kind) {
    if (!this.alive && !this.pending) return;
    this.alive = false;
    const pending = this.pending;
    this.pending = null;
    if (pending) pending.reject(new Unanswered(kind, message, pending.written && kind !== "missing"));
  }

  read(text) {
    this.buffer += text;
    let at;
    while ((at = this.buffer.indexOf("\n")) >= 0) {
      const line = this.buffer.slice(0, at).trim();
      this.buffer = this.buffer.slice(at + 1);
      if (!line) continue;
      const pending = this.pending;
      this.pending = null;
      if (!pending) continue;
      // serve answers every request with one line, in order: this line is the answer.
      let answer;
      try {
        answer = JSON.parse(line);
      } catch {
        answer = undefined;
      }
      if (!answer || typeof answer !== "object" || answer.id !== pending.id) {
        this.alive = false;
        pending.reject(new Unanswered("garbled", "a hermes-hooks server answered with a line that is not the answer"));
      } else if (!("exit" in answer)) {
        // {"id", "error"}: a request serve could not take.
        pending.reject(new Unanswered("refused", `hermes-hooks refused the request: ${answer.error}`));
      } else {
        pending.resolve(answer);
      }
    }
  }

  // The answer to one request line, by `deadline` (ms since the epoch).
  ask(id, line, deadline) {
    return new Promise((resolve, reject) => {
      if (!this.alive || this.child.exitCode !== null || this.child.signalCode !== null) {
        reject(new Unanswered("died", "a hermes-hooks server ended", false));
        return;
      }
      const timer = setTimeout(() => {
        if (this.pending && this.pending.id === id) {
          this.pending = null;
          this.alive = false;
          reject(new Unanswered("slow", `the hooks did not answer within ${ANSWER_SECONDS} s`));
        }
      }, Math.max(0, deadline - Date.now()));
      const done = (fn) => (value) => {
        clearTimeout(timer);
        fn(value);
      };
      this.pending = { id, resolve: done(resolve), reject: done(reject), written: false };
      try {
        this.child.stdin.write(line + "\n");
        this.pending.written = true;
      } catch (err) {
        const pending = this.pending;
        this.pending = null;
        this.alive = false;
        pending.reject(new Unanswered("died", `a hermes-hooks server ended (${err.message})`, false));
      }
    });
  }

  // End of input ends serve once its running hook is done; `end` (a server that hangs or
  // garbled its answers) ends it at once, with the process groups of its running hooks.
  close(end = false) {
    this.alive = false;
    try {
      this.child.stdin.end();
      if (end) this.child.kill("SIGTERM");
    } catch {
      // Already gone.
    }
  }
}

// ---- the pool -----------------------------------------------------------------------------------

class Pool {
  constructor() {
    this.idle = [];
    this.count = 0; // servers started or starting, busy or idle
    this.waiting = []; // callers waiting for a server
    this.generation = 0; // bumped by close(): servers of an older one are not kept
  }

  async take(deadline) {
    for (;;) {
      while (this.idle.length) {
        const server = this.idle.pop();
        if (server.alive) return server;
        this.count -= 1;
      }
      if (this.count < POOL_SIZE) {
        const program = binary();
        if (!program) {
          throw new Unanswered("missing", "hermes-hooks is not installed where the plugin looks (the path install wrote, HERMES_HOOKS_BIN, PATH)", false);
        }
        this.count += 1;
        try {
          const server = new Server(program);
          server.generation = this.generation;
          return server;
        } catch (err) {
          this.count -= 1;
          throw new Unanswered("missing", `cannot start ${program} serve: ${err.message}`, false);
        }
      }
      const wait = deadline - Date.now();
      if (wait <= 0) throw new Unanswered("slow", `every hermes-hooks server stayed busy for ${ANSWER_SECONDS} s`, false);
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, wait);
        this.waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  giveBack(server, keep, end = false) {
    if (keep && server.alive && server.generation === this.generation) {
      this.idle.push(server);
    } else {
      this.count -= 1;
      server.close(end);
    }
    const next = this.waiting.shift();
    if (next) next();
  }

  async call(id, line, deadline) {
    for (let attempt = 1; ; attempt += 1) {
      const server = await this.take(deadline);
      try {
        const answer = await server.ask(id, line, deadline);
        this.giveBack(server, true);
        return answer;
      } catch (err) {
        const kind = err instanceof Unanswered ? err.kind : "failed";
        this.giveBack(server, kind === "refused", kind === "slow" || kind === "garbled");
        // A server found dead before the request reached it: nothing ran, try a new one.
        if (err instanceof Unanswered && !err.sent && err.kind === "died" && attempt === 1) continue;
        throw err;
      }
    }
  }

  // Ends every server (a busy one once it answered); the next request starts new ones.
  close() {
    this.generation += 1;
    for (const server of this.idle) server.close();
    this.count -= this.idle.length;
    this.idle = [];
  }
}

// ---- which events have a fail_closed hook ---------------------------------------------------

class Guards {
  constructor() {
    this.projects = new Map(); // project -> {guards, askedAt, answered, asking}
  }

  // Starts learning a project's guards when nothing fresh is known; never waits.
  learn(project) {
    let known = this.projects.get(project);
    if (!known) {
      let settle;
      known = { guards: null, askedAt: null, asking: false, answered: new Promise((r) => (settle = r)) };
      known.settle = settle;
      this.projects.set(project, known);
      while (this.projects.size > KEPT_PROJECTS) this.projects.delete(this.projects.keys().next().value);
    }
    const fresh = known.askedAt !== null && Date.now() - known.askedAt < GUARDS_FRESH_SECONDS * 1000;
    if (known.asking || fresh) return known;
    known.asking = true;
    known.askedAt = Date.now();
    const finish = (guards) => {
      if (guards) known.guards = guards;
      known.asking = false;
      known.settle();
    };
    try {
      const program = binary();
      if (!program) {
        finish(null);
        return known;
      }
      const child = execFile(program, ["list", "--json"], { cwd: project || undefined, env: childEnv(), timeout: LIST_SECONDS * 1000, maxBuffer: 64 << 20, windowsHide: true }, (err, stdout) => {
        let guards = null;
        try {
          const listed = JSON.parse(String(stdout));
          guards = {};
          for (const hook of listed.hooks || []) {
            if (hook && SOURCES.includes(hook.source) && hook.fail_closed === true) {
              (guards[String(hook.event)] ||= []).push(String(hook.name));
            }
          }
        } catch {
          guards = null;
        }
        finish(guards);
      });
      child.stdin?.end?.();
      unrefAll(child);
    } catch {
      finish(null);
    }
    return known;
  }

  // The name of a fail_closed hook on `event` in `project`, or null; waits for the first answer
  // of `list`, up to LIST_SECONDS and the deadline.
  async guard(event, project, deadline) {
    const listed = LISTED_AS[event];
    if (!listed) return null;
    const known = this.learn(project);
    const wait = Math.max(0, Math.min(LIST_SECONDS * 1000, deadline - Date.now()));
    let timer;
    await Promise.race([known.answered, new Promise((r) => (timer = setTimeout(r, wait)))]);
    clearTimeout(timer);
    const names = (known.guards || {})[listed] || [];
    return names.length ? names[0] : null;
  }
}

// ---- asking -------------------------------------------------------------------------------------

class Hooks {
  constructor(agent, project) {
    this.agent = agent;
    this.project = project;
    this.pool = new Pool();
    this.guards = new Guards();
    this.nextId = 1;
  }

  sayOnce(err) {
    const text = err.kind === "slow"
      ? `hermes-hooks: ${err.message}; a tool call is blocked then (a hook may still have been deciding), anything else goes on unless a fail_closed hook could apply to it`
      : err.kind === "missing" && IF_MISSING !== "allow"
      ? `hermes-hooks: ${err.message}; tool calls are blocked until it is installed again (\`hermes-hooks install ${AGENT} --if-missing allow\` lets them go)`
      : failClosedSwitch()
      ? `hermes-hooks: ${err.message}; tool calls are blocked (HERMES_HOOKS_FAIL_CLOSED=1)`
      : `hermes-hooks: ${err.message}; what the hooks could not check goes on, except what a fail_closed hook could apply to (HERMES_HOOKS_FAIL_CLOSED=1 blocks every tool call instead)`;
    warnOnce(err.kind, text);
  }

  // serve's answer to `event` (an object: {} for nothing), or, when none came, {} or the block
  // the plugin gives itself (blockAnswer). Never throws.
  async consult(event, payload) {
    const deadline = Date.now() + ANSWER_SECONDS * 1000;
    try {
      this.guards.learn(this.project);
      const id = this.nextId++;
      let line;
      try {
        line = JSON.stringify({ id, agent: this.agent, event, project_dir: this.project, payload });
      } catch (err) {
        throw new Unanswered("unsent", `a call could not be sent to hermes-hooks (${err.message})`, false);
      }
      const reply = await this.pool.call(id, line, deadline);
      if (typeof reply.stderr === "string" && reply.stderr) warnOnce("stderr:" + reply.stderr, `hermes-hooks: ${reply.stderr}`);
      const answer = reply.answer;
      return answer && typeof answer === "object" && !Array.isArray(answer) ? answer : {};
    } catch (caught) {
      try {
        const err = asUnanswered(caught);
        this.sayOnce(err);
        if (TOOL_CALLS.includes(event) && err.kind === "missing" && IF_MISSING !== "allow") {
          return blockAnswer(`hermes-hooks could not check this call, so it was blocked: ${err.message}. Install it again, or run \`hermes-hooks install ${AGENT} --if-missing allow\``);
        }
        if (TOOL_CALLS.includes(event) && (failClosedSwitch() || err.kind === "slow")) {
          return blockAnswer(`hermes-hooks could not check this call: ${err.message}`);
        }
        const guard = await this.guards.guard(event, this.project, deadline);
        if (guard) return blockAnswer(`hook ${guard} could not check this ${TOOL_CALLS.includes(event) ? "call" : "event"} because ${err.message}, so it was blocked (fail_closed)`);
      } catch {
        if (TOOL_CALLS.includes(event) && failClosedSwitch()) return blockAnswer("hermes-hooks could not check this call");
      }
      return {};
    }
  }

  close() {
    this.pool.close();
  }
}

// ---- what the answers do ------------------------------------------------------------------------

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

// The block the extension gives itself, as serve would answer it.
function blockAnswer(message) {
  return { block: true, reason: message };
}

function blockMessage(answer) {
  if (answer.block !== true) return null;
  return typeof answer.reason === "string" && answer.reason ? answer.reason : "Blocked by a hook";
}

// The event object as sent: what Pi handed over, with the folder and the session.
function payloadOf(event, ctx) {
  const payload = isObject(event) ? { ...event } : {};
  // agent_end holds the whole conversation: no hook needs it sent at every turn's end.
  if (payload.type === "agent_end") delete payload.messages;
  if (typeof ctx?.cwd === "string") payload.cwd = ctx.cwd;
  try {
    const session = ctx?.sessionManager?.getSessionId?.();
    if (typeof session === "string" && session) payload.session_id = session;
  } catch {
    // No session known.
  }
  return payload;
}

export default function (pi) {
  const agent = AGENT.startsWith("@") ? "pi" : AGENT;
  // The project: where Pi was started for this session (ctx.cwd), fixed when first seen; the
  // model's `cd` inside a command never moves it.
  let hooks = null;
  const hooksFor = (ctx) => {
    if (!hooks) {
      const project = typeof ctx?.cwd === "string" && ctx.cwd ? ctx.cwd : process.cwd();
      hooks = new Hooks(agent, project);
      hooks.guards.learn(project);
    }
    return hooks;
  };
  // An event that can only report (or throw a block).
  const report = (name) => async (event, ctx) => {
    const answer = await hooksFor(ctx).consult(name, payloadOf(event, ctx));
    const message = blockMessage(answer);
    if (message !== null) throw new Error(message);
  };

  pi.on("session_start", report("session_start"));

  pi.on("tool_call", async (event, ctx) => {
    const answer = await hooksFor(ctx).consult("tool_call", payloadOf(event, ctx));
    const message = blockMessage(answer);
    if (message !== null) return { block: true, reason: message };
    if (isObject(answer.input) && event && isObject(event.input)) {
      for (const key of Object.keys(event.input)) delete event.input[key];
      Object.assign(event.input, answer.input);
    }
    return undefined;
  });

  pi.on("tool_result", async (event, ctx) => {
    const answer = await hooksFor(ctx).consult("tool_result", payloadOf(event, ctx));
    const message = blockMessage(answer);
    if (message !== null) return { content: [{ type: "text", text: message }], isError: true };
    if (typeof answer.context === "string" && answer.context) {
      const content = Array.isArray(event?.content) ? event.content : [];
      return { content: [...content, { type: "text", text: answer.context }] };
    }
    return undefined;
  });

  pi.on("before_agent_start", async (event, ctx) => {
    const answer = await hooksFor(ctx).consult("before_agent_start", payloadOf(event, ctx));
    const message = blockMessage(answer);
    if (message !== null) throw new Error(message);
    if (isObject(answer.message)) return { message: answer.message };
    return undefined;
  });

  pi.on("agent_end", report("agent_end"));

  pi.on("session_shutdown", async (event, ctx) => {
    const current = hooksFor(ctx);
    try {
      await report("session_shutdown")(event, ctx);
    } finally {
      // Else the servers' pipes keep `pi -p` alive. A later event starts new ones.
      current.close();
    }
  });
}
