/**
 * Keeps the FTS5 channels in step with stored text. Every event (any layer) and every triple is
 * indexed once, when it is written, by `doc_id`; queries join back to `events`/`triples` to
 * filter by layer and scope, so moving between layers never touches the index.
 */
import type { Client, Transaction } from "@libsql/client";
import { searchWords } from "../text/index.ts";

export type SearchDocKind = "event" | "triple";

type Executor = Pick<Client | Transaction, "execute">;

/** Writes (or rewrites) the word and trigram rows of one document. */
export async function indexForSearch(db: Executor, kind: SearchDocKind, docId: string, text: string): Promise<void> {
  const words = (await searchWords(text)).join(" ");
  await removeFromSearch(db, docId);
  await db.execute({ sql: "INSERT INTO memory_words (doc_id, kind, words) VALUES (?, ?, ?)", args: [docId, kind, words] });
  await db.execute({ sql: "INSERT INTO memory_grams (doc_id, kind, text) VALUES (?, ?, ?)", args: [docId, kind, text] });
}

export async function removeFromSearch(db: Executor, docId: string): Promise<void> {
  await db.execute({ sql: "DELETE FROM memory_words WHERE doc_id = ?", args: [docId] });
  await db.execute({ sql: "DELETE FROM memory_grams WHERE doc_id = ?", args: [docId] });
}
