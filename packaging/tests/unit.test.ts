/**
 * The systemd unit the packages ship: the hardening the issue asks for, `systemd-analyze
 * security` at 4.0 or lower (Debian's systemd package), and — since systemd does not run here —
 * that every system call the packaged binary makes (doctor, then the daemon with its default
 * plugins answering /healthz and stopping on SIGTERM, traced with strace as an unprivileged
 * user like the service's) is one the unit's SystemCallFilter= allows.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { run, startDaemon } from "../../tests/support/process.ts";
import { isRoot, PACKAGES, ROOT, scratch, skipUnless, unpack } from "./dist.ts";

const UNIT = join(ROOT, "packaging", "homed.service");
const unitText = readFileSync(UNIT, "utf8");
const directives = (name: string) => [...unitText.matchAll(new RegExp(`^${name}=(.*)$`, "gm"))].map((m) => m[1]!);

describe("homed.service", () => {
  test("carries the hardening and settings the packages promise", () => {
    const expected: Record<string, string> = {
      User: "homed",
      StateDirectory: "homed",
      StateDirectoryMode: "0700",
      UMask: "0077",
      EnvironmentFile: "-/etc/homed/env",
      ExecStart: "/usr/bin/homed serve -data /var/lib/homed",
      NoNewPrivileges: "yes",
      ProtectSystem: "strict",
      ProtectHome: "yes",
      PrivateTmp: "yes",
      PrivateDevices: "yes",
      CapabilityBoundingSet: "",
      RestrictAddressFamilies: "AF_UNIX AF_INET AF_INET6",
      SystemCallArchitectures: "native",
      SystemCallErrorNumber: "EPERM",
    };
    for (const [name, value] of Object.entries(expected)) assert.deepEqual(directives(name), [value], name);
    assert.deepEqual(directives("SystemCallFilter"), ["@system-service", "~@privileged @resources"]);
    // The data folder is given once, in ExecStart: no HOMED_DATA repeating it.
    assert.doesNotMatch(unitText, /HOMED_DATA/);
  });

  test("systemd-analyze security rates it 4.0 or lower", { skip: skipUnless("systemd-analyze") }, () => {
    const dir = scratch("unit");
    copyFileSync(UNIT, join(dir, "homed.service"));
    const report = execFileSync("systemd-analyze", ["security", "--offline=true", "--no-pager", join(dir, "homed.service")], { encoding: "utf8" });
    const score = /Overall exposure level for homed\.service: (\d+\.\d+)/.exec(report);
    assert.ok(score, report);
    console.log(`systemd-analyze security: ${score[1]} (lower is safer; 4.0 or lower asked)`);
    assert.ok(Number(score[1]) <= 4.0, report);
  });
});

/** `systemd-analyze syscall-filter` lists every group; expands nested @groups to call names. */
function syscallGroups(): (name: string) => Set<string> {
  const groups = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of execFileSync("systemd-analyze", ["syscall-filter", "--no-pager"], { encoding: "utf8" }).split("\n")) {
    if (line.startsWith("@")) groups.set(line.trim(), (current = []));
    else if (line.startsWith("    ") && current && !line.trim().startsWith("#")) current.push(line.trim());
    else if (line.trim() === "") current = undefined;
  }
  const expand = (name: string): Set<string> => {
    if (!name.startsWith("@")) return new Set([name]);
    const members = groups.get(name);
    if (!members) throw new Error(`systemd-analyze knows no group ${name}`);
    return new Set(members.flatMap((m) => [...expand(m)]));
  };
  return expand;
}

/** What the unit's SystemCallFilter= lines allow: the first lists, each "~" line takes away. */
function allowedByUnit(expand: (name: string) => Set<string>): Set<string> {
  const allowed = new Set<string>();
  for (const line of directives("SystemCallFilter")) {
    const deny = line.startsWith("~");
    for (const name of line.replace(/^~/, "").split(/\s+/)) {
      for (const call of expand(name)) deny ? allowed.delete(call) : allowed.add(call);
    }
  }
  return allowed;
}

