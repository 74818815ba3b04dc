/**
 * `/api/memory`: what the console's memory page needs — totals per layer, the embedder in use
 * and the storage size; search across layers with filters; and delete, which is immediate,
 * complete (event, blocks, search rows) and written to the log as an audit line.
 */
import type { Client, InValue } from "@libsql/client";
import { Hono } from "hono";
import { z } from "zod";
import type { Embedder } from "../embed/index.ts";
import type { Logger } from "../log/index.ts";
import { HomedError } from "../errors/index.ts";
import { coldcontextQuery, forgetRecord, openRecord, recallQuery, stableQuery, type RecallQuery } from "../memory/index.ts";

const SearchSchema = z.object({
  q: z.string().max(2000).default(""),
  layer: z.enum(["all", "L1", "L2", "L3"]).default("all"),
  scope: z.enum(["user", "conversation", "project"]).optional(),
  conversation: z.string().max(500).optional(),
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
  /** Where it came from: the session and the original message id (events), or the source event and verbatim excerpt (triples). */
  provenance: Record<string, unknown>;
  score?: number;
  channels?: string[];
};

const EVENT_COLUMNS = "id, layer, text, time, conversation, scope, session_id, speaker, role, source_id, tokens, access_count";

function eventRecord(r: Record<string, unknown>, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    kind: "event",
    id: String(r.id),
    layer: String(r.layer),
    text: String(r.text),
    time: Number(r.time),
    conversation: String(r.conversation),
    scope: String(r.scope),
    provenance: { session: r.session_id, speaker: r.speaker, role: r.role, sourceId: r.source_id, tokens: Number(r.tokens), accessCount: Number(r.access_count) },
    ...extra,
  };
}

/** Ranked matches (by recall's own score) and plainly listed ones (newest first), per source. */
type Found = { ranked: MemoryRecord[]; listed: MemoryRecord[] };

async function searchEvents(client: Client, s: Search, asked: RecallQuery, embedder: Embedder | undefined): Promise<Found> {
  const ranked: MemoryRecord[] = [];
  // Cold context is searched the way recall searches it, so what you see is what the model would get.
  if (s.q && (s.layer === "all" || s.layer === "L2")) {
    const found = await coldcontextQuery(client, asked, { k: s.limit, conversation: s.conversation, embedder });
    const ids = found.map((f) => f.id);
    const rows = ids.length ? await client.execute({ sql: `SELECT ${EVENT_COLUMNS} FROM events WHERE id IN (${ids.map(() => "?").join(", ")})`, args: ids }) : { rows: [] };
    const byId = new Map(rows.rows.map((r) => [String(r.id), r as Record<string, unknown>]));
    for (const f of found) {
      const row = byId.get(f.id);
      if (row && (!s.scope || row.scope === s.scope)) ranked.push(eventRecord(row, { score: f.score, channels: Object.keys(f.channels) }));
    }
  }
  if (s.layer === "L2" && s.q) return { ranked, listed: [] };
  const where: string[] = [];
  const args: InValue[] = [];
  if (s.layer !== "all") where.push("layer = ?"), args.push(s.layer);
  else if (s.q) where.push("layer <> 'L2'"); // L2 matches came ranked above
  if (s.q) where.push("instr(lower(text), lower(?)) > 0"), args.push(s.q);
  if (s.scope) where.push("scope = ?"), args.push(s.scope);
  if (s.conversation) where.push("conversation = ?"), args.push(s.conversation);
  const rows = await client.execute({
    sql: `SELECT ${EVENT_COLUMNS} FROM events ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY time DESC, seq DESC LIMIT ?`,
    args: [...args, s.limit],
  });
  return { ranked, listed: rows.rows.map((r) => eventRecord(r as Record<string, unknown>)) };
}

const FACT_COLUMNS = `SELECT t.id, t.predicate, t.kind, t.scope, t.confidence, t.revision, t.evidence, t.source_session, t.source_event_id, t.excerpt,
    t.updated_at, s.content AS subject, o.content AS object
  FROM triples t JOIN blocks s ON s.id = t.subject_block_id JOIN blocks o ON o.id = t.object_block_id`;

/**
 * The console's scope filter on facts: a fact's scope is "user" or the key of the conversation
 * it belongs to, so "conversation" means any conversation's (and no fact is project-wide).
 */
function factScope(scope: Search["scope"]): { sql: string; args: InValue[] } | undefined {
  if (!scope) return undefined;
  if (scope === "conversation") return { sql: "t.scope NOT IN ('user', 'project')", args: [] };
  return { sql: "t.scope = ?", args: [scope] };
}

function factRecord(r: Record<string, unknown>, extra: Partial<MemoryRecord> = {}): MemoryRecord {
  return {
    kind: "fact",
    id: String(r.id),
    layer: "L3",
    text: `${r.subject} ${r.predicate} ${r.object}`,
    time: Number(r.updated_at),
    conversation: null,
    scope: String(r.scope),
    provenance: {
      kind: r.kind, evidence: r.evidence, confidence: Number(r.confidence), revision: Number(r.revision),
      session: r.source_session, sourceEventId: r.source_event_id, excerpt: r.excerpt,
    },
    ...extra,
  };
}

