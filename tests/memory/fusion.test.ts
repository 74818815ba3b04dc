import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  bestLexicalScore,
  coldcontextQuery,
  configureFusion,
  COVERAGE_WEIGHT,
  DEFAULT_WEIGHTS,
  EQUAL_WEIGHTS,
  FusionConfigSchema,
  fuse,
  fuseCoverage,
  fuseLinear,
  fuseRrf,
  fusionMethod,
  MATCH_FLOOR,
  DEFAULT_INJECTION,
  minScoreOf,
  RRF_K,
  stableQuery,
  VECTOR_WEIGHT,
  writeFact,
} from "../../src/memory/index.ts";
import { message, openTempStore, seed } from "./fixture.ts";

const ranked = (...ids: string[]) => ids.map((id, i) => ({ id, score: 10 - i }));

describe("reciprocal rank fusion", () => {
  test("k is 60", () => assert.equal(RRF_K, 60));

  test("worked example: agreement beats one channel's top rank", () => {
    // words: a b c · grams: c a · vector: d
    // a = 1/61 + 1/62 = .03252   c = 1/63 + 1/61 = .03227   d = 1/61 = .01639   b = 1/62 = .01613
    const fused = fuseRrf({ words: ranked("a", "b", "c"), grams: ranked("c", "a"), vector: ranked("d") }, RRF_K, EQUAL_WEIGHTS);
    assert.deepEqual(
      fused.map((f) => f.id),
      ["a", "c", "d", "b"],
    );
    const close = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} != ${y}`);
    close(fused[0]!.score, 1 / 61 + 1 / 62);
    close(fused[1]!.score, 1 / 63 + 1 / 61);
    close(fused[2]!.score, 1 / 61);
    close(fused[3]!.score, 1 / 62);
    assert.deepEqual(fused[1]!.channels.words, { rank: 3, score: 8, contribution: 1 / 63 });
    assert.deepEqual(fused[1]!.channels.grams, { rank: 1, score: 10, contribution: 1 / 61 });
    assert.equal(fused[1]!.channels.vector, undefined);
  });

  test("no channel, no result", () => assert.deepEqual(fuseRrf({}), []));

  test("weights scale each channel's contributions; the default gives the vector channel 0.1", () => {
    assert.equal(VECTOR_WEIGHT, 0.1);
    // words: a b · vector: d — d is the vector channel's top, yet at the default weights words'
    // second (1/62) stays ahead of it (0.1/61); at equal weights d (1/61) passes b.
    const rankings = { words: ranked("a", "b"), vector: ranked("d") };
    const fused = fuseRrf(rankings);
    assert.deepEqual(
      fused.map((f) => f.id),
      ["a", "b", "d"],
    );
    assert.ok(Math.abs(fused[2]!.score - 0.1 / 61) < 1e-12);
    assert.deepEqual(fused[2]!.channels.vector, { rank: 1, score: 10, contribution: 0.1 / 61 });
    assert.deepEqual(
      fuseRrf(rankings, RRF_K, EQUAL_WEIGHTS).map((f) => f.id),
      ["a", "d", "b"],
    );
  });

  test("homed.json fusion.weights sets the weights every recall uses; bad values are refused", () => {
    try {
      configureFusion(FusionConfigSchema.parse({ weights: { vector: 1, grams: 0 } }));
      const fused = fuseRrf({ grams: ranked("g"), vector: ranked("v") });
      assert.deepEqual(
        fused.map((f) => [f.id, f.score]),
        [
          ["v", 1 / 61],
          ["g", 0],
        ],
      );
    } finally {
      configureFusion(FusionConfigSchema.parse({}));
    }
    assert.deepEqual(fuseRrf({ vector: ranked("v") })[0]!.score, (DEFAULT_WEIGHTS.vector ?? 1) / 61);
    assert.equal(FusionConfigSchema.safeParse({ weights: { vector: -1 } }).success, false);
    assert.equal(FusionConfigSchema.safeParse({ weights: { bm25: 1 } }).success, false);
  });
});

describe("linear fusion (selectable): normalised channel scores, combined", () => {
  /**
   * The case the RRF default lost (issue 26): the grams channel ranks the message first by a wide
   * margin (BM25 15.3 against 6.6), the words channel — which segmented its unknown word differently —
   * finds it only 20th, while another message sits 4th and 5th in both.
   */
  const words = [...["w1", "w2", "w3", "mediocre"].map((id, i) => ({ id, score: 10 - i })), ...Array.from({ length: 15 }, (_, i) => ({ id: `x${i}`, score: 6 - i * 0.1 })), { id: "said", score: 4 }];
  const grams = [{ id: "said", score: 15.3 }, ...["g1", "g2", "g3"].map((id, i) => ({ id, score: 6.9 - i * 0.1 })), { id: "mediocre", score: 6.6 }];

  test("a channel's clear winner ranks first; RRF buries it under a message mediocre in both", () => {
    const linear = fuseLinear({ words, grams }, EQUAL_WEIGHTS);
    assert.equal(linear[0]!.id, "said");
    const rrf = fuseRrf({ words, grams }, RRF_K, EQUAL_WEIGHTS);
    assert.equal(rrf[0]!.id, "mediocre", "the contrast: ranks alone lose the margin");
    assert.ok(rrf.findIndex((f) => f.id === "said") > 0);
  });

  test("scores are each channel's score over its best, weighted, over the weights' sum; -explain's contributions add up", () => {
    const fused = fuseLinear(
      {
        words: [
          { id: "a", score: 8 },
          { id: "b", score: 4 },
        ],
        grams: [{ id: "b", score: 2 }],
        vector: [{ id: "a", score: 0.5 }],
      },
      { vector: 0.5 },
    );
    const a = fused.find((f) => f.id === "a")!;
    const b = fused.find((f) => f.id === "b")!;
    const close = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} != ${y}`);
    close(a.score, (1 * 1 + 0.5 * 1) / 2.5);
    close(b.score, (1 * 0.5 + 1 * 1) / 2.5);
    close(a.channels.words!.contribution + a.channels.vector!.contribution, a.score);
    assert.deepEqual(fuseLinear({}), []);
  });

  test("the method is validated at start with a clear error; coverage is the default, rrf and linear selectable", () => {
    assert.equal(FusionConfigSchema.parse({}).method, "coverage");
    assert.equal(FusionConfigSchema.parse({ method: "linear" }).method, "linear");
    assert.equal(FusionConfigSchema.parse({ method: "rrf" }).method, "rrf");
    const bad = FusionConfigSchema.safeParse({ method: "borda" });
    assert.equal(bad.success, false);
    assert.deepEqual(bad.error!.issues[0]!.path, ["method"]);
    assert.equal(fusionMethod(), "coverage");
    configureFusion({ method: "linear", weights: {} });
    try {
      assert.equal(fusionMethod(), "linear");
      assert.equal(fuse({ words, grams })[0]!.id, "said");
      configureFusion({ method: "rrf", weights: {} });
      assert.equal(fuse({ words, grams })[0]!.id, "mediocre");
    } finally {
      configureFusion(FusionConfigSchema.parse({}));
    }
  });
});

