/**
 * The `homed` command line: daemon by default, plus the commands in src/cli/commands/. Each
 * command's implementation is imported only when that command runs: a plugin process
 * (`homed plugin run files`) must not pay for loading the daemon, the embedder and the console
 * (measured: 0.72 s and 158 MB of RSS per plugin process with eager imports, against 0.17 s and
 * 64 MB).
 */
import { writeSync } from "node:fs";
import { allFlags, COMMANDS } from "./cli/index.ts";
import { parseArgs, resolveSettings, UsageError, type CommandIo } from "./config/index.ts";
import { exitCodeOf } from "./errors/index.ts";
// Directly, not through runtime/index.ts: a plugin process must not load the server to get it.
import { usePrivateFileModes } from "./runtime/file-modes.ts";

// Synchronous writes: process.exit follows, and a batch of results must reach a pipe whole.
const io: CommandIo = {
  stdout: (text) => writeSync(1, text),
  stderr: (text) => writeSync(2, text),
  isTty: Boolean(process.stderr.isTTY),
  stdin: process.stdin,
};

const commandNamed = (name: string) => COMMANDS.find((c) => c.name === name);

export async function main(argv: readonly string[]): Promise<number> {
  // Before anything can create a file: whatever homed creates is owner-only (0600 files, 0700
  // folders), the database's WAL and SHM included (src/runtime/file-modes.ts).
  usePrivateFileModes();
  try {
    const args = parseArgs(argv, allFlags(COMMANDS));
    const [name = "serve", ...rest] = args.positionals;
    const help = commandNamed("help")!;
    const settings = () => resolveSettings(args, process.env);
    // `homed --help`, `homed COMMAND --help`: the help command, about that command.
    if (args.flags.has("help")) return await help.run({ args, rest: args.positionals.length ? [name] : [], settings }, io);
    if (args.flags.has("version")) return await commandNamed("version")!.run({ args, rest: [], settings }, io);
    const command = commandNamed(name);
    if (!command) throw new UsageError(`unknown command "${name}" (see homed --help)`);
    if (rest.length > 0 && !command.takesArguments) throw new UsageError(`unexpected argument "${rest[0]}" for ${name}`);
    return await command.run({ args, rest, settings }, io);
  } catch (error) {
    // One clear line for the person at the terminal; the stack only for real bugs.
    const known = error instanceof Error && "code" in error && typeof error.code === "string";
    io.stderr(`homed: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
    return exitCodeOf(error);
  }
}

if (import.meta.main) {
  process.exit(await main(process.argv.slice(2)));
}
