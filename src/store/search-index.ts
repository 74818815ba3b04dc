/**
 * Keeps the FTS5 channels in step with stored text. Every event (any layer) and every triple is
 * indexed once, when it is written, by `doc_id`; queries join back to `events`/`triples` to
 * filter by layer and scope, so moving between layers never touches the index.
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import { cjkBigrams, searchWords } from "../text/index.ts";

export type SearchDocKind = "event" | "triple";

type Executor = Pick<Client | Transaction, "execute">;

/** The INSERTs of one document's word, trigram and CJK-bigram rows (for batched writers). */
export async function searchRows(kind: SearchDocKind, docId: string, text: string): Promise<InStatement[]> {
  const words = (await searchWords(text)).join(" ");
  const rows: InStatement[] = [
    { sql: "INSERT INTO memory_words (doc_id, kind, words) VALUES (?, ?, ?)", args: [docId, kind, words] },
    { sql: "INSERT INTO memory_grams (doc_id, kind, text) VALUES (?, ?, ?)", args: [docId, kind, text] },
  ];
  const bigrams = cjkBigrams(text);
  if (bigrams.length > 0) {
    rows.push({ sql: "INSERT INTO memory_bigrams (doc_id, kind, grams) VALUES (?, ?, ?)", args: [docId, kind, bigrams.join(" ")] });
  }
  return rows;
}

/**
 * Writes (or rewrites) the search rows of one document. `isNew` skips the delete of old rows:
 * `doc_id` is an UNINDEXED FTS column, so that delete scans the whole table — fine for a
 * rewrite, quadratic for a bulk import of documents known to be new.
 */
export async function indexForSearch(
  db: Executor,
  kind: SearchDocKind,
  docId: string,
  text: string,
  options: { isNew?: boolean } = {},
): Promise<void> {
  const rows = await searchRows(kind, docId, text);
  if (!options.isNew) await removeFromSearch(db, docId);
  for (const row of rows) await db.execute(row);
}

export async function removeFromSearch(db: Executor, docId: string): Promise<void> {
  for (const table of ["memory_words", "memory_grams", "memory_bigrams"]) {
    await db.execute({ sql: `DELETE FROM ${table} WHERE doc_id = ?`, args: [docId] });
  }
}
