/**
 * `homed import [-data DIR] [--skip-invalid] [--scope user|partner:NAME|project:NAME] FILE`:
 * conversation history (JSON Lines) into cold context — by default the user's, recalled from
 * every chat (ranked first in its own conversation); `--scope` makes it private to one partner
 * or project (DESIGN §3 Scopes). The file streams through (any size, bounded memory), twice: validated, then imported;
 * a bad line aborts with its number and nothing is imported (or, with --skip-invalid, is skipped
 * and reported). A progress
 * bar on a terminal, one summary line always. A ChatGPT or Claude export's conversations.json
 * (a JSON array, told from JSON Lines by its first character) is read whole and converted as the
 * console's import converts it (memory/import-exports.ts); a bad conversation aborts the same way.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { SingleBar } from "cli-progress";
import type { ParsedArgs, Settings } from "../config/index.ts";
import { vectorEmbedder } from "../embed/index.ts";
import {
  cleanAbandonedImports,
  historyLines,
  importHistory,
  MemoryScopeSchema,
  openDataEmbedder,
  openDataStore,
  parseHistoryLine,
  parseUpload,
  privateToOf,
  type CommandIo,
  type ImportMessage,
  type InvalidLine,
} from "../memory/index.ts";
import { expectArguments, InputError, stringFlag } from "./command.ts";

/**
 * The largest export read: one is parsed whole (JSON has no lines to stream by), which holds it
 * several times over; a bigger one is refused with its size rather than running out of memory.
 */
export const EXPORT_MAX_BYTES = 512 * 1024 * 1024;

/** Whether the file is a JSON array (a chat export) rather than JSON Lines: its first character that is not a space or a byte-order mark. */
function startsAsArray(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(256);
    const read = readSync(fd, head, 0, head.length, 0);
    return /^[\uFEFF\s]*\[/.test(head.subarray(0, read).toString("utf8"));
  } finally {
    closeSync(fd);
  }
}

/** A chat export's messages, converted and checked whole; `onInvalid` for each bad conversation. */
async function exportMessages(file: string, onInvalid: (where: string, reason: string) => void): Promise<ImportMessage[]> {
  const bytes = statSync(file).size;
  if (bytes > EXPORT_MAX_BYTES) throw new InputError(`Cannot import ${file}: ${bytes} bytes, over the ${EXPORT_MAX_BYTES} an export may have (nothing was imported)`);
  const { messages, invalid } = parseUpload(await readFile(file, "utf8"));
  for (const bad of invalid) onInvalid(bad.where, bad.reason);
  return messages;
}

export async function runImportCommand(rest: readonly string[], args: ParsedArgs, settings: Settings, io: CommandIo): Promise<number> {
  expectArguments(rest, 1, "homed import [-data DIR] [--skip-invalid] [--scope user|partner:NAME|project:NAME] FILE");
  const file = rest[0]!;
  const scope = MemoryScopeSchema.safeParse(stringFlag(args, "scope") ?? "user");
  if (!scope.success) throw new InputError(`Cannot import ${file}: ${scope.error.issues[0]!.message} (nothing was imported)`);
  const privateTo = privateToOf(scope.data);
  const started = performance.now();
  try {
    closeSync(openSync(file, "r"));
  } catch (error) {
    throw new InputError(`Cannot import ${file}: ${(error as Error).message}`, { cause: error });
  }
  const skipInvalid = args.flags.has("skip-invalid");
  let skipped = 0;
  const onBad = (where: string, reason: string) => {
    if (!skipInvalid) {
      throw new InputError(`Cannot import ${file}: ${where}: ${reason} (nothing was imported; --skip-invalid skips bad lines)`);
    }
    skipped++;
    io.stderr(`skipped ${where}: ${reason}\n`);
  };
  const onInvalid = (bad: InvalidLine) => onBad(`line ${bad.line}`, bad.reason);
  let total = 0;
  let messages: () => AsyncIterable<ImportMessage> | Iterable<ImportMessage>;
  if (startsAsArray(file)) {
    const converted = (await exportMessages(file, onBad)).map((m) => ({ ...m, privateTo }));
    total = converted.length;
    messages = () => converted;
  } else {
    // A first pass validates every line before anything is opened or written: a bad line at the
    // end of a big file is reported in seconds, and counted messages size the progress bar. (An id
    // read twice needs what was read before, so it is found while importing, and rolled back.)
    for await (const read of historyLines(file)) {
      const parsed = parseHistoryLine(read);
      if ("invalid" in parsed) onInvalid(parsed.invalid);
      else total++;
    }
    messages = async function* () {
      for await (const read of historyLines(file)) {
        const parsed = parseHistoryLine(read);
        if ("message" in parsed) yield { ...parsed.message, privateTo, line: read.line };
      }
    };
  }

  const store = await openDataStore(settings, io.stderr);
  const active = await openDataEmbedder(settings);
  const embedder = vectorEmbedder(active);
  const bar = io.isTty ? new SingleBar({ format: "importing [{bar}] {value}/{total} messages", hideCursor: true }) : undefined;
  let barShown = false;
  try {
    await cleanAbandonedImports(store.client);
    const result = await importHistory(store.client, messages(), {
      embedder,
      total,
      onInvalid,
      log: (line) => io.stderr(`${line}\n`),
      onProgress: (done, total) => {
        if (!bar) return;
        if (!barShown) bar.start(total, 0);
        barShown = true;
        bar.update(done);
      },
    });
    if (barShown) bar?.stop();
    barShown = false;
    const seconds = (performance.now() - started) / 1000;
    const vectors = embedder ? `vectors by ${embedder.modelId}` : "no vectors until an embedding model is configured";
    io.stdout(
      `imported ${file} (${scope.data === "user" ? "user-wide: every chat" : `private to ${scope.data}`}): ${result.added} added, ${result.present} already present, ${skipped} invalid skipped ` +
        `(${vectors}; ${seconds.toFixed(1)} s)\n`,
    );
    return 0;
  } finally {
    if (barShown) bar?.stop();
    await active.embedder.close?.();
    store.close();
  }
}
