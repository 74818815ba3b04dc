/**
 * Keeps the FTS5 channels in step with stored text. Every event (any layer) and every triple is
 * indexed once, when it is written, by `doc_id`; queries join back to `events`/`triples` to
 * filter by layer and scope, so moving between layers never touches the index.
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import { cjkBigrams, searchWords } from "../text/index.ts";

export type SearchDocKind = "event" | "triple";

/** The FTS text column of each search table (the one with the words, grams or bigrams). */
export const SEARCH_COLUMNS = { memory_words: "words", memory_grams: "text", memory_bigrams: "grams" } as const;
export type SearchTable = keyof typeof SEARCH_COLUMNS;

/**
 * Scope keys (see migration 0006): one token per scope, so a scoped search intersects inside the
 * FTS index. Must match the SQL that filled existing rows: 'c' || hex(conversation) || 'z'.
 */
export const USER_SCOPE_KEY = "uscopez";
export const conversationScopeKey = (conversation: string) => `c${Buffer.from(conversation, "utf8").toString("hex").toUpperCase()}z`;
export const scopeKeyOf = (owner: { conversation: string; userWide: boolean }) => (owner.userWide ? USER_SCOPE_KEY : conversationScopeKey(owner.conversation));

const quoted = (terms: readonly string[]) => terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(" OR ");

/**
 * An FTS5 MATCH expression for any of `terms` in the table's text column, and — when a
 * conversation is given — only in that conversation's rows and user-wide ones.
 */
export function scopedMatch(table: SearchTable, terms: readonly string[], conversation?: string): string {
  const text = `${SEARCH_COLUMNS[table]} : (${quoted(terms)})`;
  if (conversation === undefined) return text;
  return `scope_key : (${quoted([conversationScopeKey(conversation), USER_SCOPE_KEY])}) AND ${text}`;
}

/** bm25() weights: only the text column counts (the scope key must not sway the ranking). */
export const bm25Of = (table: SearchTable) => `bm25(${table}, 0, 0, 0, 1)`;

type Executor = Pick<Client | Transaction, "execute">;

/** The INSERTs of one document's word, trigram and CJK-bigram rows (for batched writers). */
/**
 * The FTS rowid of a document: its event's rowid, or minus its triple's rowid (two ranges that
 * never meet). Keyed so, a document's search rows are found by rowid — a b-tree lookup — since
 * `doc_id` is an unindexed column and deleting by it scans the whole table (61 ms at 100k rows).
 * The document's own row must exist when its search rows are written or removed.
 */
const ROWID: Record<SearchDocKind, string> = {
  event: "(SELECT rowid FROM events WHERE id = ?)",
  triple: "-(SELECT rowid FROM triples WHERE id = ?)",
};

export async function searchRows(kind: SearchDocKind, docId: string, text: string, scopeKey: string): Promise<InStatement[]> {
  const words = (await searchWords(text)).join(" ");
  const rowid = ROWID[kind];
  const rows: InStatement[] = [
    { sql: `INSERT INTO memory_words (rowid, doc_id, kind, scope_key, words) VALUES (${rowid}, ?, ?, ?, ?)`, args: [docId, docId, kind, scopeKey, words] },
    { sql: `INSERT INTO memory_grams (rowid, doc_id, kind, scope_key, text) VALUES (${rowid}, ?, ?, ?, ?)`, args: [docId, docId, kind, scopeKey, text] },
  ];
  const bigrams = cjkBigrams(text);
  if (bigrams.length > 0) {
    rows.push({ sql: `INSERT INTO memory_bigrams (rowid, doc_id, kind, scope_key, grams) VALUES (${rowid}, ?, ?, ?, ?)`, args: [docId, docId, kind, scopeKey, bigrams.join(" ")] });
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
  scopeKey: string,
  options: { isNew?: boolean } = {},
): Promise<void> {
  const rows = await searchRows(kind, docId, text, scopeKey);
  if (!options.isNew) await removeFromSearch(db, kind, docId);
  for (const row of rows) await db.execute(row);
}

/** Removes a document's search rows (call it before the document's own row is deleted). */
export async function removeFromSearch(db: Executor, kind: SearchDocKind, docId: string): Promise<void> {
  for (const table of Object.keys(SEARCH_COLUMNS)) {
    await db.execute({ sql: `DELETE FROM ${table} WHERE rowid = ${ROWID[kind]}`, args: [docId] });
  }
}
