/**
 * `homed embed [-data DIR] [-models DIR] [--image FILE] [--json] [TEXT]`: prints which embedder
 * is in use, why, and the vector, so a user can check a model folder by hand. With --json
 * stdout is one object `{"model","dim","embedder","reason","vector"}`; when the fallback stands
 * in for a broken model the reason also goes to stderr, so it is seen even when stdout is piped.
 * `homed embed --backfill` re-embeds stored memory with the embedder in use (see backfill.ts).
 */
import { readFileSync } from "node:fs";
import { announceServingDaemon, ensureWritableDir, UsageError, type CommandIo, type ParsedArgs, type Settings } from "../config/index.ts";
import { openStore } from "../store/index.ts";
import { backfillEmbeddings } from "./backfill.ts";
import { imageEmbedder } from "./embedder.ts";
import { withSavedEmbedder } from "./saved-embedder.ts";
import { openEmbedder, type ActiveEmbedder } from "./select.ts";

export type EmbedCommandIo = Pick<CommandIo, "stdout" | "stderr">;

function readImage(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`Cannot read image ${path}: ${reason}`);
  }
}

/** `--backfill`: brings stored vectors to the active model; Ctrl-C stops between batches. */
async function runBackfill(active: ActiveEmbedder, settings: Settings, json: boolean, io: EmbedCommandIo): Promise<number> {
  if (settings.dbUrl.startsWith("file:")) ensureWritableDir(settings.dataDir);
  announceServingDaemon(settings.dataDir, io.stderr);
  const store = await openStore({ url: settings.dbUrl, syncUrl: settings.dbSyncUrl, authToken: settings.dbAuthToken, onWait: (message) => io.stderr(`homed: ${message}\n`) });
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once("SIGINT", onSigint);
  try {
    io.stderr(`backfill with ${active.embedder.modelId}: ${active.reason}\n`);
    const report = await backfillEmbeddings(store.client, active.embedder, {
      signal: stop.signal,
      onProgress: (p) => io.stderr(`backfill ${p.table}: ${p.done}/${p.total} re-embedded, ${p.skipped} skipped\n`),
    });
    if (json) io.stdout(`${JSON.stringify({ model: active.embedder.modelId, ...report })}\n`);
    else {
      const parts = (["events", "blocks"] as const).map(
        (t) => `${t} ${report[t].done}/${report[t].total}${report[t].skipped ? ` (${report[t].skipped} skipped: no text, or an image it cannot read)` : ""}`,
      );
      io.stdout(`${report.stopped ? "stopped (run again to continue)" : "done"}: ${parts.join(", ")} with ${active.embedder.modelId}\n`);
    }
    return report.stopped ? 1 : 0;
  } finally {
    process.off("SIGINT", onSigint);
    store.close();
  }
}

export async function runEmbedCommand(rest: string[], args: ParsedArgs, settings: Settings, io: EmbedCommandIo): Promise<number> {
  if (args.flags.has("backfill")) {
    if (rest.length || args.flags.has("image")) throw new UsageError("homed embed --backfill takes no TEXT or --image");
    const active = await openEmbedder(withSavedEmbedder(settings.dataDir, settings.embed));
    try {
      if (active.degraded) io.stderr(`homed: ${active.reason}\n`);
      return await runBackfill(active, settings, args.flags.has("json"), io);
    } finally {
      await active.embedder.close?.();
    }
  }
  const imageFlag = args.flags.get("image");
  const imagePath = typeof imageFlag === "string" ? imageFlag : undefined;
  const text = rest.join(" ");
  if (imagePath && text) throw new UsageError("homed embed takes TEXT or --image FILE, not both");
  if (!imagePath && !text) throw new UsageError('homed embed needs TEXT or --image FILE, e.g. homed embed "我爱北京"');
  const image = imagePath ? readImage(imagePath) : undefined;

  const active = await openEmbedder(withSavedEmbedder(settings.dataDir, settings.embed));
  const { embedder } = active;
  try {
    if (active.degraded) io.stderr(`homed: ${active.reason}\n`);
    let vector: Float32Array | undefined;
    let model = embedder.modelId;
    if (image) {
      const images = imageEmbedder(embedder);
      if (!images?.embedImages) {
        io.stderr(`homed: Cannot embed an image: ${embedder.modelId} has no image encoder (${active.reason})\n`);
        return 1;
      }
      [vector] = await images.embedImages([image]);
      model = images.modelId;
    } else {
      [vector] = await embedder.embedTexts([text]);
    }
    const values = Array.from(vector!);
    if (args.flags.has("json")) {
      io.stdout(`${JSON.stringify({ model, dim: values.length, embedder: active.kind, reason: active.reason, vector: values })}\n`);
    } else {
      io.stdout(
        [
          `embedder: ${active.kind} (${model})`,
          `why:      ${active.reason}`,
          `input:    ${image ? `image ${imagePath}` : JSON.stringify(text)}`,
          `dim:      ${values.length}`,
          `vector:   [${values.map((v) => v.toFixed(6)).join(", ")}]`,
          "",
        ].join("\n"),
      );
    }
    return 0;
  } finally {
    await embedder.close?.();
  }
}
