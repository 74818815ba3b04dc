/**
 * `/api/memory/embedder`: the console's embedder form (issue 16.5).
 * - `POST /probe`: embeds one sentence with a candidate OpenAI-compatible endpoint and reports
 *   its dimension and latency, or its refusal (nothing is saved).
 * - `GET`: the saved embedder (never its key), the one in use, and whether a restart is needed
 *   for what is saved to be used (it changed since the start), so the console can say so on every visit.
 * - `PUT {url, model, key?, dimensions?}`: probes first — an endpoint that does not answer is
 *   refused with its reason and nothing is saved — then saves it in homed.json (key sealed,
 *   src/embed/saved-embedder.ts); it is used from the next start, when the daemon re-embeds
 *   stored memory with it in the background.
 * - `DELETE`: removes the saved embedder: the next start uses the models folder or the fallback.
 *
 * Why a restart and not a live switch: the embedder is fixed when the daemon starts, in the
 * kernel's context engine, recall at injection, the memory tools, cooling, the console's routes
 * and the backfill it starts; switching them together mid-turn would let one turn write vectors
 * of one model while recall compares another's. The answer says `restartRequired`.
 */
import { Hono } from "hono";
import { z } from "zod";
import { createHttpEmbedder, EmbedError, EmbedTimeoutError, readSavedEmbedder, writeSavedEmbedder, type Embedder } from "../embed/index.ts";
import { HomedError } from "../errors/index.ts";
import { ApiKeySchema } from "../kernel/index.ts";
import type { Logger } from "../log/index.ts";
import { auditBy } from "./auth.ts";

const UrlSchema = z.string().regex(/^https?:\/\/[^\s]+$/, "expected an http:// or https:// URL");

/** A console form's candidate embedder: asked for one sentence, so the user sees it answer. */
const ProbeSchema = z.object({
  baseUrl: UrlSchema,
  model: z.string().min(1),
  apiKey: z.string().optional(),
  dimension: z.coerce.number().int().min(1).max(65536).optional(),
});

const SaveSchema = z
  .object({
    url: UrlSchema,
    model: z.string().min(1).max(200),
    key: ApiKeySchema.min(1).optional(),
    dimensions: z.number().int().min(1).max(65536).optional(),
  })
  .strict();

/** The probe's answer: the model's width and latency, or why it did not answer (a 200 either way). */
export type ProbeAnswer = { ok: true; modelId: string; dimension: number; ms: number } | { ok: false; error: string };
/**
 * What is saved (never the key), the model in use, and whether the saved choice changed since the
 * start (then it is used from the next one); `overriddenBy`: -embed-url given at start wins.
 */
export type EmbedderAnswer = {
  saved: { url: string; model: string; dimensions?: number; hasKey: boolean } | null;
  active: string;
  restartRequired: boolean;
  overriddenBy?: "-embed-url";
};
/** PUT's answer also has the probe's. */
export type SaveEmbedderAnswer = EmbedderAnswer & { probe?: Extract<ProbeAnswer, { ok: true }> };

async function probeEmbedder(input: z.output<typeof ProbeSchema>): Promise<ProbeAnswer> {
  const embedder = createHttpEmbedder({ ...input, queryBudgetMs: 15_000 });
  const started = performance.now();
  try {
    const [vector] = await embedder.embedTexts(["homed checks this embedding model"], { purpose: "query" });
    return { ok: true, modelId: embedder.modelId, dimension: vector!.length, ms: Math.round(performance.now() - started) };
  } catch (error) {
    // A refused or unreachable endpoint is the answer the user asked for, not a server error.
    if (!(error instanceof EmbedError) && !(error instanceof EmbedTimeoutError)) throw error;
    return { ok: false, error: (error as Error).message };
  }
}

/** Where the daemon's embedder came from: `-embed-url` (which wins over a saved one), homed.json, or neither. */
export type EmbedderSetup = { dataDir: string; source: "flag" | "saved" | "models" };

function parsed<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new HomedError("invalid_request", `${issue.path.join(".") || "body"}: ${issue.message}`);
}

/** `setup` absent (a daemon without a data folder, in-process tests): only the probe is served. */
export function embedderRoutes(active: Embedder, setup: EmbedderSetup | undefined, log: Pick<Logger, "info" | "audit">): Hono {
  const app = new Hono();
  app.post("/probe", async (c) => c.json(await probeEmbedder(parsed(ProbeSchema, await c.req.json().catch(() => undefined)))));
  if (!setup) return app;
  // The saved section as this process started with it: a different one is used from the next start.
  const atStart = JSON.stringify(readSavedEmbedder(setup.dataDir) ?? null);
  const answer = (): EmbedderAnswer => {
    const saved = readSavedEmbedder(setup.dataDir);
    return {
      saved: saved ? { url: saved.url, model: saved.model, dimensions: saved.dimensions, hasKey: saved.apiKey !== undefined } : null,
      active: active.modelId,
      // With -embed-url a restart changes nothing: `overriddenBy` says what to do instead.
      restartRequired: setup.source !== "flag" && JSON.stringify(saved ?? null) !== atStart,
      ...(setup.source === "flag" ? { overriddenBy: "-embed-url" as const } : {}),
    };
  };

  app.get("/", (c) => c.json<EmbedderAnswer>(answer()));

  app.put("/", async (c) => {
    const body = parsed(SaveSchema, await c.req.json().catch(() => undefined));
    const probe = await probeEmbedder({ baseUrl: body.url, model: body.model, apiKey: body.key, dimension: body.dimensions });
    if (!probe.ok) throw new HomedError("embedder_unreachable", `Cannot save the embedder: ${probe.error}`);
    writeSavedEmbedder(setup.dataDir, { url: body.url, model: body.model, dimensions: body.dimensions, apiKey: body.key });
    log.audit({
      event: "embedder_saved",
      ...auditBy(c),
      outcome: "ok",
      detail: `console saved the embedder ${probe.modelId} at ${body.url} in homed.json (${probe.dimension} dimensions; used from the next start)`,
    });
    return c.json<SaveEmbedderAnswer>({ ...answer(), probe });
  });

  app.delete("/", (c) => {
    writeSavedEmbedder(setup.dataDir, undefined);
    log.audit({ event: "embedder_removed", ...auditBy(c), outcome: "ok", detail: "console removed the saved embedder from homed.json" });
    return c.json<EmbedderAnswer>(answer());
  });
  return app;
}
