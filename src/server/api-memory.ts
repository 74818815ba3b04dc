/**
 * `/api/memory`: what the console's memory page needs — totals per layer, the embedder in use
 * and the storage size; search across layers with filters; and delete, which is immediate,
 * complete (event, blocks, search rows) and written to the log as an audit line.
 */
import type { Client } from "@libsql/client";
import { Hono } from "hono";
import { z } from "zod";
import { imageEmbedder, type Embedder } from "../embed/index.ts";
import type { Logger } from "../log/index.ts";
import { auditBy } from "./auth.ts";
import { remembersRoutes } from "./api-remembers.ts";
import { HomedError } from "../errors/index.ts";
import { coldcontextQuery, forgetRecord, MemoryScopeSchema, openRecord, OWNER, privateToOf, recallQuery, stableQuery, type EventRecord, type FactRecord, type RecallQuery } from "../memory/index.ts";
import {
  databaseBytes,
  imageCoverage,
  vectorCoverage,
  eventsByIds,
  setEventPrivateTo,
  setFactPrivateTo,
  layerTotals,
  listEvents,
  listFacts,
  tripleCount,
  writtenPerDay,
  type EventRow,
  type FactFilter,
  type FactRow,
} from "../store/index.ts";

const SearchSchema = z.object({
  q: z.string().max(2000).default(""),
  /** `memories`: facts (L3) and cold history (L2), what a person looks for; L1 is the live conversation's raw events. */
  layer: z.enum(["all", "memories", "L1", "L2", "L3"]).default("all"),
  scope: z.enum(["user", "conversation", "project"]).optional(),
  conversation: z.string().max(500).optional(),
  /** Written (events) or last changed (facts) within these bounds, inclusive: milliseconds since the epoch. */
  since: z.coerce.number().int().min(0).optional(),
  until: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
type Search = z.output<typeof SearchSchema>;

export type MemoryRecord = {
  kind: "event" | "fact";
  id: string;
  layer: string;
  text: string;
  time: number;
  conversation: string | null;
  scope: string;
  /** Who alone may recall it (`partner:NAME` / `project:NAME`); null: every chat. */
  privateTo: string | null;
  /** Where it came from: the session and the original message id (events), or the source event and verbatim excerpt (triples). */
  provenance: Record<string, unknown>;
  score?: number;
  channels?: string[];
};

function eventRecord(r: EventRow, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    kind: "event",
    id: r.id,
    layer: r.layer,
    text: r.text,
    time: r.time,
    conversation: r.conversation,
    scope: r.scope,
    privateTo: r.privateTo,
    provenance: { session: r.sessionId, speaker: r.speaker, role: r.role, sourceId: r.sourceId, tokens: r.tokens, accessCount: r.accessCount },
    ...extra,
  };
}

/** Ranked matches (by recall's own score) and plainly listed ones (newest first), per source. */
type Found = { ranked: MemoryRecord[]; listed: MemoryRecord[] };

async function searchEvents(client: Client, s: Search, asked: RecallQuery, embedder: Embedder | undefined): Promise<Found> {
  const ranked: MemoryRecord[] = [];
  // Cold context is searched the way recall searches it, so what you see is what the model would get.
  const coldOnly = s.layer === "L2" || s.layer === "memories";
  if (s.q && (s.layer === "all" || coldOnly)) {
    const found = await coldcontextQuery(client, asked, { k: s.limit, conversation: s.conversation, embedder, since: s.since, until: s.until });
    const byId = new Map(
      (
        await eventsByIds(
          client,
          found.map((f) => f.id),
        )
      ).map((r) => [r.id, r]),
    );
    for (const f of found) {
      const row = byId.get(f.id);
      if (row && (!s.scope || row.scope === s.scope)) ranked.push(eventRecord(row, { score: f.score, channels: Object.keys(f.channels) }));
    }
  }
  if (coldOnly && s.q) return { ranked, listed: [] };
  const listed = await listEvents(client, {
    layer: s.layer === "memories" ? "L2" : s.layer !== "all" ? s.layer : undefined,
    notLayer: s.layer === "all" && s.q ? "L2" : undefined, // L2 matches came ranked above
    containing: s.q || undefined,
    scope: s.scope,
    conversation: s.conversation || undefined,
    since: s.since,
    until: s.until,
    limit: s.limit,
  });
  return { ranked, listed: listed.map((r) => eventRecord(r)) };
}

/**
 * The console's scope filter on facts: a fact's scope is "user" or the key of the conversation
 * it belongs to, so "conversation" means any conversation's (and no fact is project-wide).
 */
function factScope(scope: Search["scope"]): FactFilter["scope"] {
  if (!scope) return undefined;
  if (scope === "conversation") return { anyConversation: true };
  return { equals: scope };
}

function factRecord(r: FactRow, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    kind: "fact",
    id: r.id,
    layer: "L3",
    text: `${r.subject} ${r.predicate} ${r.object}`,
    time: r.updatedAt,
    conversation: null,
    scope: r.scope,
    privateTo: r.privateTo,
    provenance: {
      kind: r.kind,
      evidence: r.evidence,
      confidence: r.confidence,
      revision: r.revision,
      session: r.sourceSession,
      sourceEventId: r.sourceEventId,
      excerpt: r.excerpt,
    },
    ...extra,
  };
}