const NOBODY = 65534;
describe("the unit's system-call filter", { skip: isRoot ? skipUnless("strace", "setpriv", "systemd-analyze") : (console.log("skipped: tracing as another user needs root"), "not root") }, () => {
  test("allows every call the packaged binary makes for doctor and a daemon with its plugins", async () => {
    const allowed = allowedByUnit(syscallGroups());
    // prlimit64 is in @system-service itself, not in @resources: the code plugin's prlimit works.
    assert.ok(allowed.has("openat") && !allowed.has("mount") && !allowed.has("setrlimit") && allowed.has("prlimit64"), "the filter expansion is wrong");
    const unpacked = unpack(PACKAGES.x64.tarball);
    chmodSync(unpacked, 0o755); // made 0700 by mkdtemp: the unprivileged user must reach the binary
    const dir = join(unpacked, PACKAGES.x64.folder);
    const data = join(dir, "data");
    mkdirSync(data, { mode: 0o700 });
    chownSync(data, NOBODY, NOBODY);
    const trace = join(scratch("strace"), "trace");
    // As an unprivileged user, like the service: SQLite, for one, chowns its journal only as root.
    const asService = (trace: string, ...args: string[]) => [
      "strace",
      "-f",
      "-qq",
      "-o",
      trace,
      "setpriv",
      `--reuid=${NOBODY}`,
      `--regid=${NOBODY}`,
      "--clear-groups",
      join(dir, "homed"),
      ...args,
      "-data",
      data,
    ];
    const doctor = await run(asService(`${trace}.doctor`, "doctor"), { cwd: dir });
    assert.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    const daemon = await startDaemon(asService(`${trace}.serve`, "serve", "-addr", "127.0.0.1:0"), { cwd: dir, timeoutMs: 60000 });
    const health = await fetch(`${daemon.url}/healthz`);
    assert.equal(health.status, 200);
    // The default plugins (files, notes, web_fetch, calendar) are processes of their own: let them start
    // (up to a minute, like the daemon: every process here runs under strace -f, which on a
    // loaded machine makes a start take many seconds; a plugin the filter kills fails anyway).
    let states: string[] = [];
    for (let i = 0; i < 300; i++) {
      const plugins = await fetch(`${daemon.url}/api/plugins`, { headers: { authorization: `Bearer ${readFileSync(join(data, "admin.token"), "utf8").trim()}` } });
      states = ((await plugins.json()) as { plugins: { state: string }[] }).plugins.map((p) => p.state);
      if (states.length >= 4 && states.every((s) => s === "running")) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    assert.deepEqual(states, ["running", "running", "running", "running"], "the default plugins did not all start");
    // strace holds SIGTERM back while it traces a command, so the signal goes to homed itself
    // (strace's child: setpriv became homed), and strace exits with homed's status.
    const tracer = daemon.child.pid!;
    const homedPid = Number(readFileSync(`/proc/${tracer}/task/${tracer}/children`, "utf8").trim().split(" ")[0]);
    assert.match(readFileSync(`/proc/${homedPid}/cmdline`, "utf8"), /homed\0serve/);
    const exited = new Promise<number | null>((resolve) => daemon.child.on("exit", (code) => resolve(code)));
    process.kill(homedPid, "SIGTERM");
    assert.equal(await exited, 0, daemon.stderr());

    const used = callsOfHomed(`${trace}.doctor`, `${trace}.serve`);
    assert.ok(used.size > 30, `only ${used.size} calls traced`);
    const denied = [...used].filter((call) => !allowed.has(call)).sort();
    assert.deepEqual(denied, [], `calls the unit's SystemCallFilter= would refuse (EPERM): ${denied.join(", ")}`);
  });

  test("allows the code plugin's prlimit and the Python snippet it runs (bubblewrap off, as RestrictNamespaces= leaves it)", { skip: skipUnless("prlimit", "python3") }, async () => {
    const allowed = allowedByUnit(syscallGroups());
    const unpacked = unpack(PACKAGES.x64.tarball);
    chmodSync(unpacked, 0o755);
    const dir = join(unpacked, PACKAGES.x64.folder);
    const runs = join(dir, "code-runs");
    mkdirSync(runs, { mode: 0o700 });
    chownSync(runs, NOBODY, NOBODY);
    const trace = join(scratch("strace"), "trace.code");
    const plugin = spawn("strace", ["-f", "-qq", "-o", trace, "setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", join(dir, "homed"), "plugin", "run", "code"], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOMED_PLUGIN_CONFIG: JSON.stringify({ dir: runs, sandbox: false }) },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => plugin.on("exit", (code) => resolve(code)));
    let stdout = "";
    let stderr = "";
    plugin.stderr.on("data", (d) => (stderr += d));
    const answer = (id: number) =>
      new Promise<{ result?: unknown; error?: unknown }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer ${id}; stderr:\n${stderr}`)), 60000);
        void exited.then((code) => reject(new Error(`the plugin exited (${code}) before answering ${id}; stderr:\n${stderr}`)));
        const look = () => {
          for (const line of stdout.split("\n")) {
            if (!line.trim()) continue;
            const message = JSON.parse(line) as { id?: number; result?: unknown; error?: unknown };
            if (message.id === id) {
              clearTimeout(timer);
              plugin.stdout.off("data", onData);
              return resolve(message);
            }
          }
        };
        const onData = (d: Buffer) => {
          stdout += d;
          look();
        };
        plugin.stdout.on("data", onData);
        look();
      });
    const send = (message: object) => plugin.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } } });
    assert.ok((await answer(1)).result, stderr);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "code_run", arguments: { language: "python", code: "print(6 * 7)" } } });
    const result = JSON.stringify((await answer(2)).result);
    assert.match(result, /42/, result);
    assert.doesNotMatch(result, /Operation not permitted|failed to set/, result);
    plugin.stdin.end();
    await exited;

    const used = callsOfHomed(trace);
    assert.ok(used.has("prlimit64") || used.has("setrlimit"), "prlimit set no limit");
    const denied = [...used].filter((call) => !allowed.has(call)).sort();
    assert.deepEqual(denied, [], `calls the unit's SystemCallFilter= would refuse (EPERM): ${denied.join(", ")}`);
  });
});

