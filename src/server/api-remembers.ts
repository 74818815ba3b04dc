/**
 * What homed remembers, for people rather than engineers (issue 27 item 3): the facts (L3) with
 * where each came from (which chat or import, when, the words said) and when it was last used;
 * a correction of a fact, written as `memory_note` writes one and the old one forgotten as
 * `memory_forget` does; and recall explained — for the memories one chat turn was given, their
 * text, source and the words they share with what was asked.
 */
import type { Client } from "@libsql/client";
import { Hono } from "hono";
import { z } from "zod";
import type { Embedder } from "../embed/index.ts";
import { HomedError } from "../errors/index.ts";
import type { Logger } from "../log/index.ts";
import { coldcontextQuery, OWNER, recallQuery, runMemoryTool, stableQuery } from "../memory/index.ts";
import { eventsByIds, factUse, injectionAuditRecords, lastInjected, listFacts, listSessions, type EventRow, type FactRow } from "../store/index.ts";
import { searchWords, segmentForSearch } from "../text/index.ts";
import { auditBy } from "./auth.ts";

/**
 * Where a memory came from: a chat of the console or another client (`chat`), imported history
 * (`import`), or written by hand (`note`, a correction included); `unknown` when the source is gone.
 */
export type MemorySource = {
  via: "chat" | "import" | "note" | "unknown";
  /** The chat's title, when it has one. */
  title: string | null;
  partner: string | null;
  conversation: string | null;
  sessionId: string | null;
  eventId: string | null;
  /** When the words were said. */
  time: number | null;
  /** The words said, verbatim (a fact's excerpt, an event's text). */
  said: string | null;
};

export type RememberedFact = {
  id: string;
  subject: string;
  predicate: string;
  object: string;
  kind: string;
  evidence: string;
  scope: string;
  privateTo: string | null;
  revision: number;
  createdAt: number;
  updatedAt: number;
  source: MemorySource;
  /** Last given to a chat turn (injection audit), last cited by the model, and how often cited. */
  used: { lastInjected: number | null; lastCited: number | null; cited: number };
};

export type FactsAnswer = { facts: RememberedFact[] };

/** One memory a turn was given, explained: its text, source, why it matched, and the engineer's detail. */
export type RecallCard = {
  id: string;
  layer: "L2" | "L3";
  text: string;
  /** A fact's parts, for a sentence; absent for a cold event (its text is what was said). */
  fact?: { subject: string; predicate: string; object: string };
  source: MemorySource;
  /** Words of the memory (as written there) that the question also holds. */
  sharedWords: string[];
  evidence: string | null;
  band: string | null;
  score: number | null;
  channels: string[];
};

export type ExplainAnswer = { cards: RecallCard[] };
export type CorrectAnswer = { id: string; revision: number; action: string; replaced: string | null };

type Sessions = Map<string, { title: string | null; partner: string }>;

/** An imported conversation's events carry `conversation/session` (coldSessionId), never a chat's id. */
function sourceOf(sessions: Sessions, sessionId: string | null, event: EventRow | undefined, said: string | null, manual: boolean): MemorySource {
  const chat = sessionId ? sessions.get(sessionId) : undefined;
  const via = manual && !sessionId ? "note" : chat ? "chat" : sessionId ? (sessionId.endsWith("/notes") ? "note" : "import") : "unknown";
  return {
    via,
    title: chat?.title ?? null,
    partner: chat?.partner ?? null,
    conversation: event?.conversation ?? null,
    sessionId,
    eventId: event?.id ?? null,
    time: event?.time ?? null,
    said,
  };
}

async function sessionsById(client: Client): Promise<Sessions> {
  return new Map((await listSessions(client)).map((s) => [s.id, { title: s.title, partner: s.partner }]));
}

/** The facts' source events, by id. */
async function sourceEvents(client: Client, facts: FactRow[]): Promise<Map<string, EventRow>> {
  const ids = facts.flatMap((f) => (f.sourceEventId ? [f.sourceEventId] : []));
  return new Map((await eventsByIds(client, ids)).map((e) => [e.id, e]));
}

async function rememberedFacts(client: Client, limit: number): Promise<RememberedFact[]> {
  const facts = await listFacts(client, { limit });
  const ids = facts.map((f) => f.id);
  const [sessions, events, use, injected] = await Promise.all([sessionsById(client), sourceEvents(client, facts), factUse(client, ids), lastInjected(client, ids)]);
  const useOf = new Map(use.map((u) => [u.id, u]));
  const injectedAt = new Map(injected.map((i) => [i.id, i.time]));
  return facts.map((f) => {
    const u = useOf.get(f.id);
    return {
      id: f.id,
      subject: f.subject ?? "",
      predicate: f.predicate,
      object: f.object ?? "",
      kind: f.kind,
      evidence: f.evidence,
      scope: f.scope,
      privateTo: f.privateTo,
      revision: f.revision,
      createdAt: u?.createdAt ?? f.updatedAt,
      updatedAt: f.updatedAt,
      source: sourceOf(sessions, f.sourceSession, f.sourceEventId ? events.get(f.sourceEventId) : undefined, f.excerpt, f.evidence === "manual"),
      used: { lastInjected: injectedAt.get(f.id) ?? null, lastCited: u?.lastCited ?? null, cited: u?.citedCount ?? 0 },
    };
  });
}

/**
 * The memory's words (as written there) whose search form — lower case, stemmed, as the words
 * channel compares them — the question also holds: "locker, combination".
 */
async function sharedWords(question: string, text: string): Promise<string[]> {
  const asked = new Set(await searchWords(question));
  const shared = new Map<string, string>();
  for (const word of await segmentForSearch(text)) {
    const [key] = await searchWords(word);
    if (key && asked.has(key) && !shared.has(key)) shared.set(key, word);
  }
  return [...shared.values()];
}

