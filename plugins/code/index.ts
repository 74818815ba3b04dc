/**
 * code: run a short Python or JavaScript snippet in a throw-away folder and return its
 * stdout, stderr, exit code and the files it wrote — under CPU, wall-clock, memory, file-size
 * and output caps, inside bubblewrap (no network, nothing of the machine but its programs)
 * when installed. Off unless homed.json enables it, like shell.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { constants as os } from "node:os";
import { definePlugin, defineTool, ToolFailure, z } from "../sdk/index.ts";
import { runProcess } from "../shell/run.ts";
import { BWRAP_HINT, findExecutable, ownJavaScript, resolveInterpreter, sandboxedCommand, usableBwrap, type Interpreter, type Language } from "./sandbox.ts";

const ConfigSchema = z.object({
  /** Where the throw-away folders are made (each removed after its run). */
  dir: z.string().min(1),
  python: z.string().min(1).default("python3"),
  javascript: z.string().min(1).default("node"),
  timeoutMs: z.number().int().positive().default(15_000),
  cpuSeconds: z.number().int().positive().default(10),
  memoryMb: z.number().int().positive().default(512),
  maxOutputBytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  maxFileBytes: z
    .number()
    .int()
    .positive()
    .default(8 * 1024 * 1024),
  /** Use bubblewrap when present (false: never, e.g. where user namespaces are off). */
  sandbox: z.boolean().default(true),
});
type Config = z.infer<typeof ConfigSchema>;

/** Without bubblewrap nothing isolates the snippet but the limits: they are halved. */
const UNSANDBOXED_SHARE = 0.5;
/** Files reported back at most, and the bytes of text shown of each. */
const MAX_FILES = 50;
const SHOWN_FILE_BYTES = 8 * 1024;
const SCRIPT = { python: "main.py", javascript: "main.js" } as const;

export const codePlugin = definePlugin({
  name: "code",
  version: "1.0.0",
  description: "Run short Python or JavaScript snippets in a sandboxed throw-away folder.",
  provides: ["code"],
  // Its snippets run in its tree, each allowed 512 MB and 10 CPU seconds, several at once.
  limits: { memoryMb: 2048, cpuSecondsPerMinute: 120 },
  config: ConfigSchema,
  tools: (config: Config) => {
    mkdirSync(config.dir, { recursive: true });
    const bwrap = config.sandbox ? usableBwrap() : undefined;
    const prlimit = findExecutable(["/usr/bin/prlimit", "/bin/prlimit"]);
    if (!prlimit) throw new Error("prlimit (util-linux) is missing: the code plugin will not run snippets without CPU and memory limits");
    const interpreters = new Map<Language, Interpreter>();
    const interpreter = (language: Language) => {
      let found = interpreters.get(language);
      if (!found) {
        try {
          found = resolveInterpreter(language, language === "python" ? config.python : config.javascript);
        } catch (error) {
          // JavaScript needs no package: homed's own runtime runs it when Node is not installed.
          if (language === "javascript") found = ownJavaScript();
          else throw new ToolFailure("no_runtime", `Cannot run ${language}: ${(error as Error).message}`);
        }
        interpreters.set(language, found);
      }
      return found;
    };
    const share = bwrap ? 1 : UNSANDBOXED_SHARE;
    const limits = {
      timeoutMs: Math.round(config.timeoutMs * share),
      cpuSeconds: Math.max(1, Math.round(config.cpuSeconds * share)),
      memoryMb: Math.round(config.memoryMb * share),
      maxFileBytes: Math.round(config.maxFileBytes * share),
    };

    return [
      defineTool({
        name: "code_run",
        description: `Run a short ${"python or javascript"} snippet in an empty throw-away folder; returns stdout, stderr, exit code and the files it wrote there. ${bwrap ? "Sandboxed: no network, no access to the machine's files." : "NOT sandboxed (bubblewrap is not installed): tighter limits."} Limits: ${limits.timeoutMs} ms wall, ${limits.cpuSeconds} s CPU, ${limits.memoryMb} MB memory.`,
        input: z.object({
          language: z.enum(["python", "javascript"]),
          code: z.string().min(1).max(100_000),
          timeoutMs: z.number().int().positive().max(limits.timeoutMs).optional().describe(`at most ${limits.timeoutMs}`),
        }),
        run: async ({ language, code, timeoutMs }, { signal }) => {
          const found = interpreter(language);
          const runDir = mkdtempSync(join(config.dir, "run-"));
          try {
            writeFileSync(join(runDir, SCRIPT[language]), code);
            const argv = sandboxedCommand({ ...(bwrap ? { bwrap } : {}), prlimit, runDir, interpreter: found, language, script: SCRIPT[language], limits });
            const env = { PATH: "/usr/bin:/bin", HOME: runDir, LANG: "C.UTF-8" };
            const result = await runProcess(argv, { cwd: runDir, timeoutMs: timeoutMs ?? limits.timeoutMs, maxOutputBytes: config.maxOutputBytes, signal, env });
            // bubblewrap passes a signal death on as 128 + the signal's number.
            const signalName = result.signal ?? (bwrap && result.exitCode !== null && result.exitCode > 128 ? signalNamed(result.exitCode - 128) : null);
            const killed = result.timedOut ? "wall_time" : signalName === "SIGXCPU" ? "cpu_time" : signalName === "SIGXFSZ" ? "file_size" : null;
            return {
              language,
              runtime: found.runtime,
              exitCode: signalName ? null : result.exitCode,
              signal: signalName,
              killed,
              stdout: result.stdout,
              stderr: result.stderr,
              outputTruncated: result.truncated,
              files: filesWritten(runDir, SCRIPT[language]),
              ms: result.ms,
              sandbox: bwrap ? "bubblewrap" : "none",
              ...(bwrap ? {} : { warning: `Ran without a sandbox (network and the machine's files were reachable), with halved limits: ${BWRAP_HINT}` }),
            };
          } finally {
            rmSync(runDir, { recursive: true, force: true });
          }
        },
      }),
    ];
  },
});

function signalNamed(number: number): string | null {
  return Object.entries(os.signals).find(([, n]) => n === number)?.[0] ?? null;
}

/** The files the snippet left in its folder (not its own script), with small text files' contents. */
function filesWritten(root: string, script: string): { path: string; bytes: number; text?: string }[] {
  const found: { path: string; bytes: number; text?: string }[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (found.length >= MAX_FILES) return;
      const path = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (path === script) continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), path);
      else if (entry.isFile()) {
        const bytes = statSync(join(dir, entry.name)).size;
        const file: { path: string; bytes: number; text?: string } = { path, bytes };
        if (bytes <= SHOWN_FILE_BYTES) {
          const content = readFileSync(join(dir, entry.name));
          const text = content.toString("utf8");
          if (!text.includes("\uFFFD") && !content.includes(0)) file.text = text;
        }
        found.push(file);
      }
    }
  };
  walk(root, "");
  return found;
}
