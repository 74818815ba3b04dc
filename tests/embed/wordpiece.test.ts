/**
 * Token ids checked by hand against tests/fixtures/tiny-clip/fp32/vocab.txt, whose layout is
 * the real one's: [PAD]=0, [UNK]=100, [CLS]=101, [SEP]=102, then (from line 104):
 * 我104 爱105 北106 京107 天108 安109 门110 的111 猫112 狗113 ，114 。115 ！116 ？117 、118 （119
 * ）120 hello121 world122 un123 ##aff124 ##able125 play126 ##ing127 the128 cafe129 naive130
 * ,131 .132 !133 ?134 '135 -136 a137 ##b138 1 139 ##2 140 ##3 141 2024 142 ai143 中144 文145.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { basicTokenize, CONTEXT_LENGTH, WordPieceTokenizer } from "../../src/embed/index.ts";
import { TINY_CLIP_DIR } from "../fixtures/make-tiny-clip.ts";

const tokenizer = new WordPieceTokenizer(readFileSync(join(TINY_CLIP_DIR, "fp32", "vocab.txt"), "utf8"));
const ids = (text: string) => tokenizer.tokenize(text);
const encoded = (text: string) => Array.from(tokenizer.encode(text), Number);

describe("WordPiece tokenizer", () => {
  test("Chinese: every CJK character is its own token", () => {
    assert.deepEqual(ids("我爱北京天安门"), [104, 105, 106, 107, 108, 109, 110]);
  });

  test("English: lower-cased, punctuation split off", () => {
    assert.deepEqual(ids("Hello, World!"), [121, 131, 122, 133]);
  });

  test("word pieces: greedy longest match with ## continuations", () => {
    assert.deepEqual(ids("unaffable playing"), [123, 124, 125, 126, 127]);
    assert.deepEqual(ids("12 2024"), [139, 140, 142]);
  });

  test("a word whose rest cannot be matched is [UNK] as a whole", () => {
    assert.deepEqual(ids("unaffablex dog a123"), [100, 100, 100]);
  });

  test("a word over 100 characters is [UNK] whole; at 100 it is still split", () => {
    assert.deepEqual(ids(`1${"2".repeat(99)}`), [139, ...new Array(99).fill(140)]);
    assert.deepEqual(ids(`1${"2".repeat(100)}`), [100]);
  });

  test("mixed Chinese and English without spaces", () => {
    assert.deepEqual(ids("我的猫playing中文AI。"), [104, 111, 112, 126, 127, 144, 145, 143, 115]);
  });

  test("punctuation: full-width and ASCII, including ASCII symbols Unicode does not call punctuation", () => {
    assert.deepEqual(ids("（你好）、！？"), [119, 100, 100, 120, 118, 116, 117]);
    assert.deepEqual(ids("don't-$"), [100, 135, 100, 136, 100]);
    assert.deepEqual(basicTokenize("a$b^c"), ["a", "$", "b", "^", "c"]);
  });

  test("accents are stripped, control and format characters dropped, odd spaces split", () => {
    assert.deepEqual(ids("Café NAÏVE"), [129, 130]);
    assert.deepEqual(ids("我\u0000爱\t\u200b猫\u3000the\ufffd"), [104, 105, 112, 128]);
  });

  test("framing: [CLS] ids [SEP], zero-padded to 52", () => {
    const out = encoded("我爱猫");
    assert.equal(out.length, CONTEXT_LENGTH);
    assert.deepEqual(out.slice(0, 6), [101, 104, 105, 112, 102, 0]);
    assert.ok(out.slice(5).every((v) => v === 0));
    assert.deepEqual(encoded("").slice(0, 3), [101, 102, 0]);
  });

  test("over-length input keeps the first 50 pieces and still ends with [SEP]", () => {
    for (const n of [50, 51, 80]) {
      const out = encoded(`${"猫".repeat(n - 1)}狗`);
      assert.equal(out.length, CONTEXT_LENGTH);
      assert.equal(out[0], 101);
      assert.equal(out[51], 102, `n=${n}`);
      assert.equal(out[50], n === 50 ? 113 : 112, `n=${n}`);
    }
  });

  test("a vocab without [UNK]/[CLS]/[SEP] is refused with a clear message", () => {
    assert.throws(() => new WordPieceTokenizer("[PAD]\n我\n"), /Cannot build tokenizer: vocab.txt has no \[UNK\]/);
  });
});