async function searchTriples(client: Client, s: Search, asked: RecallQuery, embedder: Embedder | undefined): Promise<Found> {
  if (s.layer !== "all" && s.layer !== "L3") return { ranked: [], listed: [] };
  const scope = factScope(s.scope);
  if (s.q) {
    // Facts are ranked the way recall ranks them (words, grams and vectors fused), in the same
    // conversation scope, so the console shows what the model would be given for this query.
    const found = await stableQuery(client, asked, { k: s.limit, conversation: s.conversation, embedder });
    if (found.length === 0) return { ranked: [], listed: [] };
    const rows = await client.execute({
      sql: `${FACT_COLUMNS} WHERE t.id IN (${found.map(() => "?").join(", ")}) ${scope ? `AND ${scope.sql}` : ""}`,
      args: [...found.map((f) => f.id), ...(scope?.args ?? [])],
    });
    const byId = new Map(rows.rows.map((r) => [String(r.id), r as Record<string, unknown>]));
    const ranked = found.flatMap((f) => (byId.has(f.id) ? [factRecord(byId.get(f.id)!, { score: f.score, channels: f.channels })] : []));
    return { ranked, listed: [] };
  }
  const where: string[] = [];
  const args: InValue[] = [];
  if (scope) where.push(scope.sql), args.push(...scope.args);
  if (s.conversation) where.push("t.scope IN (?, 'user')"), args.push(s.conversation);
  const rows = await client.execute({
    sql: `${FACT_COLUMNS} ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY t.updated_at DESC LIMIT ?`,
    args: [...args, s.limit],
  });
  return { ranked: [], listed: rows.rows.map((r) => factRecord(r as Record<string, unknown>)) };
}

/**
 * One list: ranked matches first, best score first across layers (L2 and L3 scores are both
 * RRF sums, as memory_recall merges them), then the plainly listed ones, newest first.
 */
async function search(client: Client, s: Search, embedder: Embedder | undefined): Promise<MemoryRecord[]> {
  // Both layers are asked with one query: its terms and embedding are made once (and only if used).
  const asked = recallQuery(s.q ?? "");
  const [events, facts] = await Promise.all([searchEvents(client, s, asked, embedder), searchTriples(client, s, asked, embedder)]);
  const ranked = [...events.ranked, ...facts.ranked].sort((a, b) => b.score! - a.score!);
  const listed = [...events.listed, ...facts.listed].sort((a, b) => b.time - a.time);
  return [...ranked, ...listed].slice(0, s.limit);
}

async function stats(client: Client, embedder: Embedder) {
  const layers = await client.execute("SELECT layer, COUNT(*) AS n, COALESCE(SUM(tokens), 0) AS tokens, COALESCE(SUM(length(text)), 0) AS chars FROM events GROUP BY layer");
  const triples = await client.execute("SELECT COUNT(*) AS n FROM triples");
  const pages = await client.execute("SELECT (SELECT page_count FROM pragma_page_count()) * (SELECT page_size FROM pragma_page_size()) AS bytes");
  // When each memory was written, by the layer it is in now: the growth chart's data.
  const growth = await client.execute(
    "SELECT layer, date(created_at / 1000, 'unixepoch') AS day, COUNT(*) AS n FROM events GROUP BY layer, day ORDER BY day",
  );
  const totals: Record<string, { events: number; tokens: number; chars: number }> = { L1: { events: 0, tokens: 0, chars: 0 }, L2: { events: 0, tokens: 0, chars: 0 }, L3: { events: 0, tokens: 0, chars: 0 } };
  for (const r of layers.rows) totals[String(r.layer)] = { events: Number(r.n), tokens: Number(r.tokens), chars: Number(r.chars) };
  return {
    layers: totals,
    triples: Number(triples.rows[0]!.n),
    embedder: { modelId: embedder.modelId, dimension: embedder.dimension },
    storageBytes: Number(pages.rows[0]!.bytes),
    growth: growth.rows.map((r) => ({ layer: String(r.layer), day: String(r.day), n: Number(r.n) })),
  };
}

/** `embedder` is the one in use (shown in stats); `recallEmbedder` the one recall searches with (none with the fallback). */
export function memoryRoutes(client: Client, embedder: Embedder, recallEmbedder: Embedder | undefined, log: Pick<Logger, "info">): Hono {
  const app = new Hono();
  app.get("/stats", async (c) => c.json(await stats(client, embedder)));

  app.get("/search", async (c) => {
    const parsed = SearchSchema.safeParse(c.req.query());
    if (!parsed.success) throw new HomedError("invalid_request", `${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
    const s = parsed.data;
    return c.json({ records: await search(client, s, recallEmbedder) });
  });

  /**
   * The record with exactly this id: openRecord also takes suffixes, and the console deletes by
   * full id only (a suffix that happened to match another record must not). openRecord's own
   * RecordError (`not_found`, `ambiguous`) goes through to the error table as it is.
   */
  const exactRecord = async (id: string) => {
    const record = await openRecord(client, id);
    if (record.id !== id) throw new HomedError("not_found", `No memory with id ${id}`);
    return record;
  };

  app.get("/records/:id", async (c) => c.json(await exactRecord(c.req.param("id"))));

  app.delete("/records/:id", async (c) => {
    const before = await exactRecord(c.req.param("id"));
    await forgetRecord(client, before.id);
    const where = before.kind === "event" ? `layer ${before.layer}, conversation ${before.conversation}, session ${before.session}, ${before.text.length} chars` : `layer L3 fact, revision ${before.revision}`;
    log.info(`audit: console deleted memory ${before.id} (${where})`);
    return c.body(null, 204);
  });
  return app;
}