async function searchTriples(client: Client, s: Search, asked: RecallQuery, embedder: Embedder | undefined): Promise<Found> {
  if (s.layer !== "all" && s.layer !== "L3" && s.layer !== "memories") return { ranked: [], listed: [] };
  const scope = factScope(s.scope);
  if (s.q) {
    // Facts are ranked the way recall ranks them (words, grams and vectors fused), in the same
    // conversation scope, so the console shows what the model would be given for this query.
    const found = await stableQuery(client, asked, { k: s.limit, conversation: s.conversation, embedder });
    if (found.length === 0) return { ranked: [], listed: [] };
    const byId = new Map((await listFacts(client, { ids: found.map((f) => f.id), scope, since: s.since, until: s.until })).map((r) => [r.id, r]));
    const ranked = found.flatMap((f) => (byId.has(f.id) ? [factRecord(byId.get(f.id)!, { score: f.score, channels: f.channels })] : []));
    return { ranked, listed: [] };
  }
  const listed = await listFacts(client, { scope, visibleFrom: s.conversation || undefined, since: s.since, until: s.until, limit: s.limit });
  return { ranked: [], listed: listed.map((r) => factRecord(r)) };
}

/**
 * One list: ranked matches first, best score first across layers (L2 and L3 scores come from the
 * same fusion, coverage included, as memory_recall merges them), then the plainly listed ones, newest first.
 */
async function search(client: Client, s: Search, embedder: Embedder | undefined): Promise<MemoryRecord[]> {
  // Both layers are asked with one query: its terms and embedding are made once (and only if used).
  const asked = recallQuery(s.q ?? "");
  const [events, facts] = await Promise.all([searchEvents(client, s, asked, embedder), searchTriples(client, s, asked, embedder)]);
  const ranked = [...events.ranked, ...facts.ranked].sort((a, b) => b.score! - a.score!);
  const listed = [...events.listed, ...facts.listed].sort((a, b) => b.time - a.time);
  return [...ranked, ...listed].slice(0, s.limit);
}

/**
 * The embedder card: the model, its width, whether recall searches its vectors (not with the
 * fallback) and its coverage — how many memories carry its vectors; after a switch of model the
 * rest are being re-embedded in the background, so coverage is the backfill's progress.
 */
/** Photos' own vector space (Chinese-CLIP beside a text-only model): how many image blocks carry its vectors. */
type ImageSpaceStats = { modelId: string; dimension: number; embedded: number; images: number };

async function embedderStats(client: Client, embedder: Embedder, recallEmbedder: Embedder | undefined) {
  const coverage = recallEmbedder ? await vectorCoverage(client, recallEmbedder.modelId) : { embedded: 0, events: 0 };
  // Images in their own model's space (Chinese-CLIP beside a text-only model): its own coverage.
  const images = recallEmbedder ? imageEmbedder(recallEmbedder) : undefined;
  const imageSpace: ImageSpaceStats | undefined =
    images && images !== recallEmbedder ? { modelId: images.modelId, dimension: images.dimension, ...(await imageCoverage(client, images.modelId)) } : undefined;
  return { modelId: embedder.modelId, dimension: embedder.dimension, vectors: recallEmbedder !== undefined, ...coverage, images: imageSpace };
}

