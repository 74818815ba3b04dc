/**
 * LoCoMo evidence recall (DESIGN §7: ours and the baseline a user would otherwise pick, in one
 * run). Converts the five dev conversations to the import format, imports them with
 * `homed import`, asks every category 1–4 question with `homed recall --queries` (scoped to its
 * conversation), and scores evidence recall@5/10/25/50. The baseline is MiniSearch's BM25 over
 * the same turns, one index per conversation, default tokenizer, no stemming.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import MiniSearch from "minisearch";
import { batchRecall, evidenceRecall, formatRow, importInto, startEmbeddingServer, tempDir, writeJsonl } from "../evidence.ts";
import { convertLocomo, type ImportLine } from "./convert.ts";

const DATA = process.env.LOCOMO_FILE ?? "/work/shared/data/locomo/locomo-dev.json";
const KS = [5, 10, 25, 50] as const;

const { lines, questions } = convertLocomo(DATA);
const gold = questions.map((q) => ({ id: q.id, gold: q.evidence }));
console.log(`LoCoMo: ${lines.length} turns, ${questions.length} questions (categories 1-4) from ${DATA}`);

function bm25Baseline(): Map<string, string[][]> {
  const byConversation = new Map<string, ImportLine[]>();
  for (const l of lines) byConversation.set(l.conversation, [...(byConversation.get(l.conversation) ?? []), l]);
  const indexes = new Map<string, MiniSearch<ImportLine>>();
  for (const [conversation, turns] of byConversation) {
    const index = new MiniSearch<ImportLine>({ fields: ["text"], storeFields: ["id"], idField: "id" });
    index.addAll(turns);
    indexes.set(conversation, index);
  }
  const ranked = new Map<string, string[][]>();
  for (const q of questions) {
    const hits = indexes.get(q.conversation)!.search(q.query).slice(0, 50);
    ranked.set(
      q.id,
      hits.map((h) => [String(h.id)]),
    );
  }
  return ranked;
}

const dir = tempDir("homed-locomo-");
const historyFile = join(dir, "history.jsonl");
const queriesFile = join(dir, "queries.jsonl");
writeJsonl(historyFile, lines);
writeJsonl(
  queriesFile,
  questions.map((q) => ({ id: q.id, query: q.query, conversation: q.conversation })),
);
const imported = importInto(join(dir, "data"), historyFile);
console.log(`${imported.summary}  (${(lines.length / imported.seconds).toFixed(0)} messages/s with process start)`);

const rows: [string, Map<string, string[][]>][] = [["baseline: MiniSearch BM25 over turns", bm25Baseline()]];
// No vector rows: import writes vectors only with a real embedding model, and this benchmark
// measures recall without one (the fallback embedder's hashed n-grams were worse than grams).
// The default fusion (coverage) and RRF side by side, then each channel alone.
for (const [channels, fusion] of [[undefined, undefined], [undefined, "rrf"], ["words"], ["grams"]] as const) {
  const started = performance.now();
  const ranked = batchRecall(join(dir, "data"), queriesFile, 50, channels, fusion ? ["-fusion", fusion] : []);
  const ms = (performance.now() - started) / questions.length;
  rows.push([`homed ${channels ?? "default (words,grams)"}${fusion ? `, -fusion ${fusion}` : ""} (${ms.toFixed(1)} ms/q)`, ranked]);
}
// The same history again, imported with a real embedding model (the Universal Sentence Encoder,
// English, through homed's HTTP embedder): what the vector channel adds when one is configured.
const embedding = await startEmbeddingServer();
try {
  const withModel = importInto(join(dir, "data-model"), historyFile, embedding.flags);
  console.log(`with a model: ${withModel.summary}  (${(lines.length / withModel.seconds).toFixed(0)} messages/s, embedding included)`);
  for (const channels of ["words,grams,vector", "vector"]) {
    const started = performance.now();
    const ranked = batchRecall(join(dir, "data-model"), queriesFile, 50, channels, embedding.flags);
    const ms = (performance.now() - started) / questions.length;
    rows.push([`homed ${channels}, USE model (${ms.toFixed(1)} ms/q)`, ranked]);
  }
} finally {
  embedding.stop();
}
console.log("\nEvidence recall, categories 1-4:");
for (const [name, ranked] of rows)
  console.log(
    formatRow(
      name,
      KS,
      evidenceRecall(gold, (id) => ranked.get(id) ?? [], KS),
      44,
    ),
  );
console.log(formatRow("reference: LoCoMo paper, DRAGON (dense)", KS, [0.588, 0.675, 0.799, 0.848], 44));
rmSync(dir, { recursive: true, force: true });
