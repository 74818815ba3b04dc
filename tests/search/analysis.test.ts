/**
 * What the search index holds of a document: its own text's terms counting twice its neighbours'
 * (context), one ANALYSED_CHARS budget between them, own text first.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { analyseDocument } from "../../src/search/index.ts";
import { ANALYSED_CHARS, cjkBigrams, documentTrigrams, searchWords } from "../../src/text/index.ts";

describe("document analysis for the search index", () => {
  test("own text counts 2 an occurrence, the neighbours' 1, in every channel", async () => {
    const doc = await analyseDocument({ own: "Ann: the key is in the drawer 抽屉", context: "I tidied the desk\n抽屉 drawer" });
    assert.equal(doc.terms.get("wdrawer"), 3, "once in own text (2), once in context (1)");
    assert.equal(doc.terms.get("wdesk"), 1);
    assert.equal(doc.terms.get("wkei"), 2, "Porter stem of key");
    assert.equal(doc.terms.get("tdra"), 3);
    assert.equal(doc.terms.get("b抽屉"), 3);
    assert.equal(doc.terms.get("tdes"), 1);
    assert.equal(doc.terms.has("wthe"), false, "function words are not indexed");
    assert.equal(doc.terms.has("t r "), false, "trigrams never span a space");
    assert.equal(doc.lengths.bigrams, 2);
  });

  test("a speaker's line is indexed exactly as the whole line, though its two sides are analysed apart", async () => {
    // The message after the speaker is analysed (and remembered) apart; the terms must be the whole line's.
    for (const own of ["小明: 我把钥匙放在抽屉里了 key-42", "Dr. Ng: the lab's 9:30 meeting: moved to Room B", "no speaker here at all", "Ann: "]) {
      const expected = new Map<string, number>();
      for (const term of [...(await searchWords(own)).map((w) => `w${w}`), ...documentTrigrams(own).map((t) => `t${t}`), ...cjkBigrams(own).map((b) => `b${b}`)])
        expected.set(term, (expected.get(term) ?? 0) + 2);
      const doc = await analyseDocument({ own });
      assert.deepEqual(new Map([...doc.terms].sort()), new Map([...expected].sort()), own);
      assert.equal(doc.lengths.words, (await searchWords(own)).length);
    }
  });

  test("own text and context share one ANALYSED_CHARS budget, own text first", async () => {
    // The reply to a pasted page: its context (the page) gets only what its own text left over.
    const page = "页".repeat(3 * ANALYSED_CHARS);
    const reply = await analyseDocument({ own: "ok, reading it", context: page });
    assert.equal(reply.lengths.bigrams, ANALYSED_CHARS - "ok, reading it\n".length - 1);
    assert.equal(reply.terms.get("b页页"), reply.lengths.bigrams, "context bigrams count 1 each");
    const pasted = await analyseDocument({ own: page, context: "what do you think?" });
    assert.equal(pasted.lengths.bigrams, ANALYSED_CHARS - 1);
    assert.equal(pasted.terms.get("b页页"), 2 * (ANALYSED_CHARS - 1));
    assert.equal(pasted.terms.has("wthink"), false, "no budget left for the context");
  });
});
