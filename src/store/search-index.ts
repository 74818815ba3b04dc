/**
 * Keeps the FTS5 channels in step with stored text. Every event (any layer) and every triple is
 * indexed once, when it is written, by `doc_id`, events and triples in tables of their own;
 * queries join back to `events`/`triples` to filter by layer and scope, so moving between layers
 * never touches the index.
 */
import type { Client, InStatement, Transaction } from "@libsql/client";
import { analysedPart, cjkBigrams, searchWords } from "../text/index.ts";

export type SearchDocKind = "event" | "triple";

/**
 * Each kind of document has its own three tables (migration 0010): events (cold context and L1)
 * in `memory_*`, L3 facts in `fact_*`. Separate tables, not one shared set filtered after the
 * match, so that a facts query pays only for facts: with 100k messages and no facts, the shared
 * tables' facts query cost 162 ms scoring cold rows it then threw away — and FTS5's BM25 counted
 * each term over both kinds, so cold history also swayed the facts' term weights.
 */
export const SEARCH_TABLES = {
  event: { words: "memory_words", grams: "memory_grams", bigrams: "memory_bigrams" },
  triple: { words: "fact_words", grams: "fact_grams", bigrams: "fact_bigrams" },
} as const;
export type SearchTable = (typeof SEARCH_TABLES)[SearchDocKind][keyof (typeof SEARCH_TABLES)["event"]];

/** The FTS column with the document's own text, per table (its `context` column follows it). */
export const SEARCH_COLUMNS: Record<SearchTable, string> = {
  memory_words: "words",
  memory_grams: "text",
  memory_bigrams: "grams",
  fact_words: "words",
  fact_grams: "text",
  fact_bigrams: "grams",
};

/**
 * What a document is found by: its own text and, for a message, its neighbours' (`context`).
 * Two columns so that BM25 can weigh them apart (see CONTEXT_WEIGHT).
 */
export type SearchText = { own: string; context?: string };

/**
 * How much a term counts in the neighbours' text next to the message's own (BM25 column weight,
 * set as each table's `rank` in migration 0010 — keep them equal). Below 1 so that the message
 * that says the words ranks above the neighbours that only carry them: in a three-turn session
 * all three rows hold the same words, and with equal weights they tied. Half, not less: the
 * neighbours are there because an answer rarely repeats its question's words, and that context
 * must still find it.
 */
export const CONTEXT_WEIGHT = 0.5;

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
 * The FTS rowid of a document: its event's or its triple's rowid (each kind has its own tables).
 * Keyed so, a document's search rows are found by rowid — a b-tree lookup — since `doc_id` is an
 * unindexed column and deleting by it scans the whole table (61 ms at 100k rows). The document's
 * own row must exist when its search rows are written or removed.
 */
const ROWID: Record<SearchDocKind, string> = {
  event: "(SELECT rowid FROM events WHERE id = ?)",
  triple: "(SELECT rowid FROM triples WHERE id = ?)",
};

/**
 * The INSERTs of one document's word, trigram and CJK-bigram rows (for batched writers).
 * `rowid`: the FTS rowid when the caller already knows it (an import stages an event under the
 * rowid it will have, before the event row exists); otherwise it is looked up from the document.
 * A document is indexed by the first ANALYSED_CHARS characters of its own text followed by its
 * context (`text/limits.ts`): FTS5 inserts run synchronously, and the grams of a 15 MB message
 * would hold the daemon for seconds.
 */
export async function searchRows(kind: SearchDocKind, docId: string, text: SearchText, scopeKey: string, rowid?: number): Promise<InStatement[]> {
  // One budget for both, own text first: a row costs what the single text column did (the reply
  // to a pasted page would otherwise index the page's first ANALYSED_CHARS again, in full).
  const own = analysedPart(text.own);
  const context = analysedPart(`${own}\n${text.context ?? ""}`).slice(own.length + 1);
  const tables = SEARCH_TABLES[kind];
  const rowidSql = rowid === undefined ? ROWID[kind] : "?";
  const row = (table: SearchTable, ownText: string, ctx: string): InStatement => ({
    sql: `INSERT INTO ${table} (rowid, doc_id, kind, scope_key, ${SEARCH_COLUMNS[table]}, context) VALUES (${rowidSql}, ?, ?, ?, ?, ?)`,
    args: [rowid ?? docId, docId, kind, scopeKey, ownText, ctx],
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
export async function indexForSearch(
  db: Executor,
  kind: SearchDocKind,
  docId: string,
  text: SearchText,
  scopeKey: string,
  options: { isNew?: boolean } = {},
): Promise<void> {
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