/** A BM25 channel's ranking: [id, score, coverage] best first. */
const bm25 = (...rows: [string, number, number][]) => rows.map(([id, score, coverage]) => ({ id, score, coverage }));

describe("coverage fusion (the default): reciprocal ranks plus a bonus for holding the query", () => {
  /**
   * The issue-26 case with the channels' coverage: an exact lookup of an unsegmented name. The
   * grams channel finds the message first by a wide margin and it holds nearly all of the query
   * (.9); the words channel, which cut the name differently, does not find it at all. Another
   * message sits 4th and 5th in both, holding a third of the query in each.
   */
  const words = bm25(["w1", 10, 0.5], ["w2", 9, 0.45], ["w3", 8, 0.4], ["mediocre", 7, 0.35], ["w4", 6.5, 0.33]);
  const grams = bm25(["said", 15.3, 0.9], ["g1", 6.9, 0.4], ["g2", 6.8, 0.4], ["g3", 6.7, 0.39], ["mediocre", 6.6, 0.38]);

  test("a channel's clear winner, absent from the other channel, beats a message ranked ~5th in both", () => {
    const fused = fuseCoverage({ words, grams });
    assert.equal(fused[0]!.id, "said");
    assert.deepEqual(Object.keys(fused[0]!.channels), ["grams"]);
    assert.equal(fuseRrf({ words, grams })[0]!.id, "mediocre", "the contrast: ranks alone bury it");
    assert.equal(fuse({ words, grams })[0]!.id, "said", "and coverage is what recall uses by default");
  });

  test("the score is Σ w × (1/(k + rank) + β × coverage² / (k + 1)); coverage is capped at 1; without coverage it is RRF", () => {
    assert.equal(COVERAGE_WEIGHT, 3);
    const fused = fuseCoverage({ words: bm25(["a", 5, 0.5], ["b", 4, 1.7]), vector: [{ id: "a", score: 0.8 }] }, { vector: 0.5 });
    const close = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} != ${y}`);
    const a = fused.find((f) => f.id === "a")!;
    const b = fused.find((f) => f.id === "b")!;
    close(a.channels.words!.contribution, 1 / 61 + (3 * 0.25) / 61);
    close(a.channels.vector!.contribution, 0.5 / 61);
    close(a.score, a.channels.words!.contribution + a.channels.vector!.contribution);
    close(b.score, 1 / 62 + 3 / 61);
    assert.equal(a.channels.words!.coverage, 0.5);
    assert.equal(a.channels.vector!.coverage, undefined);
    assert.deepEqual(fuseCoverage({ words: ranked("a", "b", "c"), grams: ranked("c", "a") }, EQUAL_WEIGHTS), fuseRrf({ words: ranked("a", "b", "c"), grams: ranked("c", "a") }, RRF_K, EQUAL_WEIGHTS));
    close(bestLexicalScore("coverage", EQUAL_WEIGHTS), (2 * (1 + 3)) / 61);
    close(bestLexicalScore("rrf", EQUAL_WEIGHTS), 2 / 61);
  });

  test("the injection's score floor under coverage is RRF's (a lone 25th rank), not linear's", () => {
    assert.equal(minScoreOf(DEFAULT_INJECTION), 1 / 85);
    configureFusion({ method: "linear", weights: {} });
    try {
      assert.equal(minScoreOf(DEFAULT_INJECTION), 0.05);
      configureFusion({ method: "rrf", weights: {} });
      assert.equal(minScoreOf(DEFAULT_INJECTION), 1 / 85);
    } finally {
      configureFusion(FusionConfigSchema.parse({}));
    }
  });

  /**
   * What made linear fusion lose on MADial dev (R@3 .468 → .440), characterised: the query is a
   * whole dialogue, hundreds of terms; a long memory sharing many common characters with it is the
   * grams channel's winner by raw score (27.7 against 18.9) and ranks 20th in words, while the
   * memory both channels agree on is 3rd and 5th. Each holds a few hundredths of the query.
   */
  test("a raw-score winner that holds little of a long query does not pass the memory both channels agree on", () => {
    const chatWords = bm25(["w1", 14.6, 0.06], ["w2", 13.3, 0.05], ["agreed", 13.0, 0.05], ...Array.from({ length: 16 }, (_, i) => [`x${i}`, 12 - i * 0.2, 0.04] as [string, number, number]), [
      "hub",
      8,
      0.03,
    ]);
    const chatGrams = bm25(["hub", 27.7, 0.07], ["g1", 18.9, 0.05], ["g2", 17.8, 0.05], ["g3", 17.4, 0.05], ["agreed", 10.4, 0.03]);
    const order = (fused: { id: string }[]) => fused.map((f) => f.id);
    assert.ok(order(fuseCoverage({ words: chatWords, grams: chatGrams })).indexOf("agreed") < order(fuseCoverage({ words: chatWords, grams: chatGrams })).indexOf("hub"));
    const linear = order(fuseLinear({ words: chatWords, grams: chatGrams }, EQUAL_WEIGHTS));
    assert.ok(linear.indexOf("hub") < linear.indexOf("agreed"), "the contrast: normalised raw scores put the hub first");
  });
});

describe("a channel's candidate it did not match earns nothing", () => {
  /**
   * A term in half the store or more weighs a millionth in BM25: under a conversation scope the
   * channels list every event of it holding such a term (here: the speaker's name). RRF gave
   * them 1/(k + rank) like matches: z, 2nd in both, beat a and b, each first in one channel.
   */
  const words = [{ id: "a", score: 5 }, ...["z", "y"].map((id) => ({ id, score: 2e-6 }))];
  const grams = [{ id: "b", score: 4 }, ...["z", "y"].map((id) => ({ id, score: 1e-6 }))];

  test("scores under MATCH_FLOOR of the channel's best, or not above 0, are dropped by every fusion", () => {
    assert.equal(MATCH_FLOOR, 1e-3);
    for (const fusion of [
      (r: Parameters<typeof fuseRrf>[0]) => fuseRrf(r, RRF_K, EQUAL_WEIGHTS),
      (r: Parameters<typeof fuseRrf>[0]) => fuseCoverage(r, EQUAL_WEIGHTS),
      (r: Parameters<typeof fuseRrf>[0]) => fuseLinear(r, EQUAL_WEIGHTS),
    ]) {
      assert.deepEqual(
        fusion({ words, grams }).map((f) => f.id),
        ["a", "b"],
      );
      assert.deepEqual(
        fusion({
          words: [
            { id: "a", score: 1 },
            { id: "zero", score: 0 },
          ],
        }).map((f) => f.id),
        ["a"],
      );
    }
  });

  test("in a store where every term is that common, they are all there is, and still rank", () => {
    const tiny = [
      { id: "a", score: 3e-6 },
      { id: "b", score: 1e-6 },
    ];
    assert.deepEqual(
      fuseRrf({ words: tiny }).map((f) => f.id),
      ["a", "b"],
    );
  });

  test("recall in a conversation returns the message that matched, not every message with the speaker's name", async () => {
    await using store = await openTempStore();
    await seed(store, [
      message("Caroline painted a sunrise", { conversation: "A", sourceId: "target" }),
      ...["Caroline went out", "Caroline slept late", "Caroline called Mel", "Caroline cooked rice", "Caroline is tired"].map((text, i) => message(text, { conversation: "A", sourceId: `a${i}` })),
      ...["Caroline bought milk", "Mel walked the dog"].map((text, i) => message(text, { conversation: "B", sourceId: `b${i}` })),
    ]);
    for (const method of ["rrf", "coverage", "linear"] as const) {
      configureFusion({ method, weights: {} });
      try {
        const found = await coldcontextQuery(store.client, "Caroline sunrise", { k: 10, conversation: "A", channels: ["words", "grams"] });
        assert.deepEqual(
          found.flatMap((f) => f.sources),
          ["target"],
          method,
        );
      } finally {
        configureFusion(FusionConfigSchema.parse({}));
      }
    }
  });
});

describe("coverage, as the BM25 channels report it", () => {
  test("a message of average length holding each query term once covers 1; with terms it lacks, their share of the query's idf is missing", async () => {
    await using store = await openTempStore();
    await seed(
      store,
      ["zorbel quindle frap", "mox tivvy plunder", "garnet oxbow sleet", "harrow kelp nimbus"].map((text, i) => message(text, { sourceId: `m${i}` })),
    );
    const coverageOf = async (query: string) => {
      const [top] = await coldcontextQuery(store.client, query, { k: 1, channels: ["words"] });
      assert.deepEqual(top!.sources, ["m0"], query);
      return top!.channels.words!.coverage!;
    };
    assert.ok(Math.abs((await coverageOf("zorbel quindle frap")) - 1) < 1e-9);
    // Three more terms found in no message (idf ln(4.5/0.5)) beside three found in one of four (ln(3.5/1.5)).
    const found = Math.log(3.5 / 1.5);
    const part = await coverageOf("zorbel quindle frap wombat yodel quasar");
    assert.ok(Math.abs(part - found / (found + Math.log(4.5 / 0.5))) < 1e-9, String(part));
  });
});

describe("coverage of a whole lookup", () => {
  test("a message holding every word asked, run together so jieba's words miss them, outranks one holding only the rarest", async () => {
    await using store = await openTempStore();
    const filler = [
      "harbour fees went up",
      "the lift is broken again",
      "parking on level two",
      "tickets for saturday",
      "we met at the cafe",
      "the boat leaves at nine",
      "dinner with the team",
      "a long walk by the lake",
    ];
    await seed(store, [
      message("notes on the zorbel", { sourceId: "rarest-only" }),
      message("she said zorbelquindlefrap", { sourceId: "all-three" }),
      ...filler.map((text, i) => message(`${text} quindle`, { sourceId: `q${i}` })),
      ...filler.map((text, i) => message(`${text} frap`, { sourceId: `f${i}` })),
      ...filler.map((text, i) => message(text, { sourceId: `x${i}` })),
    ]);
    const found = await coldcontextQuery(store.client, "zorbel quindle frap", { k: 5, channels: ["words", "grams"] });
    assert.deepEqual(
      found.slice(0, 2).map((f) => f.sources[0]),
      ["all-three", "rarest-only"],
    );
    const rarestOnly = found[1]!.channels.words!;
    // First in words and holding most of the query's idf (the other two words are everyday here),
    // but one of the three words asked: it covers a third.
    assert.equal(rarestOnly.rank, 1);
    assert.ok(Math.abs(rarestOnly.coverage! - 1 / 3) < 1e-9, String(rarestOnly.coverage));
  });
});

describe("coverage, as facts (L3) report it", () => {
  test("a fact's coverage is the share of the query's words it holds, so its fused score is on the events' scale", async () => {
    await using store = await openTempStore();
    const tx = await store.client.transaction("write");
    await writeFact(tx, { subject: "Mia", predicate: "likes", object: "oolong", kind: "preference", scope: "conv-a", confidence: 0.9, importance: 0.5, evidence: "manual" });
    await tx.commit();
    tx.close();
    const scoreOf = async (query: string) => {
      const [fact] = await stableQuery(store.client, query, { k: 1, conversation: "conv-a" });
      assert.deepEqual(fact!.channels.sort(), ["grams", "words"], query);
      return fact!.score;
    };
    const close = (x: number, y: number) => assert.ok(Math.abs(x - y) < 1e-12, `${x} != ${y}`);
    // First in both channels and holding all of the query: as high as an event can score from them.
    close(await scoreOf("Mia oolong"), bestLexicalScore("coverage", EQUAL_WEIGHTS));
    close(await scoreOf("Mia oolong zebra"), (2 * (1 + 3 * (2 / 3) ** 2)) / 61);
  });
});
