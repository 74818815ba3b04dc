/**
 * The open-vocabulary benchmark's real-text mode (bench/openvocab/real-corpus.ts): its figures
 * stand for "text no one in the project wrote", so the corpus must be the same each run, its
 * queries really in their target, never everyday words, and never aimed at the generated filler.
 * Needs the dev data (/work/shared/data, or HOMED_DEV_DATA); skipped without it.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { exactLookups } from "../../bench/openvocab/corpus.ts";
import { DEV_DATA, MAX_HOLDERS, realCorpus, realMessages, STOP_WORDS, words } from "../../bench/openvocab/real-corpus.ts";

const haveData = existsSync(join(DEV_DATA, "locomo", "locomo-dev.json")) && existsSync(join(DEV_DATA, "madial", "dialogue-dev.jsonl"));

describe("bench/openvocab real text", { skip: !haveData && "no dev data" }, () => {
  const all = realMessages();
  const mixed = realCorpus(all.length + 2000);
  const lookups = exactLookups(mixed, 150);

  test("the real messages: LoCoMo turns, MADial memories and dialogue lines, each id unique", () => {
    assert.ok(all.length > 3000, `${all.length}`);
    assert.equal(new Set(all.map((l) => l.id)).size, all.length);
    assert.ok(all.some((l) => l.id === "conv-26:D1:3"));
    assert.ok(all.some((l) => l.id === "user-1:M1"));
    assert.ok(all.some((l) => l.id.startsWith("user-1/dialogue-") && /\p{Script=Han}/u.test(l.text) && !l.text.includes('"')));
  });

  test("the same size gives the same corpus and lookups; a smaller size an even subset of the real messages", () => {
    const again = realCorpus(all.length + 2000);
    assert.deepEqual(again.lines, mixed.lines);
    assert.deepEqual(again.rareTerms, mixed.rareTerms);
    assert.deepEqual(exactLookups(again, 150), lookups);
    const small = realCorpus(1000);
    assert.equal(small.real, 1000);
    assert.equal(small.filler, 0);
    const ids = new Set(all.map((l) => l.id));
    assert.ok(small.lines.every((l) => ids.has(l.id)));
    assert.ok(small.lines.some((l) => l.conversation === "conv-43") && small.lines.some((l) => l.conversation.startsWith("user-1")));
  });

  test("above the real count every real message is there, the rest filler", () => {
    assert.equal(mixed.lines.length, all.length + 2000);
    assert.equal(mixed.real, all.length);
    assert.equal(mixed.filler, 2000);
    const real = new Set(all.map((l) => l.id));
    assert.equal(mixed.lines.filter((l) => real.has(l.id)).length, all.length);
  });

  test("each lookup targets a real message and its terms are all in that message's text", () => {
    assert.equal(lookups.length, 150);
    const byId = new Map(mixed.lines.map((l) => [l.id, l]));
    const real = new Set(all.map((l) => l.id));
    for (const q of lookups) {
      assert.ok(real.has(q.target), `${q.target} is filler`);
      const text = byId.get(q.target)!.text;
      const segmented = new Set(words(text));
      for (const t of q.query.split(" ")) assert.ok(text.includes(t) && segmented.has(t), `${t} in ${q.target}: ${text}`);
    }
  });

  test("rare terms are rare, long enough and never stop words; filler carries none", () => {
    const holders = new Map<string, number>();
    for (const l of all) for (const t of new Set(words(l.text).map((w) => w.toLowerCase()))) holders.set(t, (holders.get(t) ?? 0) + 1);
    const real = new Set(all.map((l) => l.id));
    mixed.rareTerms.forEach((terms, i) => {
      if (!real.has(mixed.lines[i]!.id)) assert.deepEqual(terms, [], `filler ${mixed.lines[i]!.id} has query terms`);
      for (const t of terms) {
        assert.ok(!STOP_WORDS.has(t.toLowerCase()), t);
        assert.ok((holders.get(t.toLowerCase()) ?? 0) <= MAX_HOLDERS, `${t} held by ${holders.get(t.toLowerCase())}`);
        assert.ok([...t].length >= (/\p{Script=Han}/u.test(t) ? 2 : 3), t);
      }
    });
    // The mode is only worth running if the rare words are there: Chinese and English targets both.
    assert.ok(lookups.some((q) => /\p{Script=Han}/u.test(q.query)) && lookups.some((q) => /^[\p{Script=Latin} ]+$/u.test(q.query)));
  });
});
