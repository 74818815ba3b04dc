/**
 * The memory tools: one definition each (a zod schema for the arguments and what it does),
 * served to the model as tool calls, over the API, from the CLI (`homed memory …`) and as an
 * MCP server (`homed mcp`). The shape matches the plugin SDK's tool definitions.
 */
import type { Client } from "@libsql/client";
import { z } from "zod";
import type { Embedder } from "../embed/index.ts";
import { DEFAULT_INJECTION } from "./injection-config.ts";
import { EVIDENCE_MARKS, listInjections } from "./injection.ts";
import { coldcontextQuery } from "./query.ts";
import { recallQuery } from "./recall-query.ts";
import { forgetRecord, openRecord } from "./records.ts";
import { factText, maskFactSecrets, TRIPLE_KINDS, writeFact } from "./stable-facts.ts";
import { describeMasked } from "../text/index.ts";
import { stableQuery } from "./stable-query.ts";
import { MemoryScopeSchema, privateToOf, viewerFilter, type Viewer } from "./scope.ts";

export type MemoryToolContext = {
  client: Client;
  embedder?: Embedder;
  /** The caller's conversation, when it has one: lists and explicit filters stay within it. */
  conversation?: string;
  /**
   * A chat's partner: recall searches all of the user's memory, this conversation's first, and
   * never what is private to another partner (DESIGN §3 Scopes).
   */
  partner?: string;
  /**
   * In a chat turn: moves cold events of the chat's session (whole turns) back into its context,
   * making room under the turn's budget (`restore: true`). Absent elsewhere: there is no chat
   * context to move them into.
   */
  restore?: (ids: readonly string[]) => Promise<{ restored: string[]; skipped: { id: string; reason: string }[] }>;
  /** Where a tool logs what it did not store (a masked secret's kinds, never its value). */
  log?: (line: string) => void;
};

export type MemoryTool<S extends z.ZodType = z.ZodType> = {
  name: string;
  description: string;
  input: S;
  run: (args: z.infer<S>, context: MemoryToolContext) => Promise<Record<string, unknown>>;
};

const tool = <S extends z.ZodType>(t: MemoryTool<S>) => t as unknown as MemoryTool;

async function count(client: Client, sql: string): Promise<Record<string, number>> {
  const rows = await client.execute(sql);
  return Object.fromEntries(rows.rows.map((r) => [String(r.k), Number(r.n)]));
}

/**
 * An ISO 8601 date or time, as milliseconds. Checked by parsing rather than by zod's ISO
 * patterns: those become a regular expression of some 900 tokens in the JSON Schema sent to the
 * model with every request.
 */
const Time = z
  .string()
  .max(40)
  .refine((t) => !Number.isNaN(Date.parse(t)), { message: "not a time: use ISO 8601, e.g. 2025-05-01 or 2025-05-01T09:00:00Z" })
  .transform((t) => Date.parse(t));

/** `restore: true` moves cold events back into the calling chat's context; only a chat has one. */
async function restoreIn(ctx: MemoryToolContext, ids: string[]) {
  if (!ctx.restore) throw new MemoryToolError("invalid_arguments", "restore: true moves memories back into a chat's context, and this call comes from no chat (CLI, HTTP or MCP)");
  return await ctx.restore(ids);
}

