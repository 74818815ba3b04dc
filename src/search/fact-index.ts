/**
 * Keeps the FTS5 channels of L3 facts in step with their text. Every triple is indexed when it is
 * written, by `doc_id`, in tables of its own (migration 0010: `fact_words`, `fact_grams`,
 * `fact_bigrams`), so that a facts query pays only for facts — with 100k messages and no facts,
 * tables shared with events cost 162 ms a facts query scoring cold rows it then threw away.
 * Events have an index of their own (search-segments.ts); facts are few, and FTS5 answers a
 * facts query in under a millisecond.
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import { analysedPart, cjkBigrams, searchWords } from "../text/index.ts";
import { CONTEXT_WEIGHT, type SearchText } from "./analysis.ts";

export type SearchDocKind = "triple";

export const SEARCH_TABLES = {
  triple: { words: "fact_words", grams: "fact_grams", bigrams: "fact_bigrams" },
} as const;
export type SearchTable = (typeof SEARCH_TABLES)[SearchDocKind][keyof (typeof SEARCH_TABLES)["triple"]];

/** The FTS column with the document's own text, per table (its `context` column follows it). */
export const SEARCH_COLUMNS: Record<SearchTable, string> = {
  fact_words: "words",
  fact_grams: "text",
  fact_bigrams: "grams",
};

/**
 * Scope keys (see migration 0006): one token per scope, so a scoped search intersects inside the
 * FTS index. Must match the SQL that filled existing rows: 'c' || hex(conversation) || 'z'.
 */
export const USER_SCOPE_KEY = "uscopez";
export const conversationScopeKey = (conversation: string) => `c${Buffer.from(conversation, "utf8").toString("hex").toUpperCase()}z`;
export const scopeKeyOf = (owner: { conversation: string; userWide: boolean }) => (owner.userWide ? USER_SCOPE_KEY : conversationScopeKey(owner.conversation));

const quoted = (terms: readonly string[], join: "OR" | "AND" = "OR") => terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(` ${join} `);

/**
 * An FTS5 MATCH expression for any (or, with "all", every) of `terms` in the table's text columns
 * (own and context), and — when a conversation is given — only in that conversation's rows and
 * user-wide ones.
 */
export function scopedMatch(table: SearchTable, terms: readonly string[], conversation?: string, of: "any" | "all" = "any"): string {
  const text = `{${SEARCH_COLUMNS[table]} context} : (${quoted(terms, of === "all" ? "AND" : "OR")})`;
  if (conversation === undefined) return text;
  return `scope_key : (${quoted([conversationScopeKey(conversation), USER_SCOPE_KEY])}) AND ${text}`;
}

/**
 * bm25() weights (doc_id, kind, scope_key, own text, context): the scope key must not sway the
 * ranking, the neighbours count CONTEXT_WEIGHT. The same as each table's configured `rank`, so
 * `ORDER BY rank` (FTS5 sorts inside the index) ranks as this does.
 */
export const bm25Of = (table: SearchTable) => `bm25(${table}, 0, 0, 0, 1, ${CONTEXT_WEIGHT})`;

type Executor = Pick<Client | Transaction, "execute">;

/**
 * The FTS rowid of a document: its triple's rowid.
 * Keyed so, a document's search rows are found by rowid — a b-tree lookup — since `doc_id` is an
 * unindexed column and deleting by it scans the whole table (61 ms at 100k rows). The document's
 * own row must exist when its search rows are written or removed.
 */
const ROWID: Record<SearchDocKind, string> = {
  triple: "(SELECT rowid FROM triples WHERE id = ?)",
};

/**
 * The INSERTs of one document's word, trigram and CJK-bigram rows (for batched writers).
 * A document is indexed by the first ANALYSED_CHARS characters of its own text followed by its
 * context (`text/limits.ts`): FTS5 inserts run synchronously, and the grams of a 15 MB message
 * would hold the daemon for seconds.
 */
export async function searchRows(kind: SearchDocKind, docId: string, text: SearchText, scopeKey: string): Promise<InStatement[]> {
  // One budget for both, own text first: a row costs what the single text column did (the reply
  // to a pasted page would otherwise index the page's first ANALYSED_CHARS again, in full).
  const own = analysedPart(text.own);
  const context = analysedPart(`${own}\n${text.context ?? ""}`).slice(own.length + 1);
  const tables = SEARCH_TABLES[kind];
  const row = (table: SearchTable, ownText: string, ctx: string): InStatement => ({
    sql: `INSERT INTO ${table} (rowid, doc_id, kind, scope_key, ${SEARCH_COLUMNS[table]}, context) VALUES (${ROWID[kind]}, ?, ?, ?, ?, ?)`,
    args: [docId, docId, kind, scopeKey, ownText, ctx],
  });
  const words = async (t: string) => (t ? (await searchWords(t)).join(" ") : "");
  const rows = [row(tables.words, await words(own), await words(context)), row(tables.grams, own, context)];
  const bigrams = { own: cjkBigrams(own), context: context ? cjkBigrams(context) : [] };
  if (bigrams.own.length + bigrams.context.length > 0) rows.push(row(tables.bigrams, bigrams.own.join(" "), bigrams.context.join(" ")));
  return rows;
}

/**
 * Writes (or rewrites) the search rows of one document. `isNew` skips the delete of old rows:
 * `doc_id` is an UNINDEXED FTS column, so that delete scans the whole table — fine for a
 * rewrite, quadratic for a bulk import of documents known to be new.
 */
export async function indexForSearch(db: Executor, kind: SearchDocKind, docId: string, text: SearchText, scopeKey: string, options: { isNew?: boolean } = {}): Promise<void> {
  const rows = await searchRows(kind, docId, text, scopeKey);
  if (!options.isNew) await removeFromSearch(db, kind, docId);
  for (const row of rows) await db.execute(row);
}

/** Removes a document's search rows (call it before the document's own row is deleted). */
export async function removeFromSearch(db: Executor, kind: SearchDocKind, docId: string): Promise<void> {
  for (const table of Object.values(SEARCH_TABLES[kind])) {
    await db.execute({ sql: `DELETE FROM ${table} WHERE rowid = ${ROWID[kind]}`, args: [docId] });
  }
}
