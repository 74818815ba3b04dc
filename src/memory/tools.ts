/**
 * The memory tools: one definition each (a zod schema for the arguments and what it does),
 * served to the model as tool calls, over the API, from the CLI (`homed memory …`) and as an
 * MCP server (`homed mcp`). The shape matches the plugin SDK's tool definitions.
 */
import type { Client } from "@libsql/client";
import { z } from "zod";
import type { Embedder } from "../embed/index.ts";
import { DEFAULT_INJECTION, InjectionConfigSchema, minScoreOf, type InjectionConfig } from "./injection-config.ts";
import { COOLING_JOB, DEFAULT_COOLING } from "./cooling.ts";
import { bestLexicalScore, fusionMethod, RRF_K } from "./fusion.ts";
import {
  auditedIds,
  blocksHeldElsewhere,
  coldEventPage,
  coolingBacklog,
  databaseBytes,
  duplicateFacts,
  eventWithVector,
  factPage,
  insertEventStatements,
  leaseOf,
  memoryTotals,
  nextSeq,
  randomColdEvent,
  randomFactId,
  storagePath,
  vectorCoverageByLayer,
  type HealthViewer,
} from "../store/index.ts";
import { indexEvent, mergeInBackground } from "../search/index.ts";
import { cosine } from "../embed/index.ts";
import { EVIDENCE_MARKS, listInjections } from "./injection.ts";
import { coldcontextQuery } from "./query.ts";
import { recallQuery } from "./recall-query.ts";
import { forgetRecord, openRecord } from "./records.ts";
import { factText, maskFactSecrets, TRIPLE_KINDS, writeFact } from "./stable-facts.ts";
import { describeMasked, maskSecrets } from "../text/index.ts";
import { randomUUID } from "node:crypto";
import { HomedError } from "../errors/index.ts";
import { coldEventId, coldEventStatements, coldSessionId, searchText, type ColdMessage } from "./cold-event.ts";
import { stableQuery } from "./stable-query.ts";
import { MemoryScopeSchema, privateToOf, type PrivateScope, type Viewer } from "./scope.ts";
import { maySeeMemory, partnerOf, privateScopesOf, sessionPartnersOf, type Access } from "./access.ts";

export type MemoryToolContext = {
  client: Client;
  embedder?: Embedder;
  /** The caller's conversation, when it has one: lists and explicit filters stay within it. */
  conversation?: string;
  /**
   * Who is calling (access.ts), decided by the caller's credential and never by an argument: the
   * owner (admin token, console, local CLI) or a partner (an app key's, a chat turn's). A
   * partner's recall searches all of the user's memory, its conversation's first; it never sees,
   * opens, lists, forgets or writes what is private to another partner (DESIGN §3).
   */
  access: Access;
  /**
   * In a chat turn: moves cold events of the chat's session (whole turns) back into its context,
   * making room under the turn's budget (`restore: true`). Absent elsewhere: there is no chat
   * context to move them into.
   */
  restore?: (ids: readonly string[]) => Promise<{ restored: string[]; skipped: { id: string; reason: string }[] }>;
  /** The injection thresholds in force (memory_stats, memory_doctor); the defaults when absent. */
  injection?: InjectionConfig;
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
      layers: z
        .array(z.enum(["L2", "L3"]))
        .min(1)
        .max(2)
        .optional()
        .describe("Layers to search (default both)"),
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
    const partner = partnerOf(ctx.access);
    const viewer = viewerOf(args.scope, ctx.access);
    // An explicit conversation filters; in a chat, everything the chat's partner may see.
    const chat = conversation === undefined && partner !== undefined;
    const scope = chat
      ? { viewer, prefer: { conversation: ctx.conversation ?? partner, boost: DEFAULT_INJECTION.conversationBoost } }
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
    return {
      query,
      results,
      ...(await restoreIn(
        ctx,
        results.filter((r) => r.layer === "L2").map((r) => r.id),
      )),
    };
  },
});

/**
 * Who a recall sees. A partner (a chat, an app key): itself (and a project named by `scope`); a
 * scope naming a partner it may not see is refused (DESIGN §3: private memory never leaves its
 * scope). The owner (CLI, console, admin token): `scope` names whose private memory to include.
 */
