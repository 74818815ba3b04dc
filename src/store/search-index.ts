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
export async function searchRows(kind: SearchDocKind, docId: string, text: string, scopeKey: string): Promise<InStatement[]> {
  const words = (await searchWords(text)).join(" ");
  const rows: InStatement[] = [
    { sql: "INSERT INTO memory_words (doc_id, kind, scope_key, words) VALUES (?, ?, ?, ?)", args: [docId, kind, scopeKey, words] },
    { sql: "INSERT INTO memory_grams (doc_id, kind, scope_key, text) VALUES (?, ?, ?, ?)", args: [docId, kind, scopeKey, text] },
  ];
  const bigrams = cjkBigrams(text);
  if (bigrams.length > 0) {
    rows.push({ sql: "INSERT INTO memory_bigrams (doc_id, kind, scope_key, grams) VALUES (?, ?, ?, ?)", args: [docId, kind, scopeKey, bigrams.join(" ")] });
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
  if (!options.isNew) await removeFromSearch(db, docId);
  for (const row of rows) await db.execute(row);
}

export async function removeFromSearch(db: Executor, docId: string): Promise<void> {
  for (const table of ["memory_words", "memory_grams", "memory_bigrams"]) {
    await db.execute({ sql: `DELETE FROM ${table} WHERE doc_id = ?`, args: [docId] });
  }
}