async function stats(client: Client, embedder: Embedder, recallEmbedder: Embedder | undefined) {
  const totals: Record<string, { events: number; tokens: number; chars: number }> = {
    L1: { events: 0, tokens: 0, chars: 0 },
    L2: { events: 0, tokens: 0, chars: 0 },
    L3: { events: 0, tokens: 0, chars: 0 },
  };
  for (const r of await layerTotals(client)) totals[r.layer] = { events: r.events, tokens: r.tokens, chars: r.chars };
  return {
    layers: totals,
    triples: await tripleCount(client),
    embedder: await embedderStats(client, embedder, recallEmbedder),
    storageBytes: await databaseBytes(client),
    // When each memory was written, by the layer it is in now: the growth chart's data.
    growth: (await writtenPerDay(client)).map((r) => ({ layer: r.layer, day: r.day, n: r.n })),
  };
}

/** The memory page's answers: `GET /stats`, `GET /search`, `GET /records/:id` (the embedder form's: api-embedder.ts). */
export type MemoryStats = Awaited<ReturnType<typeof stats>>;
export type SearchAnswer = { records: MemoryRecord[] };
export type RecordAnswer = FactRecord | EventRecord;

/** `embedder` is the one in use (shown in stats); `recallEmbedder` the one recall searches with (none with the fallback). */
export function memoryRoutes(client: Client, embedder: Embedder, recallEmbedder: Embedder | undefined, log: Pick<Logger, "info" | "audit">): Hono {
  const app = new Hono();
  // What homed remembers, in people's words: facts with their sources, corrections, recall explained.
  app.route("/", remembersRoutes(client, recallEmbedder, log));
  app.get("/stats", async (c) => c.json(await stats(client, embedder, recallEmbedder)));

  app.get("/search", async (c) => {
    const parsed = SearchSchema.safeParse(c.req.query());
    if (!parsed.success) throw new HomedError("invalid_request", `${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
    const s = parsed.data;
    return c.json<SearchAnswer>({ records: await search(client, s, recallEmbedder) });
  });

  /**
   * The record with exactly this id: openRecord also takes suffixes, and the console deletes by
   * full id only (a suffix that happened to match another record must not). openRecord's own
   * RecordError (`not_found`, `ambiguous`) goes through to the error table as it is.
   */
  const exactRecord = async (id: string) => {
    const record = await openRecord(client, id, OWNER);
    if (record.id !== id) throw new HomedError("not_found", `No memory with id ${id}`);
    return record;
  };

  app.get("/records/:id", async (c) => c.json<RecordAnswer>(await exactRecord(c.req.param("id"))));

  app.delete("/records/:id", async (c) => {
    const before = await exactRecord(c.req.param("id"));
    await forgetRecord(client, before.id, OWNER);
    const where =
      before.kind === "event" ? `layer ${before.layer}, conversation ${before.conversation}, session ${before.session}, ${before.text.length} chars` : `layer L3 fact, revision ${before.revision}`;
    log.audit({ event: "memory_deleted", ...auditBy(c), outcome: "ok", detail: `console deleted memory ${before.id} (${where})` });
    return c.body(null, 204);
  });

  /** Changes who may recall a memory: `{"scope": "user" | "partner:NAME" | "project:NAME"}` (DESIGN §3 Scopes). */
  app.patch("/records/:id", async (c) => {
    const body = z.object({ scope: MemoryScopeSchema }).safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) throw new HomedError("invalid_request", `scope: ${body.error.issues[0]!.message}`);
    const before = await exactRecord(c.req.param("id"));
    await (before.kind === "event" ? setEventPrivateTo : setFactPrivateTo)(client, before.id, privateToOf(body.data.scope));
    log.audit({ event: "memory_scope_set", ...auditBy(c), outcome: "ok", detail: `console set memory ${before.id} to scope ${body.data.scope}` });
    return c.json({ id: before.id, scope: body.data.scope });
  });
  return app;
}