const recall = tool({
  name: "memory_recall",
  description:
    "Search long-term memory (cold context L2 and stable facts L3) without changing anything. Returns ranked memories with ids. With restore: true, the cold events found (from this chat) come back into the conversation as their original messages.",
  input: z
    .object({
      query: z.string().min(1).max(2000),
      layers: z.array(z.enum(["L2", "L3"])).min(1).max(2).optional().describe("Layers to search (default both)"),
      limit: z.number().int().min(1).max(50).optional().describe("How many results (default 8)"),
      k: z.number().int().min(1).max(50).optional().describe("Alias of limit"),
      scope: MemoryScopeSchema.optional().describe('Also search memory private to this partner or project ("partner:NAME", "project:NAME"); "user": only the user\'s shared memory'),
      since: Time.optional().describe("Cold events at or after this time (ISO 8601)"),
      until: Time.optional().describe("Cold events at or before this time (ISO 8601)"),
      conversation: z.string().max(200).optional(),
      restore: z.boolean().default(false),
    })
    .refine((a) => a.limit === undefined || a.k === undefined || a.limit === a.k, { message: "give limit or its alias k, not both with different values" }),
  async run(args, ctx) {
    const { query, conversation } = args;
    const limit = args.limit ?? args.k ?? 8;
    const layers = new Set(args.layers ?? ["L2", "L3"]);
    const asked = recallQuery(query);
    const viewer = viewerOf(args.scope, ctx.partner);
    // An explicit conversation filters; in a chat, everything the chat's partner may see.
    const chat = conversation === undefined && ctx.partner !== undefined;
    const scope = chat
      ? { viewer, prefer: { conversation: ctx.conversation ?? ctx.partner!, boost: DEFAULT_INJECTION.conversationBoost } }
      : { conversation: conversation ?? ctx.conversation, ...(viewer ? { viewer } : {}) };
    const time = { ...(args.since !== undefined ? { since: args.since } : {}), ...(args.until !== undefined ? { until: args.until } : {}) };
    const [cold, stable] = await Promise.all([
      layers.has("L2") ? coldcontextQuery(ctx.client, asked, { k: limit, ...scope, ...time, embedder: ctx.embedder }) : [],
      layers.has("L3") ? stableQuery(ctx.client, asked, { k: limit, ...scope, ...time, embedder: ctx.embedder }) : [],
    ]);
    const results = [
      ...cold.map((c) => ({ id: c.id, layer: "L2", score: c.score, text: c.text, time: new Date(c.time).toISOString(), speaker: c.speaker, evidence: EVIDENCE_MARKS.verbatim, sources: c.sources })),
      ...stable.map((s) => ({ id: s.id, layer: "L3", score: s.score, text: s.text, evidence: EVIDENCE_MARKS[s.evidence] ?? s.evidence })),
    ]
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
    if (!args.restore) return { query, results };
    return { query, results, ...(await restoreIn(ctx, results.filter((r) => r.layer === "L2").map((r) => r.id))) };
  },
});

/**
 * Who a recall sees. In a chat, the chat's partner (and a project named by `scope`); a scope naming
 * another partner is refused there (DESIGN §3: private memory never leaves its scope). Outside a
 * chat (CLI, HTTP, MCP: the user's own tools), `scope` names whose private memory to include.
 */
function viewerOf(scope: string | undefined, partner: string | undefined): Viewer | undefined {
  const privateTo = scope === undefined ? null : privateToOf(scope);
  if (partner === undefined) {
    if (scope === undefined) return undefined;
    if (privateTo === null) return {};
    return privateTo.startsWith("partner:") ? { partner: privateTo.slice(8) } : { project: privateTo.slice(8) };
  }
  if (privateTo?.startsWith("partner:") && privateTo !== `partner:${partner}`) {
    throw new MemoryToolError("invalid_arguments", `scope ${privateTo}: this chat is with ${partner}, and another partner's private memory is never searched from it`);
  }
  return privateTo?.startsWith("project:") ? { partner, project: privateTo.slice(8) } : { partner };
}

