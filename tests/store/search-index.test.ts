/**
 * What a document's search rows hold: its own text and its neighbours' (context) in columns of
 * their own, analysed up to one ANALYSED_CHARS budget between them, own text first.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { searchRows, SEARCH_TABLES } from "../../src/store/index.ts";
import { ANALYSED_CHARS } from "../../src/text/index.ts";

/** The own text and context written to the trigram table. */
async function gramColumns(own: string, context: string): Promise<[string, string]> {
  const rows = await searchRows("event", "ev-1", { own, context }, "k", 1);
  const grams = rows.find((r) => typeof r !== "string" && r.sql.includes(SEARCH_TABLES.event.grams));
  const args = (grams as { args: unknown[] }).args;
  return [String(args.at(-2)), String(args.at(-1))];
}

describe("search rows", () => {
  test("a short message keeps its own text and its neighbours' apart, both whole", async () => {
    assert.deepEqual(await gramColumns("Ann: the key is in the drawer", "I tidied the desk\nThanks"), ["Ann: the key is in the drawer", "I tidied the desk\nThanks"]);
  });

  test("own text and context share one ANALYSED_CHARS budget, own text first", async () => {
    // The reply to a pasted page: its context (the page) gets only what its own text left over,
    // so the row costs what one text of ANALYSED_CHARS did, not twice that.
    const page = "页".repeat(3 * ANALYSED_CHARS);
    const [own, context] = await gramColumns("ok, reading it", page);
    assert.equal(own, "ok, reading it");
    assert.equal(own.length + 1 + context.length, ANALYSED_CHARS);
    const [pasted, after] = await gramColumns(page, "what do you think?");
    assert.equal(pasted.length, ANALYSED_CHARS);
    assert.equal(after, "");
  });
});
