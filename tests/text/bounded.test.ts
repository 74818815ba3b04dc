/**
 * Bounded work for any text: pieces, token counts of any shape, caps on what search analyses.
 * Before: 100,000 random CJK characters took 52 s to count, 100,000 × "a" 7.9 s, and jieba on a
 * 50 MB line crashed its wasm.
 */
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cpuUsage } from "node:process";
import fc from "fast-check";
import { countTokens as wholeTextCount } from "gpt-tokenizer/encoding/o200k_base";
import {
  analysedPart,
  ANALYSED_CHARS,
  COUNTED_PIECES,
  countTokens,
  countTokensYielding,
  loadJieba,
  loadTokenizer,
  PIECE_CHARS,
  queryPart,
  QUERY_CHARS,
  searchWords,
  textPieces,
} from "../../src/text/index.ts";
import { ROOT } from "../support/process.ts";

/**
 * This process's CPU time, in ms: "bounded time" is bounded work, and CPU time is what a loaded
 * machine does not stretch (with two CPU hogs at load average ~13 the wall time of the shapes
 * test went from 2.4 s to 5.8 s, 7 s under Deno).
 */
const cpuMs = () => {
  const used = cpuUsage();
  return (used.user + used.system) / 1000;
};

before(async () => {
  await loadTokenizer();
  await loadJieba();
});

/** A deterministic pseudo-random text of `n` characters, each `char(random)`. */
function generated(n: number, char: (r: number) => string, seed = 12345): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    out.push(char(seed >>> 8));
  }
  return out.join("");
}

const SHAPES: Record<string, (n: number) => string> = {
  "random CJK": (n) => generated(n, (r) => String.fromCodePoint(0x4e00 + (r % 20000))),
  "random Latin letters": (n) => generated(n, (r) => String.fromCharCode(97 + (r % 26))),
  "one letter repeated": (n) => "a".repeat(n),
  base64: (n) =>
    Buffer.from(
      generated(n, (r) => String.fromCharCode(r % 256)),
      "latin1",
    )
      .toString("base64")
      .slice(0, n),
  "astral CJK (surrogate pairs)": (n) => generated(n / 2, (r) => String.fromCodePoint(0x20000 + (r % 5000))),
};

/** The repository's own source and prose: a real, mixed text (code, English, Chinese comments). */
function repositoryText(chars: number): string {
  const files = readdirSync(join(ROOT, "src"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  let text = readFileSync(join(ROOT, "README.md"), "utf8");
  for (const file of files.sort()) {
    if (text.length >= chars) break;
    text += readFileSync(join(ROOT, "src", file), "utf8");
  }
  while (text.length < chars) text += text;
  return text.slice(0, chars);
}

describe("bounded pieces", () => {
  test("pieces join back to the text, none longer than PIECE_CHARS, no surrogate pair split", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "字", "𠀀", " ", "。", "\n", "1", "-"), maxLength: 3000 });
    fc.assert(
      fc.property(text, (t) => {
        const pieces = [...textPieces(t)];
        assert.equal(pieces.join(""), t);
        for (const piece of pieces) {
          assert.ok(piece.length > 0 && piece.length <= PIECE_CHARS);
          assert.doesNotMatch(piece, /^[\udc00-\udfff]|[\ud800-\udbff]$/, "a surrogate pair was cut");
        }
      }),
      { numRuns: 300 },
    );
  });

  test("a piece ends before a run of spaces or punctuation when its second half has one", () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    for (const piece of [...textPieces(words)].slice(1)) assert.match(piece, /^ word\d+/);
    const zh = "这是一个没有空格的句子，".repeat(100);
    for (const piece of [...textPieces(zh)].slice(1)) assert.match(piece, /^，/);
  });
});

