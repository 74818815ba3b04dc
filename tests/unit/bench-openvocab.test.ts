/**
 * The open-vocabulary benchmark's instruments (bench/openvocab): its figures are the "before" of
 * issue 26, so what it generates and how it measures must hold — the same corpus for the same seed,
 * queries that are really in their target, one typo and no more, the baseline's tokenizer, and a
 * peak memory that is the child's own.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { exactLookups, misspell, openVocabCorpus } from "../../bench/openvocab/corpus.ts";
import { cjkBigramsAndWords } from "../../bench/openvocab/cjk-bigrams-and-words.ts";
import { prng } from "../../bench/recall/corpus.ts";
import { evalCommand, scriptCommand } from "../../src/runtime/self.ts";

const PEAK_MEMORY = fileURLToPath(new URL("../../bench/openvocab/peak-memory.ts", import.meta.url));

/** Levenshtein distance over code points. */
function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)));
    row = next;
  }
  return row[y.length]!;
}

describe("bench/openvocab", () => {
  const corpus = openVocabCorpus(3000);

  test("the same seed gives the same corpus; another seed another one", () => {
    assert.deepEqual(openVocabCorpus(3000).lines, corpus.lines);
    assert.notDeepEqual(openVocabCorpus(3000, 27).lines.slice(0, 50), corpus.lines.slice(0, 50));
  });

  test("the vocabulary is open: thousands of distinct terms, Chinese unspaced, in 100 conversations", () => {
    assert.ok(corpus.distinctTerms > 5000, `${corpus.distinctTerms} distinct terms`);
    assert.equal(new Set(corpus.lines.map((l) => l.conversation)).size, 100);
    assert.ok(corpus.lines.some((l) => /\p{Script=Han}{6,}/u.test(l.text)));
    assert.ok(corpus.lines.some((l) => /\p{Script=Han}/u.test(l.text) && /[A-Z]{2}-\d{4}/.test(l.text)));
  });

  test("each lookup is 3–4 of its target's terms, and its typo is one edit of one of them", () => {
    const lookups = exactLookups(corpus, 100);
    assert.equal(new Set(lookups.map((q) => q.target)).size, 100);
    const byId = new Map(corpus.lines.map((l) => [l.id, l]));
    for (const q of lookups) {
      const terms = q.query.split(" ");
      const typo = q.typo.split(" ");
      assert.ok(terms.length === 3 || terms.length === 4, q.query);
      for (const t of terms) assert.ok(byId.get(q.target)!.text.includes(t), `${t} in ${q.target}`);
      assert.equal(q.conversation, byId.get(q.target)!.conversation);
      const changed = terms.flatMap((t, i) => (t === typo[i] ? [] : [editDistance(t, typo[i]!)]));
      assert.ok(changed.length === 1 && changed[0]! <= 2, `${q.query} → ${q.typo}`);
    }
  });

  test("a misspelling keeps the first character and changes the word", () => {
    const random = prng(1);
    for (const word of ["schedule", "AX-7731", "卡维娜", "ab"]) {
      const typo = misspell(random, word);
      assert.notEqual(typo, word);
      assert.equal([...typo][0], [...word][0]);
    }
  });

  test("the baseline's tokenizer: Chinese runs as overlapping bigrams, Latin and digits as words", () => {
    assert.deepEqual(cjkBigramsAndWords("我明天去Costco买AX-7731，好"), ["我明", "明天", "天去", "Costco", "买", "AX", "7731", "好"]);
  });

  test("peak memory is the child's own high-water mark, and its exit code", () => {
    const measure = (code: string) => {
      // Runtime-neutral (the suite also runs under Deno): this runtime's way to run a script and to evaluate code.
      const [runtime, ...script] = scriptCommand(PEAK_MEMORY);
      const run = spawnSync(runtime!, [...script, ...evalCommand(code)], { encoding: "utf8" });
      return JSON.parse(run.stdout) as { code: number; peakKiB: number };
    };
    const sleep = "await new Promise((r) => setTimeout(r, 200));";
    const big = measure(`const a = new Uint8Array(300 * 2 ** 20).fill(1); ${sleep} process.exit(a[5] === 1 ? 3 : 4)`);
    const small = measure(sleep);
    assert.equal(big.code, 3);
    assert.ok(big.peakKiB >= 300 * 1024, `${big.peakKiB} KiB`);
    assert.ok(small.peakKiB > 0 && small.peakKiB < 200 * 1024, `${small.peakKiB} KiB`);
  });
});