/** Cuts a long text to `max` characters, saying so. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const open = tool({
  name: "memory_open",
  description:
    "Open one memory by id (or the 8-character id shown in memory lines): verbatim source, provenance, hash check, revision history. With restore: true, a cold event from this chat comes back into the conversation with its turn.",
  input: z.object({
    id: z.string().min(6).max(200),
    maxChars: z.number().int().min(40).max(100_000).default(4000).describe("Longest text returned per field; longer is cut with …"),
    history: z.boolean().default(true).describe("Include a fact's revision history"),
    restore: z.boolean().default(false),
  }),
  async run({ id, maxChars, history, restore }, ctx) {
    const record = await openRecord(ctx.client, id);
    let truncated = false;
    const fit = (text: string) => {
      truncated ||= text.length > maxChars;
      return cut(text, maxChars);
    };
    const shown =
      record.kind === "event"
        ? { ...record, text: fit(record.text), messages: record.text.length > maxChars ? [] : record.messages }
        : {
            ...record,
            object: fit(record.object),
            provenance: { ...record.provenance, excerpt: record.provenance.excerpt === null ? null : fit(record.provenance.excerpt) },
            ...(history ? {} : { history: undefined }),
          };
    const moved = restore ? await restoreIn(ctx, record.kind === "event" ? [record.id] : []) : undefined;
    return { record: shown, ...(truncated ? { truncated: true } : {}), ...(moved ?? {}) };
  },
});

const note = tool({
  name: "memory_note",
  description: "Write a fact into stable memory by hand (evidence: written by hand). Give subject, predicate and object, or just text.",
  // One object schema (MCP and OpenAI tools need type "object"), with either form checked.
  input: z
    .object({
      subject: z.string().min(1).max(200).optional(),
      predicate: z.string().min(1).max(100).optional(),
      object: z.string().min(1).max(2000).optional(),
      text: z.string().min(1).max(2000).optional(),
      kind: z.enum(TRIPLE_KINDS).default("entity"),
      /** `user` (every chat), `partner:NAME` or `project:NAME` (only that one's chats), or a conversation key. */
      scope: z.string().min(1).max(200).default("user"),
      importance: z.number().min(0).max(1).default(0.5),
    })
    .refine((a) => (a.text !== undefined) !== (a.subject !== undefined && a.predicate !== undefined && a.object !== undefined), {
      message: "give either text, or subject, predicate and object",
    }),
  async run(args, ctx) {
    // A private note is found by its partner's chats (their conversation key is the partner's
    // name) and, for a project, under the project's own key.
    const privateTo = MemoryScopeSchema.safeParse(args.scope).success ? privateToOf(args.scope) : null;
    const scope = privateTo?.startsWith("partner:") ? privateTo.slice("partner:".length) : args.scope;
    const given =
      args.text !== undefined
        ? { subject: "note", predicate: "says", object: args.text, kind: "convention" as const, scope, privateTo, importance: args.importance }
        : { subject: args.subject!, predicate: args.predicate!, object: args.object!, kind: args.kind, scope, privateTo, importance: args.importance };
    // Secrets are masked before the text is embedded, so not even the vector is the secret's.
    const { fact, masked } = maskFactSecrets({ ...given, confidence: 1, evidence: "manual" });
    const [vector] = ctx.embedder ? await ctx.embedder.embedTexts([factText(fact)], { purpose: "write" }) : [];
    const tx = await ctx.client.transaction("write");
    try {
      const written = await writeFact(tx, fact, Date.now(), vector && ctx.embedder ? { modelId: ctx.embedder.modelId, vector } : undefined);
      await tx.commit();
      if (masked.length > 0) ctx.log?.(`memory_note ${written.id}: secrets masked (${describeMasked(masked)})`);
      return { ...written, masked };
    } finally {
      tx.close();
    }
  },
});

const list = tool({
  name: "memory_list",
  description: "List memories of one layer (L2 cold events or L3 facts), newest first.",
  input: z.object({ layer: z.enum(["L2", "L3"]).default("L3"), conversation: z.string().max(200).optional(), limit: z.number().int().min(1).max(200).default(20), offset: z.number().int().min(0).default(0) }),
  async run({ layer, conversation, limit, offset }, ctx) {
    const scope = conversation ?? ctx.conversation;
    // In a chat, never another partner's or project's private memory, even by explicit conversation.
    const visible = (alias: string) => (ctx.partner === undefined ? { sql: "", args: [] } : viewerFilter({ partner: ctx.partner }, alias));
    const and = (alias: string) => (ctx.partner === undefined ? "" : `AND ${visible(alias).sql}`);
    if (layer === "L2") {
      const rows = await ctx.client.execute({
        sql: `SELECT id, time, speaker, text, access_count, private_to FROM events e WHERE layer = 'L2' ${scope ? "AND (conversation = ? OR scope = 'user')" : ""} ${and("e")} ORDER BY time DESC LIMIT ? OFFSET ?`,
        args: [...(scope ? [scope] : []), ...visible("e").args, limit, offset],
      });
      return { layer, items: rows.rows.map((r) => ({ id: String(r.id), time: new Date(Number(r.time)).toISOString(), speaker: r.speaker, text: String(r.text), accesses: Number(r.access_count), privateTo: r.private_to })) };
    }
    const rows = await ctx.client.execute({
      sql: `SELECT t.id, t.kind, t.scope, t.private_to, t.evidence, t.importance, t.revision, t.updated_at, s.content AS subject, t.predicate, o.content AS object
            FROM triples t JOIN blocks s ON s.id = t.subject_block_id JOIN blocks o ON o.id = t.object_block_id
            WHERE 1 ${scope ? "AND t.scope IN (?, 'user')" : ""} ${and("t")} ORDER BY t.updated_at DESC LIMIT ? OFFSET ?`,
      args: [...(scope ? [scope] : []), ...visible("t").args, limit, offset],
    });
    return {
      layer,
      items: rows.rows.map((r) => ({ id: String(r.id), text: `${r.subject} ${r.predicate} ${r.object}`, kind: r.kind, scope: r.scope, privateTo: r.private_to, evidence: EVIDENCE_MARKS[String(r.evidence)], importance: Number(r.importance), revision: Number(r.revision) })),
    };
  },
});

const forget = tool({
  name: "memory_forget",
  description: "Delete one memory for good, by id or 8-character id.",
  input: z.object({ id: z.string().min(6).max(200) }),
  run: async ({ id }, ctx) => ({ forgotten: await forgetRecord(ctx.client, id) }),
});