describe("token counts of any text", () => {
  for (const [shape, make] of Object.entries(SHAPES)) {
    test(`${shape}: within 1 % of the whole-text count`, () => {
      const text = make(6000);
      const whole = wholeTextCount(text, { disallowedSpecial: new Set() });
      const counted = countTokens(text);
      assert.ok(Math.abs(counted - whole) <= whole * 0.01, `${counted} vs ${whole}`);
    });
  }

  test("real mixed text: piece by piece within 0.1 % up to 256,000 characters, sampled beyond within 1 %", () => {
    const text = repositoryText(1_000_000);
    assert.ok(text.length > COUNTED_PIECES * PIECE_CHARS, "the text is long enough to be sampled");
    let exact = 0;
    for (const piece of textPieces(text)) exact += countTokens(piece);
    const sampled = countTokens(text);
    assert.ok(Math.abs(sampled - exact) <= exact * 0.01, `sampled ${sampled} vs exact ${exact}`);
    const prose = repositoryText(200_000);
    const whole = wholeTextCount(prose, { disallowedSpecial: new Set() });
    assert.ok(Math.abs(countTokens(prose) - whole) <= whole * 0.001, `${countTokens(prose)} vs ${whole}`);
  });

  test("a 200,000-character unbroken run of any shape is counted in bounded time", () => {
    for (const [shape, make] of Object.entries(SHAPES)) {
      const text = make(200_000);
      const started = cpuMs();
      const tokens = countTokens(text);
      const ms = cpuMs() - started;
      // Before pieces: ~200 s for random CJK, ~30 s for one letter repeated.
      assert.ok(ms < 10_000, `${shape}: ${Math.round(ms)} ms of CPU for ${tokens} tokens`);
    }
  });

  test("countTokensYielding gives the event loop its turn and counts the same", async () => {
    // A seed of its own: the tokenizer caches what it has seen, and this text must be new to it.
    const text = generated(60_000, (r) => String.fromCodePoint(0x4e00 + (r % 20000)), 777);
    // Turns of the loop are counted, not timed: on a busy machine the OS alone stretches any
    // gap, but a loop that is never given back runs no timer at all until the count ends.
    let turns = 0;
    let counting = true;
    const timer = setInterval(() => {
      if (counting) turns++;
    }, 1);
    const started = performance.now();
    const yielding = await countTokensYielding(text);
    const ms = performance.now() - started;
    counting = false;
    clearInterval(timer);
    assert.equal(yielding, countTokens(text));
    // Counting all of it takes a few hundred ms: the loop must have turned all along the way.
    assert.ok(turns >= Math.min(20, ms / 20), `the event loop turned ${turns} times in ${Math.round(ms)} ms`);
  });
});

describe("what search analyses", () => {
  test("a stored text is analysed up to ANALYSED_CHARS, a query up to QUERY_CHARS (start and end)", () => {
    const long = `${"x".repeat(ANALYSED_CHARS)}TAIL`;
    assert.equal(analysedPart(long).length, ANALYSED_CHARS);
    assert.equal(analysedPart("short"), "short");
    const astral = "𠀀".repeat(ANALYSED_CHARS);
    assert.doesNotMatch(analysedPart(astral), /[\ud800-\udbff]$/);
    const query = `QUESTION ${"y".repeat(50_000)} LAST WORDS`;
    const part = queryPart(query);
    assert.ok(part.length <= QUERY_CHARS + 1);
    assert.match(part, /^QUESTION /);
    assert.match(part, / LAST WORDS$/);
    assert.equal(queryPart("what did I say?"), "what did I say?");
  });

  test("words of a 50 MB line: bounded, no wasm crash (before: 'Unreachable code should not be executed')", async () => {
    const line = "字".repeat(50 * 1024 * 1024);
    const started = cpuMs();
    const words = await searchWords(line);
    assert.ok(words.length > 0 && words.join("").length <= ANALYSED_CHARS);
    assert.ok(cpuMs() - started < 10_000, `${Math.round(cpuMs() - started)} ms of CPU`);
  });
});
