/**
 * Reading and removing memory records of any layer by id or by the 8-character suffix shown in
 * injected lines. `openRecord` checks evidence for real: it recomputes the excerpt's hash and
 * fetches the source event; a source that is gone is reported as unavailable, never guessed.
 */
import type { Client, Transaction } from "@libsql/client";
import { HomedError } from "../errors/index.ts";
import {
  deleteEventRows,
  markSourceGone,
  deleteFactRows,
  eventRecordRow,
  eventTextById,
  factRecordRow,
  factRevisions,
  recordsEndingIn,
  recordsWithId,
  type Executor,
  type FactRecordRow,
} from "../store/index.ts";
import { removeFromSearch } from "../search/index.ts";
import { sha256 } from "./stable-facts.ts";
import { privateScopesOf, type Access } from "./access.ts";

/** No record, or several, answer to an id or suffix (codes in src/errors/table.ts: 404, 409). */
export class RecordError extends HomedError {
  constructor(
    override readonly code: "not_found" | "ambiguous",
    message: string,
  ) {
    super(code, message);
  }
}

export type RecordRef = { kind: "fact" | "event"; id: string };

/**
 * Resolves a full id or an id suffix (at least 6 characters) to one record the caller may see
 * (access.ts). One it may not see is "not found", word for word as an id that never existed.
 */
export async function resolveRecord(client: Executor, idOrSuffix: string, access: Access): Promise<RecordRef> {
  const scopes = privateScopesOf(access);
  const [exact] = await recordsWithId(client, idOrSuffix, scopes);
  if (exact) return exact;
  if (idOrSuffix.length < 6) throw new RecordError("not_found", `No memory with id ${idOrSuffix} (give the full id or at least 6 characters of its end)`);
  // Injected lines show the last 8 alphanumerics of an id; ids may hold '-' or '_' before them.
  const rows = await recordsEndingIn(client, idOrSuffix, 5, scopes);
  if (rows.length === 0) throw new RecordError("not_found", `No memory with id ending in ${idOrSuffix}`);
  if (rows.length > 1) throw new RecordError("ambiguous", `Several memories end in ${idOrSuffix}: ${rows.map((r) => r.id).join(", ")}`);
  return rows[0]!;
}

export type EvidenceCheck = "verified" | "excerpt_altered" | "source_changed" | "source_unavailable" | "no_excerpt";

export type FactRecord = {
  kind: "fact";
  id: string;
  layer: "L3";
  subject: string;
  predicate: string;
  object: string;
  factKind: string;
  scope: string;
  confidence: number;
  importance: number;
  revision: number;
  evidence: string;
  provenance: { session: string | null; turn: number | null; eventId: string | null; excerpt: string | null; hash: string | null };
  check: EvidenceCheck;
  history: { revision: number; at: number; snapshot: Record<string, unknown> }[];
  createdAt: number;
  updatedAt: number;
};

export type EventRecord = {
  kind: "event";
  id: string;
  layer: string;
  session: string;
  conversation: string;
  speaker: string | null;
  time: number;
  text: string;
  messages: unknown[];
  sources: string[];
  accessCount: number;
};

async function checkEvidence(client: Executor, row: FactRecordRow): Promise<EvidenceCheck> {
  if (row.excerpt == null) return "no_excerpt";
  if (sha256(row.excerpt) !== row.excerptHash) return "excerpt_altered";
  if (row.sourceEventId == null) return "source_unavailable";
  const source = await eventTextById(client, row.sourceEventId);
  if (source === undefined) return "source_unavailable";
  return source.startsWith(row.excerpt) ? "verified" : "source_changed";
}

/** A record the caller may see, whole (a fact's evidence checked for real). */
export async function openRecord(client: Executor, idOrSuffix: string, access: Access): Promise<FactRecord | EventRecord> {
  const ref = await resolveRecord(client, idOrSuffix, access);
  if (ref.kind === "event") {
    const r = (await eventRecordRow(client, ref.id))!;
    return {
      kind: "event",
      id: ref.id,
      layer: r.layer,
      session: r.sessionId,
      conversation: r.conversation,
      speaker: r.speaker,
      time: r.time,
      text: r.text,
      messages: JSON.parse(r.messages),
      sources: r.sourceId == null ? [] : [r.sourceId],
      accessCount: r.accessCount,
    };
  }
  const r = (await factRecordRow(client, ref.id))!;
  const history = await factRevisions(client, ref.id);
  return {
    kind: "fact",
    id: ref.id,
    layer: "L3",
    subject: r.subjectText,
    predicate: r.predicate,
    object: r.objectText,
    factKind: r.kind,
    scope: r.scope,
    confidence: r.confidence,
    importance: r.importance,
    revision: r.revision,
    evidence: r.evidence,
    provenance: { session: r.sourceSession, turn: r.sourceTurn, eventId: r.sourceEventId, excerpt: r.excerpt, hash: r.excerptHash },
    check: await checkEvidence(client, r),
    history: history.map((h) => ({ revision: h.revision, at: h.createdAt, snapshot: JSON.parse(h.snapshot) })),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Deletes a record the caller may see for good: a fact with its history, or an event with its blocks. */
export async function forgetRecord(client: Client, idOrSuffix: string, access: Access): Promise<RecordRef> {
  const tx: Transaction = await client.transaction("write");
  try {
    const ref = await resolveRecord(tx, idOrSuffix, access);
    // First: a fact's search rows are found through its own row. An event's postings stay in
    // its search segment until the next merge of it, never found again (searches look each
    // result up in events).
    if (ref.kind === "fact") await removeFromSearch(tx, "triple", ref.id);
    await (ref.kind === "fact" ? deleteFactRows : deleteEventRows)(tx, ref.id);
    // Facts distilled from a forgotten event keep their pointer, and now say that is all they have.
    if (ref.kind === "event") await markSourceGone(tx, ref.id);
    await tx.commit();
    return ref;
  } finally {
    tx.close();
  }
}
