/**
 * `homed doctor`'s probes of the database: each does the thing it vouches for (an integrity check,
 * a vector top-k, a full-text match). The writing ones take a transaction the caller rolls back.
 */
import { sql } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { bm25Of, conversationScopeKey, indexEvent, scopedMatch, searchEvents } from "../search/index.ts";
import { ensureVectorSpace } from "./vector-spaces.ts";
import type { Transaction } from "@libsql/client";

/** The probe's vectors: an odd width, as any model's may be (the store holds any). */
const PROBE_DIM = 24;

/** SQLite's verdict on the file: "ok", or the first problem it found. */
export async function integrityCheck(client: Executor): Promise<string> {
  const rows = await queryDb(client).values<[string]>(sql`PRAGMA integrity_check`);
  return String(rows[0]?.[0]);
}

function unitVector(hot: number): string {
  const v = new Array<number>(PROBE_DIM).fill(0);
  v[hot] = 1;
  return JSON.stringify(v);
}

/**
 * Writes two events with orthogonal unit vectors of a probe model, builds that model's indexed
 * vector table as a real model's is built on first use, and asks its index for the one nearest
 * to the second: resolves with the id it found (`doctor-b` when the index works) and the width.
 */
export async function vectorTopOneProbe(tx: Executor, now: number): Promise<{ top: string | undefined; dimension: number | undefined }> {
  const db = queryDb(tx);
  for (const [id, hot] of [
    ["doctor-a", 1],
    ["doctor-b", 2],
  ] as const) {
    await db.run(sql`INSERT INTO events (id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at, embed_model, embedding)
                     VALUES (${id}, 'doctor', 'doctor', 'L2', 0, ${now}, '[]', '', 0, ${now}, 'doctor-probe', vector32(${unitVector(hot)}))`);
  }
  const space = await ensureVectorSpace(tx, "doctor-probe");
  if (!space) return { top: undefined, dimension: undefined };
  const [top] = await db.all<{ id: string }>(sql`SELECT e.id FROM vector_top_k(${space.index}, vector32(${unitVector(2)}), 1) AS k JOIN events e ON e.rowid = k.id`);
  return { top: top?.id, dimension: space.dimension };
}

/**
 * Indexes one Chinese text as a memory and as a fact and finds it: by a word and a trigram in the
 * memories' BM25 index, by a word in the facts' FTS5 tables. The ids each found.
 */
export async function fullTextProbe(tx: Transaction): Promise<{ words: string | undefined; grams: string | undefined; facts: string | undefined }> {
  const db = queryDb(tx);
  const text = "北京天安门广场 flag ceremony";
  const inserted = await tx.execute({
    sql: "INSERT INTO events (id, session_id, conversation, layer, seq, time, messages, text, tokens, created_at) VALUES ('doctor', 'doctor', 'doctor', 'L2', 0, 0, '[]', ?, 0, 0)",
    args: [text],
  });
  await indexEvent(tx, Number(inserted.lastInsertRowid), { own: text });
  const found = await searchEvents(
    tx,
    { words: ["广场"], trigrams: ["安门广"], bigrams: [] },
    {
      limit: 1,
      filter: { sql: "e.conversation = 'doctor'", args: [] },
      within: { sql: "SELECT rowid AS r FROM events WHERE conversation = 'doctor'", args: [] },
    },
  );
  const key = conversationScopeKey("doctor");
  await db.run(sql`INSERT INTO fact_words (doc_id, kind, scope_key, words) VALUES ('doctor', 'triple', ${key}, '天安门 广场 flag ceremony')`);
  const [fact] = await db.all<{ doc_id: string }>(
    sql`SELECT doc_id, ${sql.raw(bm25Of("fact_words"))} AS score FROM fact_words WHERE fact_words MATCH ${scopedMatch("fact_words", ["广场"], "doctor")}`,
  );
  return { words: found.words[0]?.id, grams: found.grams[0]?.id, facts: fact?.doc_id };
}