const injections = tool({
  name: "memory_injections",
  description: "The recall audit: what memory was injected into recent turns (query, ids, per-layer counts, size).",
  input: z.object({ limit: z.number().int().min(1).max(1000).default(20), session: z.string().max(200).optional() }),
  run: async ({ limit, session }, ctx) => ({ injections: await listInjections(ctx.client, { limit, sessionId: session }) }),
});

const stats = tool({
  name: "memory_stats",
  description: "Totals per layer, the embedder in use, and the database size.",
  input: z.object({}),
  async run(_args, ctx) {
    const pages = await ctx.client.execute("SELECT page_count * page_size AS bytes FROM pragma_page_count(), pragma_page_size()");
    return {
      events: await count(ctx.client, "SELECT layer AS k, count(*) AS n FROM events GROUP BY layer"),
      blocks: await count(ctx.client, "SELECT holder AS k, count(*) AS n FROM blocks GROUP BY holder"),
      facts: await count(ctx.client, "SELECT evidence AS k, count(*) AS n FROM triples GROUP BY evidence"),
      injections: Number((await ctx.client.execute("SELECT count(*) AS n FROM injection_audit")).rows[0]!.n),
      embedder: ctx.embedder?.modelId ?? "fallback (vector recall off)",
      databaseBytes: Number(pages.rows[0]?.bytes ?? 0),
    };
  },
});

type Check = { check: string; ok: boolean; detail: string };

const doctor = tool({
  name: "memory_doctor",
  description: "Check memory for real: open a fact and verify its evidence hash, run a recall probe on a stored memory, and report anything that could not be checked.",
  input: z.object({}),
  async run(_args, ctx) {
    const checks: Check[] = [];
    const fact = await ctx.client.execute("SELECT id FROM triples ORDER BY random() LIMIT 1");
    if (!fact.rows[0]) checks.push({ check: "fact evidence", ok: true, detail: "not checked: no facts yet" });
    else {
      const record = await openRecord(ctx.client, String(fact.rows[0].id));
      const ok = record.kind === "fact" && (record.check === "verified" || record.check === "no_excerpt");
      checks.push({ check: "fact evidence", ok, detail: `${record.id}: ${record.kind === "fact" ? record.check : "?"}` });
    }
    const event = await ctx.client.execute("SELECT id, conversation, text FROM events WHERE layer = 'L2' ORDER BY random() LIMIT 1");
    if (!event.rows[0]) checks.push({ check: "recall probe", ok: true, detail: "not checked: cold context is empty" });
    else {
      const { id, conversation, text } = event.rows[0];
      const found = await coldcontextQuery(ctx.client, String(text).slice(0, 300), { k: DEFAULT_INJECTION.k, conversation: String(conversation), embedder: ctx.embedder });
      const rank = found.findIndex((c) => c.id === id);
      checks.push({ check: "recall probe", ok: rank !== -1, detail: rank === -1 ? `${id} not found by its own text` : `${id} found at rank ${rank + 1}` });
    }
    const orphans = await ctx.client.execute("SELECT count(*) AS n FROM blocks b JOIN events e ON e.id = b.event_id WHERE b.holder <> e.layer");
    const n = Number(orphans.rows[0]!.n);
    checks.push({ check: "one holder per block", ok: n === 0, detail: n === 0 ? "every event's blocks are held by its layer" : `${n} blocks held by another layer than their event` });
    return { ok: checks.every((c) => c.ok), checks };
  },
});

export const MEMORY_TOOLS: readonly MemoryTool[] = [recall, open, note, list, forget, injections, stats, doctor];

/** Runs a tool by name with raw (unvalidated) arguments. */
export async function runMemoryTool(name: string, rawArgs: unknown, ctx: MemoryToolContext): Promise<Record<string, unknown>> {
  const t = MEMORY_TOOLS.find((m) => m.name === name || m.name === `memory_${name}`);
  if (!t) throw new MemoryToolError("unknown_tool", `No memory tool named ${name} (${MEMORY_TOOLS.map((m) => m.name).join(", ")})`);
  const args = t.input.safeParse(rawArgs ?? {});
  if (!args.success) throw new MemoryToolError("invalid_arguments", `${t.name}: ${z.prettifyError(args.error)}`);
  return await t.run(args.data, ctx);
}

export class MemoryToolError extends Error {
  constructor(
    readonly code: "unknown_tool" | "invalid_arguments",
    message: string,
  ) {
    super(message);
    this.name = "MemoryToolError";
  }
}

