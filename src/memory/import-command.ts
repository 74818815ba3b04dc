/**
 * `homed import [-data DIR] [--skip-invalid] FILE`: conversation history (JSON Lines) into cold
 * context. The whole file is validated before anything is written; a bad line aborts with its
 * number (or, with --skip-invalid, is skipped and reported). A progress bar on a terminal, one
 * summary line always.
 */
import { readFileSync } from "node:fs";
import { SingleBar } from "cli-progress";
import type { ParsedArgs, Settings } from "../config/index.ts";
import { vectorEmbedder } from "../embed/index.ts";
import { expectArguments, InputError, openDataEmbedder, openDataStore, type CommandIo } from "./command-io.ts";
import { importHistory } from "./import.ts";
import { parseHistory } from "./import-format.ts";

export async function runImportCommand(rest: readonly string[], args: ParsedArgs, settings: Settings, io: CommandIo): Promise<number> {
  expectArguments(rest, 1, "homed import [-data DIR] [--skip-invalid] FILE");
  const file = rest[0]!;
  const started = performance.now();
  let content: string;
  try {
    content = readFileSync(file, "utf8");
  } catch (error) {
    throw new InputError(`Cannot import ${file}: ${(error as Error).message}`, { cause: error });
  }
  const { messages, invalid } = parseHistory(content);
  if (invalid.length > 0 && !args.flags.has("skip-invalid")) {
    const first = invalid[0]!;
    throw new InputError(
      `Cannot import ${file}: line ${first.line}: ${first.reason} (nothing was imported; --skip-invalid skips bad lines)`,
    );
  }
  for (const bad of invalid) io.stderr(`skipped line ${bad.line}: ${bad.reason}\n`);

  const store = await openDataStore(settings);
  const active = await openDataEmbedder(settings);
  const embedder = vectorEmbedder(active);
  const bar = io.isTty ? new SingleBar({ format: "importing [{bar}] {value}/{total} messages", hideCursor: true }) : undefined;
  let barShown = false;
  try {
    const result = await importHistory(store.client, messages, {
      embedder,
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
      `imported ${file}: ${result.added} added, ${result.present} already present, ${invalid.length} invalid skipped ` +
        `(${vectors}; ${seconds.toFixed(1)} s)\n`,
    );
    return 0;
  } finally {
    if (barShown) bar?.stop();
    await active.embedder.close?.();
    store.close();
  }
}