/**
 * The calls in strace -f logs from homed's start on (setpriv's own, capset and setresuid, are
 * not homed's), leaving out bubblewrap's process tree: doctor and the code plugin probe it,
 * and under the unit its mount and pivot_root are refused, which they report as "bubblewrap
 * cannot create its namespaces" and fall back on (src/doctor/plugin-deps.ts, plugins/code/).
 */
function callsOfHomed(...files: string[]): Set<string> {
  const used = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const start = text.search(/^\d+\s+execve\("[^"]*homed"/m);
    assert.ok(start > 0, `no execve of homed in ${file}`);
    const lines = text
      .slice(start)
      .split("\n")
      .map((line) => /^(\d+)\s+(.*)$/.exec(line))
      .filter((m) => m !== null);
    // bubblewrap's tree: the process from its execve on, and every process it or they start.
    const bwrapFrom = new Map<string, number>();
    lines.forEach(([, pid, rest], i) => {
      if (/^execve\("[^"]*\/bwrap"/.test(rest!) && !bwrapFrom.has(pid!)) bwrapFrom.set(pid!, i);
    });
    for (let grew = true; grew; ) {
      grew = false;
      lines.forEach(([, pid, rest], i) => {
        const from = bwrapFrom.get(pid!);
        const child = /\b(?:clone3?|fork|vfork)\b.*= (\d+)$/.exec(rest!)?.[1];
        if (from !== undefined && i >= from && child && !bwrapFrom.has(child)) {
          bwrapFrom.set(child, 0);
          grew = true;
        }
      });
    }
    lines.forEach(([, pid, rest], i) => {
      const from = bwrapFrom.get(pid!);
      if (from !== undefined && i >= from) return;
      const call = /^([a-z0-9_]+)\(/.exec(rest!)?.[1];
      if (call) used.add(call);
    });
  }
  return used;
}
