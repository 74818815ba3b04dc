/**
 * `POST /api/memory/import`: history import from the console. The body is the file itself: JSON
 * Lines (the same format as `homed import`), or a ChatGPT or Claude export's conversations.json,
 * told apart by their content (src/memory/import-exports.ts); the answer streams as SSE — `progress`
 * `{done, total}` while messages are written, then `done` `{added, present, skipped}`. As on
 * the command line, one bad line (or conversation) refuses the whole file unless `?skipInvalid=1`; `?scope=`
 * `user` (the default: every chat), `partner:NAME` or `project:NAME` as `homed import --scope`.
 */
import type { Client } from "@libsql/client";
import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { Embedder } from "../embed/index.ts";
import type { Logger } from "../log/index.ts";
import { importHistory, MemoryScopeSchema, parseUpload, privateToOf, type ImportResult } from "../memory/index.ts";
import { HomedError } from "../errors/index.ts";

/** Larger histories belong to `homed import`, which streams from disk. */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** `embedder`: the one whose vectors are stored (none with the fallback: see `vectorEmbedder`). */
/** The events `POST /api/memory/import` streams, by name. */
export type ImportEvents = { progress: { done: number; total: number }; done: ImportResult & { skipped: number }; error: { error: string; message: string } };

export function importRoutes(client: Client, embedder: Embedder | undefined, log: Pick<Logger, "info" | "error">): Hono {
  const app = new Hono();
  app.post("/", async (c) => {
    const length = Number(c.req.header("content-length") ?? 0);
    if (length > IMPORT_MAX_BYTES) throw new HomedError("too_large", `Cannot import ${length} bytes here: the limit is ${IMPORT_MAX_BYTES}; use homed import FILE`);
    const scope = MemoryScopeSchema.safeParse(c.req.query("scope") ?? "user");
    if (!scope.success) throw new HomedError("invalid_request", `Cannot import: ${scope.error.issues[0]!.message}`);
    const privateTo = privateToOf(scope.data);
    const content = await c.req.text();
    if (content.length > IMPORT_MAX_BYTES) throw new HomedError("too_large", `Cannot import this file here: the limit is ${IMPORT_MAX_BYTES} bytes; use homed import FILE`);
    const { format, messages, invalid } = parseUpload(content);
    if (invalid.length > 0 && c.req.query("skipInvalid") !== "1") {
      const first = invalid[0]!;
      const bad = format === "jsonl" ? "bad lines" : "bad conversations";
      throw new HomedError("invalid_history", `Cannot import: ${first.where}: ${first.reason} (nothing was imported; ${invalid.length} ${bad} in all)`);
    }
    if (messages.length === 0) throw new HomedError("invalid_history", "Cannot import: the file holds no messages");
    return streamSSE(c, async (stream) => {
      const send = <E extends keyof ImportEvents>(event: E, data: ImportEvents[E]) => stream.writeSSE({ event, data: JSON.stringify(data) });
      try {
        const result = await importHistory(client, privateTo ? messages.map((m) => ({ ...m, privateTo })) : messages, {
          embedder,
          log: (line) => log.info(line),
          onProgress: (done, total) => void send("progress", { done, total }),
        });
        log.info(`console import (${format}): ${result.added} added, ${result.present} already present, ${invalid.length} invalid skipped`);
        await send("done", { ...result, skipped: invalid.length });
      } catch (error) {
        log.error(`console import failed: ${(error as Error).stack ?? error}`);
        await send("error", { error: "import_failed", message: `Cannot import: ${(error as Error).message}` });
      }
    });
  });
  return app;
}
