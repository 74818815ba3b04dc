/**
 * MADial-Bench (Chinese) memory recall, ours next to a character-bigram BM25 in the same run.
 * Imports each memory with `homed import`, asks each dialogue (before its test turn) with
 * `homed recall --queries` among the same user's memories, and reports Recall@1/3/5/10: the
 * fraction of the dialogue's relevant memories in the top k, averaged (and the hit rate: at
 * least one relevant memory in the top k).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import MiniSearch from "minisearch";
import { batchRecall, evidenceRecall, formatRow, importInto, tempDir, writeJsonl } from "../evidence.ts";
import { convertMadial, type ImportLine } from "./convert.ts";

const DIR = process.env.MADIAL_DIR ?? "/work/shared/data/madial";
const KS = [1, 3, 5, 10] as const;

const { lines, queries } = convertMadial(DIR);
console.log(`MADial-Bench zh: ${lines.length} memories, ${queries.length} dialogues from ${DIR}`);

/** Overlapping character bigrams of the text with spaces and punctuation removed. */
const charBigrams = (text: string) => {
  const chars = Array.from(text.replace(/[\p{P}\p{S}\s]+/gu, ""));
  return chars.length < 2 ? chars : chars.slice(1).map((c, i) => chars[i] + c);
};

function bigramBaseline(): Map<string, string[][]> {
  const ranked = new Map<string, string[][]>();
  for (const conversation of new Set(lines.map((l) => l.conversation))) {
    const index = new MiniSearch<ImportLine>({ fields: ["text"], idField: "id", tokenize: charBigrams, processTerm: (t) => t });
    index.addAll(lines.filter((l) => l.conversation === conversation));
    for (const q of queries.filter((q) => q.conversation === conversation)) {
      ranked.set(
        q.id,
        index
          .search(q.query)
          .slice(0, 10)
          .map((h) => [String(h.id)]),
      );
    }
  }
  return ranked;
}

function hitRate(ranked: Map<string, string[][]>): number[] {
  return KS.map(
    (k) =>
      queries.filter((q) =>
        (ranked.get(q.id) ?? [])
          .slice(0, k)
          .flat()
          .some((s) => q.gold.includes(s)),
      ).length / queries.length,
  );
}

const dir = tempDir("homed-madial-");
writeJsonl(join(dir, "memories.jsonl"), lines);
writeJsonl(
  join(dir, "queries.jsonl"),
  queries.map((q) => ({ id: q.id, query: q.query, conversation: q.conversation })),
);
console.log(importInto(join(dir, "data"), join(dir, "memories.jsonl")).summary);

const rows: [string, Map<string, string[][]>][] = [["baseline: MiniSearch BM25, char bigrams", bigramBaseline()]];
// No vector rows: import writes vectors only with a real embedding model, and this benchmark
// measures recall without one (the fallback embedder's hashed n-grams were worse than grams).
// The default fusion (coverage) and RRF side by side, then each channel alone.
for (const [channels, fusion] of [[undefined, undefined], [undefined, "rrf"], ["words"], ["grams"]] as const) {
  rows.push([
    `homed ${channels ?? "default (words,grams)"}${fusion ? `, -fusion ${fusion}` : ""}`,
    batchRecall(join(dir, "data"), join(dir, "queries.jsonl"), 10, channels, fusion ? ["-fusion", fusion] : []),
  ]);
}
console.log("\nRecall@k (fraction of relevant memories in the top k):");
for (const [name, ranked] of rows)
  console.log(
    formatRow(
      name,
      KS,
      evidenceRecall(queries, (id) => ranked.get(id) ?? [], KS),
      42,
    ),
  );
console.log(formatRow("reference: authors' BGE-M3 (whole zh set)", KS, [0.29, 0.5, 0.59, 0.71], 42));
console.log("\nHit rate@k (at least one relevant memory in the top k):");
for (const [name, ranked] of rows) console.log(formatRow(name, KS, hitRate(ranked), 42, "hit"));
rmSync(dir, { recursive: true, force: true });
