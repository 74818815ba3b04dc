/**
 * Recall's injection follows the model's context window and the scores' fall-off
 * (memory/injection-window.ts): a short or unknown window gets the configured bands; a large one
 * more memories and longer lines, but past the configured bands only memories that still score
 * near the best.
 */
import { afterEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { buildInjection, DEFAULT_INJECTION, InjectionConfigSchema } from "../../src/memory/index.ts";
import { whileStrong } from "../../src/memory/injection-window.ts";
import type { Store } from "../../src/store/index.ts";
import { message, storeWith } from "./support.ts";

let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

/** 40 cold events that all match "harbour ferry timetable" about equally, each a long line. */
const equallyStrong = () => Array.from({ length: 40 }, (_, i) => message(i, `harbour ferry timetable note ${i}: ${"the boats leave from pier seven on the hour ".repeat(6)}`));
const inject = (input: string, contextWindow?: number, config = DEFAULT_INJECTION) =>
  buildInjection(store!.client, input, { conversation: "conv-a", config, ...(contextWindow ? { contextWindow } : {}) });
const configured = DEFAULT_INJECTION.bands.immediate.items + DEFAULT_INJECTION.bands.working.items + DEFAULT_INJECTION.bands.background.items;

describe("injection sized to the window", () => {
  test("an unknown or short window gets the configured bands, unchanged", async () => {
    ({ store } = await storeWith(equallyStrong()));
    const unknown = await inject("harbour ferry timetable");
    const short = await inject("harbour ferry timetable", 8192);
    const atBase = await inject("harbour ferry timetable", DEFAULT_INJECTION.window.baseTokens);
    assert.ok(unknown.lines.length > 0 && unknown.lines.length <= configured);
    assert.deepEqual(short.lines, unknown.lines);
    assert.deepEqual(atBase.lines, unknown.lines);
    assert.ok(unknown.lines.every((l) => l.line.length <= DEFAULT_INJECTION.lineChars + 20));
  });

  test("a 128k window gets more memories and longer lines when more are about as relevant", async () => {
    ({ store } = await storeWith(equallyStrong()));
    const small = await inject("harbour ferry timetable", 8192);
    const large = await inject("harbour ferry timetable", 131_072);
    assert.ok(large.lines.length >= 2 * small.lines.length, `${large.lines.length} lines at 128k against ${small.lines.length} at 8k`);
    assert.ok(large.chars > 2 * small.chars, `${large.chars} characters at 128k against ${small.chars}`);
    const longest = (lines: { line: string }[]) => Math.max(...lines.map((l) => l.line.length));
    assert.ok(longest(large.lines) > longest(small.lines), "each memory may be longer");
    // Growth is capped: a 10M-token window gets no more than maxScale times the bands.
    const huge = await inject("harbour ferry timetable", 10_000_000);
    assert.ok(huge.lines.length <= configured * DEFAULT_INJECTION.window.maxScale);
  });

  test("past the configured bands, only memories scoring near the best go in: the fall-off decides, not the room", () => {
    const ranked = [1, 0.9, 0.8, 0.3, 0.2, 0.6, 0.55, 0.4].map((score, i) => ({ id: `m${i}`, score })).sort((a, b) => b.score - a.score);
    // The first three always stay (the configured bands); after them only scores ≥ half the best.
    assert.deepEqual(
      whileStrong(ranked, 3, 0.5).map((r) => r.score),
      [1, 0.9, 0.8, 0.6, 0.55],
    );
    assert.deepEqual(
      whileStrong(ranked, 3, 0).map((r) => r.score),
      ranked.map((r) => r.score),
      "no cut: everything",
    );
    assert.deepEqual(
      whileStrong(ranked, 8, 0.99).map((r) => r.score),
      ranked.map((r) => r.score),
      "the configured count is never cut",
    );
  });

  test("the window thresholds are validated with their names", () => {
    for (const bad of [{ baseTokens: 10 }, { maxScale: 0.5 }, { tailRatio: 2 }]) {
      const parsed = InjectionConfigSchema.safeParse({ window: { ...DEFAULT_INJECTION.window, ...bad } });
      assert.equal(parsed.success, false);
      assert.match(JSON.stringify(parsed.error!.issues[0]!.path), /window/);
    }
  });
});
