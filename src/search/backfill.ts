/**
 * The first start after migration 0018: events indexed by FTS5 (`memory_words`,
 * `memory_grams`, `memory_bigrams`) are read into search segments and those tables dropped. Read,
 * not analysed again: the words table holds each event's jieba words already, the bigram table
 * its bigrams, the grams table its text, so this costs a pass over the rows, not a re-import.
 * One write transaction: a crash or kill leaves the FTS5 tables as they were and the next start
 * does it again; two processes opening the store at once take turns, and the second finds it done.
 */
import type { Client } from "@libsql/client";
import { documentTrigrams } from "../text/index.ts";
import type { IndexChannel } from "./postings-codec.ts";
import { countTerms, TERM_PREFIX, trigramLength, type AnalysedDoc } from "./analysis.ts";
import { BULK_SEGMENT_DOCS, SegmentBuilder } from "./segments.ts";
import { mergeInBackground } from "./background-merge.ts";

const OLD_TABLES = ["memory_words", "memory_grams", "memory_bigrams"] as const;

/** Rows read at a time. */
const PAGE = 2_000;

const tokens = (text: unknown) => (typeof text === "string" && text ? text.split(" ").filter(Boolean) : []);

function documentOf(row: Record<string, unknown>): AnalysedDoc {
  const terms = new Map<string, number>();
  const lengths: Record<IndexChannel, number> = { words: 0, trigrams: 0, bigrams: 0 };
  const prefixed = (channel: IndexChannel, list: readonly string[]) => list.map((token) => TERM_PREFIX[channel] + token);
  for (const [suffix, weight] of [
    ["", 2],
    ["_context", 1],
  ] as const) {
    const words = tokens(row[`words${suffix}`]);
    const text = String(row[`text${suffix}`] ?? "");
    // Rows without CJK had no bigram row: null, no bigrams.
    const bigrams = tokens(row[`grams${suffix}`]);
    countTerms(terms, prefixed("words", words), weight);
    countTerms(terms, prefixed("trigrams", documentTrigrams(text)), weight);
    countTerms(terms, prefixed("bigrams", bigrams), weight);
    lengths.words += words.length;
    lengths.trigrams += trigramLength(text);
    lengths.bigrams += bigrams.length;
  }
  return { terms, lengths };
}

/** Moves an FTS5-indexed store to search segments; returns how many events it indexed (0: nothing to do). */
export async function backfillSearchIndex(client: Client, notice: (line: string) => void = () => {}): Promise<number> {
  const has = await client.execute("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'memory_words'");
  if (Number(has.rows[0]!.n) === 0) return 0;
  const tx = await client.transaction("write");
  try {
    // Looked again inside the write turn: another process may have done it meanwhile.
    const still = await tx.execute("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'memory_words'");
    if (Number(still.rows[0]!.n) === 0) return 0;
    const total = Number((await tx.execute("SELECT count(*) AS n FROM events")).rows[0]!.n);
    const started = Date.now();
    let done = 0;
    let builder = new SegmentBuilder();
    for (let after = Number.MIN_SAFE_INTEGER; ; ) {
      // Only rows of events that exist: an abandoned import's staged rows are left behind.
      const page = await tx.execute({
        sql: `SELECT e.rowid AS r, w.words AS words, w.context AS words_context, g.text AS text, g.context AS text_context,
                     b.grams AS grams, b.context AS grams_context
              FROM events e JOIN memory_words w ON w.rowid = e.rowid
              LEFT JOIN memory_grams g ON g.rowid = e.rowid LEFT JOIN memory_bigrams b ON b.rowid = e.rowid
              WHERE e.rowid > ? ORDER BY e.rowid LIMIT ?`,
        args: [after, PAGE],
      });
      for (const row of page.rows) await builder.add(Number(row.r), documentOf(row as unknown as Record<string, unknown>));
      done += page.rows.length;
      if (builder.docs >= BULK_SEGMENT_DOCS || page.rows.length < PAGE) {
        await builder.write(tx, "live");
        builder = new SegmentBuilder();
        notice(`search index: ${done.toLocaleString("en")} of ${total.toLocaleString("en")} memories moved from FTS5 (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      }
      if (page.rows.length < PAGE) break;
      after = Number(page.rows.at(-1)!.r);
    }
    for (const table of OLD_TABLES) await tx.execute(`DROP TABLE IF EXISTS ${table}`);
    await tx.commit();
    await mergeInBackground(client);
    return done;
  } finally {
    tx.close();
  }
}
