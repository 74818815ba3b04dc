/** The `homed` command line: daemon by default, plus doctor, version and help. */
import { helpText, parseArgs, resolveSettings, UsageError, type ParsedArgs } from "./config/index.ts";
import { formatResult, runDoctor } from "./doctor/index.ts";
import { runContextCommand } from "./context/index.ts";
import { runImportCommand, runRecallCommand, type CommandIo } from "./memory/index.ts";
import { writeSync } from "node:fs";
import { runDaemon } from "./daemon.ts";
import { runEmbedCommand } from "./embed/index.ts";
import { runPluginCommand } from "../plugins/index.ts";
import { VERSION } from "./version.ts";
import { runChat } from "./cli/chat.ts";
import { runMcpServer } from "./cli/mcp.ts";
import { runMemoryCommand } from "./cli/memory.ts";
import { runTokenCommand } from "./server/index.ts";

/** `rest`: the words after the command name, for the commands listed in TAKES_ARGUMENTS. */
type Command = (args: ParsedArgs, rest: string[]) => Promise<number>;

const TAKES_ARGUMENTS = new Set(["context", "import", "recall", "embed", "plugin", "token", "memory"]);

// Synchronous writes: process.exit follows, and a batch of results must reach a pipe whole.
const memoryIo: CommandIo = {
  stdout: (text) => writeSync(1, text),
  stderr: (text) => writeSync(2, text),
  isTty: Boolean(process.stderr.isTTY),
};

const COMMANDS: Record<string, Command> = {
  serve: async (args) => runDaemon(resolveSettings(args, process.env)),
  doctor: async (args) => {
    const settings = resolveSettings(args, process.env);
    const ok = await runDoctor(settings, (result) => console.log(formatResult(result)));
    return ok ? 0 : 1;
  },
  version: async () => {
    console.log(`homed ${VERSION}`);
    return 0;
  },
  // Synchronous writes: process.exit follows, and a large render must reach a pipe whole.
  context: async (args, rest) =>
    runContextCommand(rest, args.flags.get("budget"), {
      stdout: (text) => writeSync(1, text),
      stderr: (text) => writeSync(2, text),
    }),
  import: async (args, rest) => runImportCommand(rest, args, resolveSettings(args, process.env), memoryIo),
  recall: async (args, rest) => runRecallCommand(rest, args, resolveSettings(args, process.env), memoryIo),
  embed: async (args, rest) => runEmbedCommand(rest, args, resolveSettings(args, process.env), memoryIo),
  plugin: async (_args, rest) => runPluginCommand(rest, (message) => new UsageError(message)),
  chat: async (args) => {
    const token = args.flags.get("token");
    const partner = args.flags.get("partner");
    return runChat(
      { settings: resolveSettings(args, process.env), token: typeof token === "string" ? token : process.env.HOMED_TOKEN || undefined, partner: typeof partner === "string" ? partner : undefined },
      { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), input: process.stdin },
    );
  },
  token: async (args, rest) => runTokenCommand(rest, resolveSettings(args, process.env).dataDir, (text) => writeSync(1, text)),
  memory: async (args, rest) => runMemoryCommand(rest, resolveSettings(args, process.env), (t) => writeSync(1, t)),
  mcp: async (args) => runMcpServer(resolveSettings(args, process.env)),
  help: async () => {
    console.log(helpText(VERSION));
    return 0;
  },
};

export async function main(argv: readonly string[]): Promise<number> {
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
    return error instanceof UsageError ? 2 : 1;
  }
}

if (import.meta.main) {
  process.exit(await main(process.argv.slice(2)));
}
