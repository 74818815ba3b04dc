/**
 * The analysis half of an import (search terms, the search segment): a large import does it in a
 * real worker thread, a small one on its own thread, and both must give exactly the same
 * segments — what is stored cannot depend on the import's size.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { AnalysisHere, AnalysisInWorker, startImportAnalysis, WORKER_FROM, type AnalysisInput, type ImportAnalysis } from "../../src/memory/index.ts";

const TEXTS = ["我把车停在地下二层 B2-117", "the parking ticket is in the glovebox", "Remind me: 周五 dinner with 韩梅梅 at 7", "ok 👍", "", "key-42 lives in the drawer\nsecond line 第二行"];

function inputs(from: number, count: number): AnalysisInput[] {
  return Array.from({ length: count }, (_, i) => {
    const text = `${TEXTS[(from + i) % TEXTS.length]} #${from + i}`;
    return { rowid: 2 ** 32 + from + i, search: { own: `Ann: ${text}`, context: TEXTS[(from + i + 1) % TEXTS.length] } };
  });
}

/** Two batches into one segment, sealed; a third into the next (sent without waiting); then nothing. */
async function analyse(analysis: ImportAnalysis) {
  try {
    await analysis.add(inputs(0, 300));
    await analysis.add(inputs(300, 200));
    const first = await analysis.seal();
    const [, second, empty] = await Promise.all([analysis.add(inputs(500, 50)), analysis.seal(), analysis.seal()]);
    return { first, second, empty };
  } finally {
    analysis.close();
  }
}

describe("an import's analysis", () => {
  test("in a worker thread it gives exactly what it gives on this thread: the same sealed segments", async () => {
    const here = await analyse(new AnalysisHere());
    const there = await analyse(new AnalysisInWorker());
    assert.equal(here.first?.docs, 500);
    assert.equal(here.second?.docs, 50);
    assert.equal(here.empty, undefined, "nothing added since the last seal");
    assert.ok(here.first!.terms.includes("b停在") && here.first!.terms.includes("wglovebox"));
    assert.deepEqual(there, here);
  });

  test("a segment is sealed once its terms and postings pass the configured bytes, however few documents it holds", async () => {
    // Each message brings terms no other has (an open vocabulary): the bytes grow with every one.
    const open = (from: number, count: number): AnalysisInput[] =>
      Array.from({ length: count }, (_, i) => ({ rowid: 2 ** 32 + from + i, search: { own: `Ann: code${from + i}x 编号${from + i}号 zq${(from + i) * 7919}` } }));
    const limits = { docs: 10_000, bytes: 40_000 };
    for (const analysis of [new AnalysisHere(limits), new AnalysisInWorker(limits)]) {
      try {
        const filled = await analysis.add(open(0, 300));
        assert.ok(filled.length >= 2, `300 messages of new terms fill ${filled.length} segments of 40,000 bytes`);
        for (const segment of filled) {
          assert.ok(segment.docs < 300 && segment.docs > 1, `${segment.docs} documents`);
        }
        const rest = await analysis.seal();
        assert.equal(filled.reduce((n, s) => n + s.docs, 0) + (rest?.docs ?? 0), 300, "every message in exactly one segment");
      } finally {
        analysis.close();
      }
    }
    // Under the default bound the same messages stay in one segment, sealed at the end.
    const unbounded = new AnalysisHere();
    assert.deepEqual(await unbounded.add(open(0, 300)), []);
    assert.equal((await unbounded.seal())?.docs, 300);
  });

  test("a segment is sealed at the end of the chunk that brings it to the configured documents", async () => {
    const analysis = new AnalysisHere({ docs: 400, bytes: 2 ** 30 });
    assert.deepEqual(await analysis.add(inputs(0, 300)), []);
    const [full] = await analysis.add(inputs(300, 200));
    assert.equal(full?.docs, 500, "the whole chunk, as the import always sealed");
    assert.equal(await analysis.seal(), undefined);
  });

  test("an import of WORKER_FROM messages or more analyses in a worker thread; a smaller one here", () => {
    const large = startImportAnalysis(WORKER_FROM);
    const small = startImportAnalysis(WORKER_FROM - 1);
    large.close();
    assert.ok(large instanceof AnalysisInWorker);
    assert.ok(small instanceof AnalysisHere);
  });

  test("an error in the worker thread fails the call that caused it, with its message", async () => {
    const analysis = new AnalysisInWorker();
    try {
      // Rowids must ascend within a segment: the builder refuses, in the worker thread.
      await analysis.add(inputs(10, 1));
      await assert.rejects(analysis.add(inputs(0, 1)), /Cannot index event rowid 4294967296 after 4294967306/);
    } finally {
      analysis.close();
    }
  });
});
