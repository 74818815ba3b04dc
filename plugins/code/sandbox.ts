/**
 * How a snippet is started: inside bubblewrap when the machine has it — a fresh root holding
 * only the system's program folders (read-only), the interpreter's own folder and the run's
 * folder as /sandbox; no network, its own PID namespace (killing it kills all it started),
 * uid 65534 — else directly, in its folder with a cleared environment, with tighter limits.
 * Either way `prlimit` sets CPU time, address space, file size and open files.
 */
import { accessSync, constants, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { RUNTIME, type RuntimeName } from "../../src/runtime/index.ts";

export const BWRAP_CANDIDATES = ["/usr/bin/bwrap", "/usr/local/bin/bwrap"];
export const BWRAP_HINT = "install bubblewrap (Debian/Ubuntu: apt install bubblewrap)";

export type Language = "python" | "javascript";
export type Limits = { cpuSeconds: number; memoryMb: number; maxFileBytes: number };
export type Interpreter = {
  runtime: "python" | "node" | RuntimeName;
  path: string;
  /** What it needs besides /usr (a pyenv or nvm folder; homed's own binary): bound read-only. */
  prefix?: string;
};

export function findExecutable(candidates: readonly string[]): string | undefined {
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * bubblewrap, if installed and able to make its namespaces here (a container may forbid
 * them): tried once with the same isolation the snippets get.
 */
export function usableBwrap(candidates: readonly string[] = BWRAP_CANDIDATES): string | undefined {
  const bwrap = findExecutable(candidates);
  if (!bwrap) return undefined;
  try {
    execFileSync(bwrap, ["--unshare-all", "--die-with-parent", "--uid", "65534", "--gid", "65534", "--ro-bind", "/", "/", "true"], { timeout: 10_000, stdio: "ignore" });
    return bwrap;
  } catch {
    return undefined;
  }
}

/** The interpreter's real path and install folder, asked of the interpreter itself (a shim resolves here). */
export function resolveInterpreter(language: Language, command: string): Interpreter {
  const probe = language === "python" ? [command, "-c", "import sys; print(sys.executable); print(sys.base_prefix)"] : [command, "-e", "console.log(process.execPath)"];
  let out: string;
  try {
    out = execFileSync(probe[0]!, probe.slice(1), { encoding: "utf8", timeout: 10_000, stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    throw new Error(`no ${language} interpreter (${command} did not run)`);
  }
  const [path, prefix] = out.trim().split("\n");
  if (!path) throw new Error(`no ${language} interpreter (${command} did not say where it is)`);
  const folder = prefix ?? path.replace(/\/bin\/[^/]+$/, "");
  const runtime = language === "python" ? "python" : "node";
  return inUsr(path) && inUsr(folder) ? { runtime, path } : { runtime, path, prefix: folder };
}

/**
 * JavaScript without Node: the runtime homed itself runs on. A compiled homed is a Bun
 * executable, which runs a script when BUN_BE_BUN=1; from source this is the bun binary, or
 * the deno binary when Deno runs homed.
 */
export function ownJavaScript(): Interpreter {
  const path = process.execPath;
  return inUsr(path) ? { runtime: RUNTIME, path } : { runtime: RUNTIME, path, prefix: path };
}

function inUsr(path: string): boolean {
  return path === "/usr" || path.startsWith("/usr/");
}

const SYSTEM = ["/usr", "/bin", "/lib", "/lib64", "/sbin", "/etc/ld.so.cache", "/etc/alternatives", "/etc/localtime"];

/** The command line that runs `script` (a file name in `runDir`) under the limits. */
export function sandboxedCommand(options: { bwrap?: string; prlimit: string; runDir: string; interpreter: Interpreter; language: Language; script: string; limits: Limits }): string[] {
  const { limits, interpreter } = options;
  // Before running a line, V8 reserves about 1 GiB of address space and Bun (JavaScriptCore)
  // about 2 GiB (measured with prlimit: node starts at 1024 MB, not 512; bun at 2048, not 1280).
  // Node's heap is capped by --max-old-space-size; the address space gets the reservation on top.
  // Deno cannot start under any address-space cap (measured: killed at start even with 32 GiB;
  // its V8 reserves a far larger sandbox), so there the memory cap is V8's heap limit alone.
  const reserved = { python: 0, node: 1024, bun: 2048, deno: undefined }[interpreter.runtime];
  const addressSpace = reserved === undefined ? [] : [`--as=${(limits.memoryMb + reserved) * 1024 * 1024}`];
  const prlimit = [options.prlimit, `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`, ...addressSpace, `--fsize=${limits.maxFileBytes}`, "--nofile=256", "--"];
  const run = {
    python: [interpreter.path, "-I", options.script],
    node: [interpreter.path, `--max-old-space-size=${limits.memoryMb}`, options.script],
    bun: ["/usr/bin/env", "BUN_BE_BUN=1", interpreter.path, options.script],
    // Every permission, as Bun and Node have: the sandbox and the limits are the fence. No
    // config (homed's deno.json is not the snippet's), never a permission prompt.
    deno: [interpreter.path, "run", "-A", "--no-config", "--no-prompt", `--v8-flags=--max-old-space-size=${limits.memoryMb}`, options.script],
  }[interpreter.runtime];
  if (!options.bwrap) return [...prlimit, ...run];
  const binds = SYSTEM.filter((p) => existsSync(p)).flatMap((p) => ["--ro-bind", p, p]);
  // After /tmp's tmpfs, which would otherwise hide an interpreter kept under /tmp.
  const own = interpreter.prefix ? ["--ro-bind", interpreter.prefix, interpreter.prefix] : [];
  return [
    options.bwrap,
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--uid",
    "65534",
    "--gid",
    "65534",
    ...binds,
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--tmpfs",
    "/tmp",
    ...own,
    "--bind",
    options.runDir,
    "/sandbox",
    "--chdir",
    "/sandbox",
    "--clearenv",
    "--setenv",
    "HOME",
    "/sandbox",
    "--setenv",
    "PATH",
    "/usr/bin:/bin",
    "--setenv",
    "LANG",
    "C.UTF-8",
    "--setenv",
    "TMPDIR",
    "/tmp",
    "--",
    ...prlimit,
    ...run,
  ];
}
