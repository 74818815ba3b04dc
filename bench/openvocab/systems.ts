/**
 * The three systems the open-vocabulary bench compares, each as it is built and asked inside its own
 * child process (`./system-child.ts`):
 * - homed: `coldcontextQuery` over words + grams (no embedding model) of a store `homed import`
 *   wrote, under one fusion method for the child's life;
 * - MiniSearch (in memory) with a tokenizer that splits Chinese runs into overlapping bigrams and
 *   Latin runs into words — what a user would otherwise build;
 * - a plain FTS5 trigram table over each message's text, queried with the query's trigrams, through
 *   the same libSQL (bench/recall's floor).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import MiniSearch from "minisearch";
import { coldcontextQuery, configureFusion, FusionConfigSchema, type FusionMethod } from "../../src/memory/index.ts";
import { openStore } from "../../src/store/index.ts";
import { queryTrigrams } from "../../src/text/index.ts";
import { cjkBigramsAndWords } from "./cjk-bigrams-and-words.ts";
import type { OpenVocabLine } from "./corpus.ts";
import { K, type SystemSpec } from "./system-protocol.ts";

/** Ids best first; `undefined` when the system cannot ask the query at all. */
type Search = (text: string, conversation: string | undefined) => Promise<string[] | undefined> | string[] | undefined;
export type OpenSystem = { search: Search; build?: string; close(): void };

export const mib = (path: string) => `${(statSync(path).size / 2 ** 20).toFixed(0)} MiB`;
export const rate = (count: number, ms: number) => `${Math.round(count / (ms / 1000)).toLocaleString("en")} msg/s`;

const readHistory = (file: string): OpenVocabLine[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as OpenVocabLine);

export async function openSystem(spec: SystemSpec): Promise<OpenSystem> {
  if (spec.kind === "homed") return homed(spec.data, spec.method);
  if (spec.kind === "minisearch") return miniSearch(readHistory(spec.history));
  return fts5Trigram(readHistory(spec.history), spec.db);
}

async function homed(data: string, method: FusionMethod): Promise<OpenSystem> {
  configureFusion(FusionConfigSchema.parse({ method }));
  const store = await openStore({ url: `file:${join(data, "homed.db")}` });
  return {
    search: async (text, conversation) => (await coldcontextQuery(store.client, text, { k: K, channels: ["words", "grams"], conversation })).map((c) => c.sources[0] ?? ""),
    close: () => store.close(),
  };
}

function miniSearch(lines: readonly OpenVocabLine[]): OpenSystem {
  const started = performance.now();
  const mini = new MiniSearch<OpenVocabLine>({ fields: ["text"], storeFields: ["conversation"], idField: "id", tokenize: cjkBigramsAndWords, processTerm: (t) => t.toLowerCase() });
  mini.addAll(lines);
  return {
    build: `${rate(lines.length, performance.now() - started)} (nothing persisted)`,
    search: (text, conversation) =>
      mini
        .search(text, conversation === undefined ? {} : { filter: (r) => r.conversation === conversation })
        .slice(0, K)
        .map((r) => r.id as string),
    close: () => {},
  };
}

/** bench/recall's floor: one FTS5 trigram table over each message's own text, the conversation a token of its own column. */
async function fts5Trigram(lines: readonly OpenVocabLine[], db: string): Promise<OpenSystem> {
  const client = createClient({ url: `file:${db}` });
  const started = performance.now();
  await client.execute("CREATE VIRTUAL TABLE floor USING fts5(conversation, text, tokenize = 'trigram')");
  for (let i = 0; i < lines.length; i += 10_000) {
    await client.batch(
      lines.slice(i, i + 10_000).map((l, j) => ({ sql: "INSERT INTO floor (rowid, conversation, text) VALUES (?, ?, ?)", args: [i + j + 1, `conv_${l.conversation}z`, l.text] })),
      "write",
    );
  }
  return {
    build: `${rate(lines.length, performance.now() - started)} (db ${mib(db)})`,
    search: async (text, conversation) => {
      const terms = queryTrigrams(text)
        .map((t) => `"${t.replaceAll('"', '""')}"`)
        .join(" OR ");
      // Words of one or two characters give no trigram: a query of them alone cannot be asked.
      if (terms === "") return undefined;
      const rows = await client.execute({
        sql: "SELECT rowid FROM floor WHERE floor MATCH ? ORDER BY rank LIMIT ?",
        args: [conversation === undefined ? `text : (${terms})` : `conversation : "conv_${conversation}z" AND text : (${terms})`, K],
      });
      return rows.rows.map((r) => lines[Number(r.rowid) - 1]!.id);
    },
    close: () => client.close(),
  };
}