const ExplainSchema = z.object({
  q: z.string().max(2000).default(""),
  ids: z
    .string()
    .max(20_000)
    .transform((s) => s.split(",").filter(Boolean))
    .pipe(z.array(z.string().min(1).max(300)).max(50)),
});

async function explain(client: Client, embedder: Embedder | undefined, q: string, ids: string[]): Promise<RecallCard[]> {
  const asked = recallQuery(q);
  // Scores and channels as recall finds these memories for this question now (the turn's own are not kept).
  const [facts, events, sessions, cold, stable, audit] = await Promise.all([
    listFacts(client, { ids }),
    eventsByIds(client, ids),
    sessionsById(client),
    q ? coldcontextQuery(client, asked, { k: 50, embedder }) : [],
    q ? stableQuery(client, asked, { k: 50, embedder }) : [],
    injectionAuditRecords(client, { limit: 200 }),
  ]);
  const found = new Map<string, { score: number; channels: string[] }>([
    ...cold.map((c) => [c.id, { score: c.score, channels: Object.keys(c.channels) }] as const),
    ...stable.map((s) => [s.id, { score: s.score, channels: s.channels }] as const),
  ]);
  // The band each was given in, from the newest audited turn that asked this question.
  const turn = audit.find((a) => a.query === q);
  const bandOf = new Map(turn?.ids.map((m) => [m.id, m.band]) ?? []);
  const evidenceOf = new Map(turn?.ids.map((m) => [m.id, m.evidence]) ?? []);
  const factSources = await sourceEvents(client, facts);
  const factById = new Map(facts.map((f) => [f.id, f]));
  const eventById = new Map(events.map((e) => [e.id, e]));
  const cards: RecallCard[] = [];
  for (const id of ids) {
    const fact = factById.get(id);
    const event = eventById.get(id);
    if (!fact && !event) continue; // forgotten since
    const text = fact ? `${fact.subject ?? ""} ${fact.predicate} ${fact.object ?? ""}` : event!.text;
    const source = fact
      ? sourceOf(sessions, fact.sourceSession, fact.sourceEventId ? factSources.get(fact.sourceEventId) : undefined, fact.excerpt, fact.evidence === "manual")
      : sourceOf(sessions, event!.sessionId, event, event!.text, false);
    cards.push({
      id,
      layer: fact ? "L3" : "L2",
      text,
      ...(fact ? { fact: { subject: fact.subject ?? "", predicate: fact.predicate, object: fact.object ?? "" } } : {}),
      source,
      sharedWords: await sharedWords(q, fact ? `${text}\n${fact.excerpt ?? ""}` : text),
      evidence: fact ? fact.evidence : (evidenceOf.get(id) ?? "verbatim"),
      band: bandOf.get(id) ?? null,
      score: found.get(id)?.score ?? null,
      channels: found.get(id)?.channels ?? [],
    });
  }
  return cards;
}

const CorrectSchema = z.object({
  subject: z.string().trim().min(1).max(200),
  predicate: z.string().trim().min(1).max(100),
  object: z.string().trim().min(1).max(2000),
});

/**
 * `GET /facts`, `PUT /facts/:id` (a correction), `GET /explain?q=…&ids=a,b` — mounted under
 * `/api/memory` beside memoryRoutes.
 */
export function remembersRoutes(client: Client, recallEmbedder: Embedder | undefined, log: Pick<Logger, "audit">): Hono {
  const app = new Hono();
  app.get("/facts", async (c) => {
    const limit = z.coerce.number().int().min(1).max(500).default(200).safeParse(c.req.query("limit"));
    if (!limit.success) throw new HomedError("invalid_request", `limit: ${limit.error.issues[0]!.message}`);
    return c.json<FactsAnswer>({ facts: await rememberedFacts(client, limit.data) });
  });

  app.get("/explain", async (c) => {
    const parsed = ExplainSchema.safeParse(c.req.query());
    if (!parsed.success) throw new HomedError("invalid_request", `${parsed.error.issues[0]!.path.join(".")}: ${parsed.error.issues[0]!.message}`);
    return c.json<ExplainAnswer>({ cards: await explain(client, recallEmbedder, parsed.data.q, parsed.data.ids) });
  });

  /**
   * A person's correction of a fact: written by hand as memory_note writes it (same kind, scope
   * and importance; evidence "written by hand"). The note revises the fact itself when it is
   * the same fact restated (its old text stays in the history); otherwise the note is a new
   * fact and the old one is forgotten as memory_forget forgets.
   */
  app.put("/facts/:id", async (c) => {
    const body = CorrectSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!body.success) throw new HomedError("invalid_request", `${body.error.issues[0]!.path.join(".")}: ${body.error.issues[0]!.message}`);
    const id = c.req.param("id");
    const [before] = await listFacts(client, { ids: [id] });
    if (!before) throw new HomedError("not_found", `No fact with id ${id}`);
    const ctx = { client, embedder: recallEmbedder, access: OWNER };
    const written = (await runMemoryTool("memory_note", { ...body.data, kind: before.kind, scope: before.privateTo ?? before.scope, layer: "L3" }, ctx)) as {
      id: string;
      revision: number;
      action: string;
    };
    const replaced = written.id !== id ? id : null;
    if (replaced) await runMemoryTool("memory_forget", { id }, ctx);
    log.audit({ event: "memory_corrected", ...auditBy(c), outcome: "ok", detail: `console corrected fact ${id}${replaced ? ` (now ${written.id})` : ` (revision ${written.revision})`}` });
    return c.json<CorrectAnswer>({ id: written.id, revision: written.revision, action: written.action, replaced });
  });
  return app;
}
