/** topicWords: a text's topic words as written (for scene names), not search stems. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { topicWords } from "../../src/text/index.ts";

test("topic words keep the writer's spelling, drop function words and punctuation, stop at max", async () => {
  assert.deepEqual(await topicWords("Please use the recall tool", 8), ["Please", "use", "recall", "tool"]);
  assert.deepEqual(await topicWords("What colour is my boat? What colour!", 8), ["colour", "boat"]);
  assert.deepEqual(await topicWords("我的船漆成什么颜色了？", 8), ["船漆成", "颜色"]);
  assert.deepEqual(await topicWords("alpha beta gamma delta", 2), ["alpha", "beta"]);
  assert.deepEqual(await topicWords("", 8), []);
});