function viewerOf(scope: string | undefined, access: Access): Viewer | undefined {
  const privateTo = scope === undefined ? null : privateToOf(scope);
  const partner = partnerOf(access);
  if (partner === undefined) {
    if (scope === undefined) return undefined;
    if (privateTo === null) return {};
    return privateTo.startsWith("partner:") ? { partner: privateTo.slice(8) } : { project: privateTo.slice(8) };
  }
  if (privateTo?.startsWith("partner:") && !maySeeMemory(access, privateTo)) {
    throw new MemoryToolError("invalid_arguments", `scope ${privateTo}: this caller is ${partner}, and another partner's private memory is never searched from it`);
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
    const record = await openRecord(ctx.client, id, ctx.access);
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
  description:
    "Write a memory by hand (evidence: written by hand). Give subject, predicate and object, or just text. layer L3 (default) makes it a stable fact; L2 keeps it verbatim in cold context, like a message. title names it; tags are added to it as #words recall can find.",
  // One object schema (MCP and OpenAI tools need type "object"), with either form checked.
  input: z
    .object({
      subject: z.string().min(1).max(200).optional(),
      predicate: z.string().min(1).max(100).optional(),
      object: z.string().min(1).max(2000).optional(),
      text: z.string().min(1).max(2000).optional(),
      layer: z.enum(["L2", "L3"]).default("L3"),
      title: z.string().min(1).max(200).optional(),
      tags: z
        .array(z.string().regex(/^[^\s#]{1,40}$/, "a tag is one word of at most 40 characters, without #"))
        .max(20)
        .optional(),
      kind: z.enum(TRIPLE_KINDS).default("entity"),
      /** `user` (every chat), `partner:NAME` or `project:NAME` (only that one's chats), or a conversation key. */
      scope: z.string().min(1).max(200).default("user"),
      importance: z.number().min(0).max(1).default(0.5),
    })
    .refine((a) => (a.text !== undefined) !== (a.subject !== undefined && a.predicate !== undefined && a.object !== undefined), {
      message: "give either text, or subject, predicate and object",
    })
    .refine((a) => a.layer === "L3" || a.text !== undefined, { message: "an L2 note is verbatim text: give text, not subject/predicate/object" }),
  async run(args, ctx) {
    // A private note is found by its partner's chats (their conversation key is the partner's
    // name) and, for a project, under the project's own key.
    const privateTo = MemoryScopeSchema.safeParse(args.scope).success ? privateToOf(args.scope) : null;
    // A partner writes the user's memory or its own private memory, never another partner's.
    if (privateTo?.startsWith("partner:") && !maySeeMemory(ctx.access, privateTo)) {
      throw new MemoryToolError("invalid_arguments", `scope ${privateTo}: this caller is ${partnerOf(ctx.access)}, and may not write another partner's private memory`);
    }
    const scope = privateTo?.startsWith("partner:") ? privateTo.slice("partner:".length) : args.scope;
    // Tags go into the text as #words: no schema of their own, found by recall's words channel.
    const tagged = (text: string) => (args.tags?.length ? `${text} ${args.tags.map((t) => `#${t}`).join(" ")}` : text);
    if (args.layer === "L2") return await noteColdEvent(ctx, { text: tagged(args.text!), title: args.title, scope, privateTo });
    const given =
      args.text !== undefined
        ? { subject: args.title ?? "note", predicate: "says", object: tagged(args.text), kind: "convention" as const, scope, privateTo, importance: args.importance }
        : {
            subject: args.title ? `${args.title}: ${args.subject!}` : args.subject!,
            predicate: args.predicate!,
            object: tagged(args.object!),
            kind: args.kind,
            scope,
            privateTo,
            importance: args.importance,
          };
    // Secrets are masked before the text is embedded, so not even the vector is the secret's.
    const { fact, masked } = maskFactSecrets({ ...given, confidence: 1, evidence: "manual" });
    const [vector] = ctx.embedder ? await ctx.embedder.embedTexts([factText(fact)], { purpose: "write" }) : [];
    const tx = await ctx.client.transaction("write");
    try {
      const written = await writeFact(tx, fact, Date.now(), vector && ctx.embedder ? { modelId: ctx.embedder.modelId, vector } : undefined);
      await tx.commit();
      if (masked.length > 0) ctx.log?.(`memory_note ${written.id}: secrets masked (${describeMasked(masked)})`);
      return { ...written, layer: "L3", masked };
    } finally {
      tx.close();
    }
  },
});

/**
 * An L2 note: a cold event of the conversation `scope` names (session "notes"), kept verbatim
 * like an imported message, so it may later cool into facts like any other. `title` is its speaker.
 */
async function noteColdEvent(ctx: MemoryToolContext, note: { text: string; title?: string; scope: string; privateTo: PrivateScope | null }) {
  const { text, masked } = maskSecrets(note.text);
  const now = Date.now();
  const message: ColdMessage = {
    conversation: note.scope,
    session: "notes",
    time: now,
    speaker: note.title ?? "note",
    role: "user",
    text,
    sourceId: `note-${randomUUID()}`,
    scope: note.scope === "user" ? "user" : "conversation",
    privateTo: note.privateTo,
  };
  const [vector] = ctx.embedder ? await ctx.embedder.embedTexts([text], { purpose: "write" }) : [];
  const tx = await ctx.client.transaction("write");
  try {
    const seq = await nextSeq(tx, coldSessionId(message.conversation, message.session));
    const [insertEvent, ...rest] = await coldEventStatements(message, seq, vector && ctx.embedder ? { modelId: ctx.embedder.modelId, vector } : undefined, now);
    const rowid = await insertEventStatements(tx, insertEvent!, rest);
    // Searchable like an imported message: its speaker (the title) and its text.
    await indexEvent(tx, rowid, searchText(message, ""));
    await tx.commit();
    void mergeInBackground(ctx.client);
  } finally {
    tx.close();
  }
  const id = coldEventId(message.conversation, message.sourceId);
  if (masked.length > 0) ctx.log?.(`memory_note ${id}: secrets masked (${describeMasked(masked)})`);
  return { id, action: "created", layer: "L2", masked };
}

const list = tool({
  name: "memory_list",
  description: "List memories of one layer (L2 cold events or L3 facts), newest first.",
  input: z.object({
    layer: z.enum(["L2", "L3"]).default("L3"),
    conversation: z.string().max(200).optional(),
    limit: z.number().int().min(1).max(200).default(20),
    offset: z.number().int().min(0).default(0),
  }),
  async run({ layer, conversation, limit, offset }, ctx) {
    // In a chat, never another partner's or project's private memory, even by explicit conversation.
    const page = { conversation: conversation ?? ctx.conversation, privateScopes: privateScopesOf(ctx.access), limit, offset };
    if (layer === "L2") {
      const rows = await coldEventPage(ctx.client, page);
      return {
        layer,
        items: rows.map((r) => ({ id: r.id, time: new Date(r.time).toISOString(), speaker: r.speaker, text: r.text, accesses: r.accessCount, privateTo: r.privateTo })),
      };
    }
    const rows = await factPage(ctx.client, page);
    return {
      layer,
      items: rows.map((r) => ({
        id: r.id,
        text: `${r.subject} ${r.predicate} ${r.object}`,
        kind: r.kind,
        scope: r.scope,
        privateTo: r.privateTo,
        evidence: EVIDENCE_MARKS[r.evidence],
        importance: r.importance,
        revision: r.revision,
      })),
    };
  },
});

const forget = tool({
  name: "memory_forget",
  description: "Delete one memory for good, by id or 8-character id.",
  input: z.object({ id: z.string().min(6).max(200) }),
  run: async ({ id }, ctx) => ({ forgotten: await forgetRecord(ctx.client, id, ctx.access) }),
});

const injections = tool({
  name: "memory_injections",
  description: "The recall audit: what memory was injected into recent turns (query, ids, per-layer counts, size).",
  input: z.object({ limit: z.number().int().min(1).max(1000).default(20), session: z.string().max(200).optional() }),
  // A partner sees the injections of its own sessions only: the others' hold their questions and ids.
  run: async ({ limit, session }, ctx) => ({ injections: await listInjections(ctx.client, { limit, sessionId: session, access: ctx.access }) }),
});

const stats = tool({
  name: "memory_stats",
  description: "Totals per layer, vector coverage, where the database is and its size, the distillation (cooling) backlog, and every recall threshold in force.",
  input: z.object({}),
  async run(_args, ctx) {
    const bytes = await databaseBytes(ctx.client);
    const coverage = await vectorCoverageByLayer(ctx.client);
    const model = ctx.embedder?.modelId;
    const share = (group: { total: number; byModel: Record<string, number> }) => ({ ...group, share: model && group.total ? (group.byModel[model] ?? 0) / group.total : 0 });
    const now = Date.now();
    const backlog = await coolingBacklog(ctx.client, DEFAULT_COOLING.maxAccesses, now - DEFAULT_COOLING.idleMs);
    const lease = await leaseOf(ctx.client, COOLING_JOB);
    return {
      ...(await memoryTotals(ctx.client)),
      embedder: model ?? "fallback (vector recall off)",
      // `share`: the part holding a vector of the embedder in use (the only ones vector recall compares).
      vectors: { events: coverage.events.map(share), facts: share(coverage.facts), images: share(coverage.images) },
      storage: { path: (await storagePath(ctx.client)) ?? "not a local file (remote or in memory)", bytes },
      databaseBytes: bytes,
      distillation: {
        // Cold events cooling would distill now, and the events already distilled into facts.
        due: backlog.due,
        distilled: backlog.distilled,
        running: lease && lease.expiresAt > now ? { holder: lease.holder, leaseUntil: new Date(lease.expiresAt).toISOString() } : null,
      },
      thresholds: { injection: { ...(ctx.injection ?? DEFAULT_INJECTION), minScore: minScoreOf(ctx.injection ?? DEFAULT_INJECTION) }, fusion: fusionMethod(), cooling: DEFAULT_COOLING, rrfK: RRF_K },
    };
  },
});

type Check = { check: string; ok: boolean; detail: string };

/** What the doctor's probes may pick from: a partner's doctor checks only memory it may see. */
function healthViewerOf(access: Access): HealthViewer {
  const privateScopes = privateScopesOf(access);
  const sessionPartners = sessionPartnersOf(access);
  return privateScopes && sessionPartners && { privateScopes, sessionPartners };
}

const doctor = tool({
  name: "memory_doctor",
  description:
    "Check memory for real: open a fact and verify its evidence hash, run a recall probe on a stored memory, and report anything that could not be checked. deep: also re-embed a stored memory to check its vector, look for facts stored twice, resolve the ids of recent injections, and check the thresholds in force.",
  input: z.object({ deep: z.boolean().default(false) }),
  async run({ deep }, ctx) {
    const checks: Check[] = [];
    const viewer = healthViewerOf(ctx.access);
    const factId = await randomFactId(ctx.client, viewer);
    if (factId === undefined) checks.push({ check: "fact evidence", ok: true, detail: "not checked: no facts yet" });
    else {
      const record = await openRecord(ctx.client, factId, ctx.access);
      const ok = record.kind === "fact" && (record.check === "verified" || record.check === "no_excerpt");
      checks.push({ check: "fact evidence", ok, detail: `${record.id}: ${record.kind === "fact" ? record.check : "?"}` });
    }
    const event = await randomColdEvent(ctx.client, viewer);
    if (!event) checks.push({ check: "recall probe", ok: true, detail: "not checked: cold context is empty" });
    else {
      const { id, conversation, text } = event;
      const partner = partnerOf(ctx.access);
      const found = await coldcontextQuery(ctx.client, text.slice(0, 300), { k: DEFAULT_INJECTION.k, conversation, embedder: ctx.embedder, ...(partner !== undefined ? { viewer: { partner } } : {}) });
      const rank = found.findIndex((c) => c.id === id);
      checks.push({ check: "recall probe", ok: rank !== -1, detail: rank === -1 ? `${id} not found by its own text` : `${id} found at rank ${rank + 1}` });
    }
    const n = await blocksHeldElsewhere(ctx.client);
    checks.push({ check: "one holder per block", ok: n === 0, detail: n === 0 ? "every event's blocks are held by its layer" : `${n} blocks held by another layer than their event` });
    if (deep) checks.push(await vectorCheck(ctx), await duplicateCheck(ctx), await auditCheck(ctx), thresholdCheck(ctx.injection ?? DEFAULT_INJECTION));
    return { ok: checks.every((c) => c.ok), checks };
  },
});

/**
 * A stored vector is the embedder's own: a memory's text embedded again lands where its stored
 * vector is (cosine ≥ 0.99; a deterministic model gives 1). Fails on vectors written by another
 * model under this one's name, or corrupted bytes.
 */
async function vectorCheck(ctx: MemoryToolContext): Promise<Check> {
  if (!ctx.embedder) return { check: "vectors", ok: true, detail: "not checked: no embedding model in use (vector recall off)" };
  const stored = await eventWithVector(ctx.client, ctx.embedder.modelId, healthViewerOf(ctx.access));
  if (!stored) return { check: "vectors", ok: true, detail: `not checked: no memory has a ${ctx.embedder.modelId} vector yet` };
  const [again] = await ctx.embedder.embedTexts([stored.text], { purpose: "write" });
  const similarity = again ? cosine(again, stored.vector) : 0;
  return { check: "vectors", ok: similarity >= 0.99, detail: `${stored.id}: its text embedded again, cosine ${similarity.toFixed(4)} to the stored vector` };
}

async function duplicateCheck(ctx: MemoryToolContext): Promise<Check> {
  const twice = await duplicateFacts(ctx.client, healthViewerOf(ctx.access));
  return twice.length === 0
    ? { check: "duplicates", ok: true, detail: "no fact is stored twice" }
    : {
        check: "duplicates",
        ok: false,
        detail: `${twice.length} facts stored more than once: ${twice
          .slice(0, 3)
          .map((d) => d.ids.join(" = "))
          .join("; ")}`,
      };
}

/** The ids recent injections named still open (a forgotten memory's id is reported: the audit outlives it). */
async function auditCheck(ctx: MemoryToolContext): Promise<Check> {
  const audited = await auditedIds(ctx.client, 200, healthViewerOf(ctx.access));
  if (audited.records === 0) return { check: "audit ids", ok: true, detail: "not checked: nothing injected yet" };
  const missing = audited.missing;
  return {
    check: "audit ids",
    ok: missing.length === 0,
    detail:
      missing.length === 0
        ? `all ${audited.ids} ids of the last ${audited.records} injections resolve`
        : `${missing.length} of ${audited.ids} audited ids no longer exist (forgotten?): ${missing.slice(0, 3).join(", ")}`,
  };
}

/**
 * The thresholds in force can do their job. The one a typo breaks silently: a minimum fused score
 * above what words and grams both ranking a memory first can give injects nothing, ever.
 */
function thresholdCheck(config: InjectionConfig): Check {
  const parsed = InjectionConfigSchema.safeParse(config);
  if (!parsed.success) return { check: "thresholds", ok: false, detail: z.prettifyError(parsed.error) };
  const best = bestLexicalScore();
  const minScore = minScoreOf(config);
  if (minScore > best)
    return {
      check: "thresholds",
      ok: false,
      detail: `minScore ${minScore} is above ${best.toFixed(4)}, the best fused score of words + grams (${fusionMethod()} fusion): nothing would ever be injected`,
    };
  const bandChars = config.bands.immediate.chars + config.bands.working.chars + config.bands.background.chars;
  if (bandChars < config.lineChars / 4)
    return { check: "thresholds", ok: false, detail: `the bands hold ${bandChars} characters in all, less than a quarter of one ${config.lineChars}-character line` };
  return {
    check: "thresholds",
    ok: true,
    detail: `minScore ${minScore.toFixed(4)} ≤ ${best.toFixed(4)} (${fusionMethod()} fusion); bands ${bandChars} chars; restore rank ≤ ${config.restore.maxRank}, coverage ≥ ${config.restore.minCoverage}`,
  };
}

export const MEMORY_TOOLS: readonly MemoryTool[] = [recall, open, note, list, forget, injections, stats, doctor];

/** Runs a tool by name with raw (unvalidated) arguments. */
export async function runMemoryTool(name: string, rawArgs: unknown, ctx: MemoryToolContext): Promise<Record<string, unknown>> {
  const t = MEMORY_TOOLS.find((m) => m.name === name || m.name === `memory_${name}`);
  if (!t) throw new MemoryToolError("unknown_tool", `No memory tool named ${name} (${MEMORY_TOOLS.map((m) => m.name).join(", ")})`);
  const args = t.input.safeParse(rawArgs ?? {});
  if (!args.success) throw new MemoryToolError("invalid_arguments", `${t.name}: ${z.prettifyError(args.error)}`);
  return await t.run(args.data, ctx);
}

/** A call of no memory tool, or with arguments its schema refuses (codes in src/errors/table.ts: 404, 400). */
export class MemoryToolError extends HomedError {
  constructor(
    override readonly code: "unknown_tool" | "invalid_arguments",
    message: string,
  ) {
    super(code, message);
  }
}
