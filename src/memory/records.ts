/**
 * Reading and removing memory records of any layer by id or by the 8-character suffix shown in
 * injected lines. `openRecord` checks evidence for real: it recomputes the excerpt's hash and
 * fetches the source event; a source that is gone is reported as unavailable, never guessed.
 */
import type { Client, Transaction } from "@libsql/client";
import { HomedError } from "../errors/index.ts";
import { removeFromSearch } from "../store/index.ts";
import { sha256 } from "./stable-facts.ts";

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

/** Resolves a full id or an id suffix (at least 6 characters) to one record. */
export async function resolveRecord(client: Pick<Client, "execute">, idOrSuffix: string): Promise<RecordRef> {
  const exact = await client.execute({
    sql: "SELECT 'fact' AS kind, id FROM triples WHERE id = ?1 UNION ALL SELECT 'event', id FROM events WHERE id = ?1",
    args: [idOrSuffix],
  });
  if (exact.rows[0]) return { kind: exact.rows[0].kind as RecordRef["kind"], id: String(exact.rows[0].id) };
  if (idOrSuffix.length < 6) throw new RecordError("not_found", `No memory with id ${idOrSuffix} (give the full id or at least 6 characters of its end)`);
  // Injected lines show the last 8 alphanumerics of an id; ids may hold '-' or '_' before them.
  const rows = await client.execute({
    sql: `SELECT 'fact' AS kind, id FROM triples WHERE replace(replace(id, '-', ''), '_', '') LIKE '%' || ?1
          UNION ALL SELECT 'event', id FROM events WHERE replace(replace(id, '-', ''), '_', '') LIKE '%' || ?1 LIMIT 5`,
    args: [idOrSuffix],
  });
  if (rows.rows.length === 0) throw new RecordError("not_found", `No memory with id ending in ${idOrSuffix}`);
  if (rows.rows.length > 1) throw new RecordError("ambiguous", `Several memories end in ${idOrSuffix}: ${rows.rows.map((r) => r.id).join(", ")}`);
  return { kind: rows.rows[0]!.kind as RecordRef["kind"], id: String(rows.rows[0]!.id) };
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

async function checkEvidence(client: Pick<Client, "execute">, row: Record<string, unknown>): Promise<EvidenceCheck> {
  if (row.excerpt == null) return "no_excerpt";
  if (sha256(String(row.excerpt)) !== row.excerpt_hash) return "excerpt_altered";
  if (row.source_event_id == null) return "source_unavailable";
  const source = await client.execute({ sql: "SELECT text FROM events WHERE id = ?", args: [row.source_event_id as string] });
  if (!source.rows[0]) return "source_unavailable";
  return String(source.rows[0].text).startsWith(String(row.excerpt)) ? "verified" : "source_changed";
}

export async function openRecord(client: Pick<Client, "execute">, idOrSuffix: string): Promise<FactRecord | EventRecord> {
  const ref = await resolveRecord(client, idOrSuffix);
  if (ref.kind === "event") {
    const r = (await client.execute({ sql: "SELECT * FROM events WHERE id = ?", args: [ref.id] })).rows[0]!;
    return {
      kind: "event",
      id: ref.id,
      layer: String(r.layer),
      session: String(r.session_id),
      conversation: String(r.conversation),
      speaker: r.speaker == null ? null : String(r.speaker),
      time: Number(r.time),
      text: String(r.text),
      messages: JSON.parse(String(r.messages)),
      sources: r.source_id == null ? [] : [String(r.source_id)],
      accessCount: Number(r.access_count),
    };
  }
  const r = (
    await client.execute({
      sql: `SELECT t.*, s.content AS subject_text, o.content AS object_text FROM triples t
            JOIN blocks s ON s.id = t.subject_block_id JOIN blocks o ON o.id = t.object_block_id WHERE t.id = ?`,
      args: [ref.id],
    })
  ).rows[0]!;
  const history = await client.execute({ sql: "SELECT revision, snapshot, created_at FROM triple_revisions WHERE triple_id = ? ORDER BY revision DESC", args: [ref.id] });
  return {
    kind: "fact",
    id: ref.id,
    layer: "L3",
    subject: String(r.subject_text),
    predicate: String(r.predicate),
    object: String(r.object_text),
    factKind: String(r.kind),
    scope: String(r.scope),
    confidence: Number(r.confidence),
    importance: Number(r.importance),
    revision: Number(r.revision),
    evidence: String(r.evidence),
    provenance: {
      session: r.source_session == null ? null : String(r.source_session),
      turn: r.source_turn == null ? null : Number(r.source_turn),
      eventId: r.source_event_id == null ? null : String(r.source_event_id),
      excerpt: r.excerpt == null ? null : String(r.excerpt),
      hash: r.excerpt_hash == null ? null : String(r.excerpt_hash),
    },
    check: await checkEvidence(client, r),
    history: history.rows.map((h) => ({ revision: Number(h.revision), at: Number(h.created_at), snapshot: JSON.parse(String(h.snapshot)) })),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

/** Deletes a record for good: a fact with its history, or an event with its blocks. */
export async function forgetRecord(client: Client, idOrSuffix: string): Promise<RecordRef> {
  const tx: Transaction = await client.transaction("write");
  try {
    const ref = await resolveRecord(tx, idOrSuffix);
    // First: the search rows are found through the record's own row.
    await removeFromSearch(tx, ref.kind === "fact" ? "triple" : "event", ref.id);
    if (ref.kind === "fact") {
      await tx.execute({ sql: "DELETE FROM triple_revisions WHERE triple_id = ?", args: [ref.id] });
      await tx.execute({ sql: "DELETE FROM triples WHERE id = ?", args: [ref.id] });
    } else {
      await tx.execute({ sql: "DELETE FROM block_data WHERE block_id IN (SELECT id FROM blocks WHERE event_id = ?)", args: [ref.id] });
      await tx.execute({ sql: "DELETE FROM blocks WHERE event_id = ?", args: [ref.id] });
      await tx.execute({ sql: "DELETE FROM events WHERE id = ?", args: [ref.id] });
    }
    await tx.commit();
    return ref;
  } finally {
    tx.close();
  }
}
