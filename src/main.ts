/**
 * The `homed` command line: daemon by default, plus the other commands. Each command's module
 * is imported only when that command runs: a plugin process (`homed plugin run files`) must not
 * pay for loading the daemon, the embedder and the console (measured: 0.72 s and 158 MB of RSS
 * per plugin process with eager imports, against 0.17 s and 64 MB).
 */
import { writeSync } from "node:fs";
import { helpText, parseArgs, resolveSettings, UsageError, type ParsedArgs } from "./config/index.ts";
import { exitCodeOf } from "./errors/index.ts";
import type { CommandIo } from "./memory/index.ts";
// Directly, not through runtime/index.ts: a plugin process must not load the server to get it.
import { USER_UMASK_ENV, usePrivateFileModes, useUserUmaskFrom } from "./runtime/file-modes.ts";
import { VERSION } from "./version.ts";

/** `rest`: the words after the command name, for the commands listed in TAKES_ARGUMENTS. */
type Command = (args: ParsedArgs, rest: string[]) => Promise<number>;

const TAKES_ARGUMENTS = new Set(["context", "import", "recall", "embed", "plugin", "token", "memory"]);

// Synchronous writes: process.exit follows, and a batch of results must reach a pipe whole.
const memoryIo: CommandIo = {
  stdout: (text) => writeSync(1, text),
  stderr: (text) => writeSync(2, text),
  isTty: Boolean(process.stderr.isTTY),
};
const stdoutSync = (text: string) => writeSync(1, text);
const settingsOf = (args: ParsedArgs) => resolveSettings(args, process.env);

const COMMANDS: Record<string, Command> = {
  serve: async (args) => (await import("./daemon.ts")).runDaemon(settingsOf(args)),
  doctor: async (args) => {
    const { formatResult, runDoctor } = await import("./doctor/index.ts");
    const ok = await runDoctor(settingsOf(args), (result) => console.log(formatResult(result)));
    return ok ? 0 : 1;
  },
  version: async () => {
    console.log(`homed ${VERSION}`);
    return 0;
  },
  context: async (args, rest) =>
    (await import("./context/index.ts")).runContextCommand(rest, args.flags.get("budget"), { stdout: stdoutSync, stderr: (text) => writeSync(2, text) }),
  import: async (args, rest) => (await import("./memory/index.ts")).runImportCommand(rest, args, settingsOf(args), memoryIo),
  recall: async (args, rest) => (await import("./memory/index.ts")).runRecallCommand(rest, args, settingsOf(args), memoryIo),
  embed: async (args, rest) => (await import("./embed/index.ts")).runEmbedCommand(rest, args, settingsOf(args), memoryIo),
  plugin: async (_args, rest) => {
    // A built-in plugin working in the user's own folder gets the user's umask back (see
    // src/daemon-plugins.ts); only this command honours the variable.
    useUserUmaskFrom(process.env[USER_UMASK_ENV]);
    return (await import("../plugins/index.ts")).runPluginCommand(rest, (message) => new UsageError(message));
  },
  chat: async (args) => {
    const token = args.flags.get("token");
    const partner = args.flags.get("partner");
    return (await import("./cli/chat.ts")).runChat(
      { settings: settingsOf(args), token: typeof token === "string" ? token : process.env.HOMED_TOKEN || undefined, partner: typeof partner === "string" ? partner : undefined },
      { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), input: process.stdin },
    );
  },
  token: async (args, rest) => (await import("./server/index.ts")).runTokenCommand(rest, settingsOf(args), memoryIo),
  memory: async (args, rest) => (await import("./cli/memory.ts")).runMemoryCommand(rest, settingsOf(args), stdoutSync, (text) => writeSync(2, text)),
  mcp: async (args) => (await import("./cli/mcp.ts")).runMcpServer(settingsOf(args)),
  help: async () => {
    console.log(helpText(VERSION));
    return 0;
  },
};

export async function main(argv: readonly string[]): Promise<number> {
  // Before anything can create a file: whatever homed creates is owner-only (0600 files, 0700
  // folders), the database's WAL and SHM included (src/runtime/file-modes.ts).
  usePrivateFileModes();
  try {
    const args = parseArgs(argv);
    if (args.flags.has("help")) return await COMMANDS.help!(args, []);
    if (args.flags.has("version")) return await COMMANDS.version!(args, []);
    const [name = "serve", ...rest] = args.positionals;
    const command = COMMANDS[name];
    if (!command) throw new UsageError(`unknown command "${name}" (see homed --help)`);
    if (rest.length > 0 && !TAKES_ARGUMENTS.has(name)) throw new UsageError(`unexpected argument "${rest[0]}" for ${name}`);
    return await command(args, rest);
  } catch (error) {
    // One clear line for the person at the terminal; the stack only for real bugs.
    const known = error instanceof Error && "code" in error && typeof error.code === "string";
    console.error(`homed: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}`);
    return exitCodeOf(error);
  }
}

if (import.meta.main) {
  process.exit(await main(process.argv.slice(2)));
}
