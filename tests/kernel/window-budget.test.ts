/**
 * A turn's request budget follows the model's window when it is known (src/kernel/window-budget.ts):
 * a model served with 8,192 tokens was sent requests of up to the configured 24,000 and refused
 * them once a conversation outgrew its window. Over the kernel with a scripted model: a long
 * conversation's requests fit the window with room for the answer; an unknown window keeps the
 * configured budget.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { messageTokens } from "../../src/context/index.ts";
import { ANSWER_RESERVE_MAX, answerTokensOf, budgetFor, MIN_REQUEST_BUDGET } from "../../src/kernel/window-budget.ts";
import { kernelHarness } from "./support.ts";

describe("the request budget and the window", () => {
  test("the configured budget, or the window less the answer's room when that is smaller", () => {
    assert.equal(budgetFor(24_000, undefined), 24_000);
    assert.equal(budgetFor(24_000, 8192), 8192 - 2048);
    assert.equal(budgetFor(24_000, 8192, 1000), 7192);
    assert.equal(budgetFor(24_000, 32_768), 24_000);
    assert.equal(budgetFor(24_000, 131_072), 24_000);
    assert.equal(budgetFor(200_000, 131_072), 131_072 - ANSWER_RESERVE_MAX);
    assert.equal(budgetFor(24_000, 1024, 2000), MIN_REQUEST_BUDGET);
    assert.equal(answerTokensOf({ max_tokens: 500 }), 500);
    assert.equal(answerTokensOf({ max_completion_tokens: 700, max_tokens: 500 }), 700);
    assert.equal(answerTokensOf({ max_tokens: "lots" }), undefined);
    assert.equal(answerTokensOf(undefined), undefined);
  });

  /** The tokens of the largest request the model got over a conversation of 24 turns of ~1,000 tokens each. */
  const largestRequest = async (env: Record<string, string>, params?: Record<string, unknown>) => {
    const h = await kernelHarness(() => ({ content: "noted" }), { env: { HOMED_BASE_URL: "http://127.0.0.1:9/v1", ...env } });
    try {
      const session = await h.kernel.sessions.open("chat", "kim");
      for (let i = 0; i < 24; i++) {
        const input = `Entry ${i}: ${Array.from({ length: 400 }, (_, w) => `word${(i * 131 + w * 7) % 997}`).join(" ")}`;
        await h.kernel.turn({ session, input, ...(params ? { params } : {}) });
      }
      return Math.max(...h.provider.requests.map((r) => (r.body.messages as Parameters<typeof messageTokens>[0][]).reduce((sum, m) => sum + messageTokens(m), 0)));
    } finally {
      await h.close();
    }
  };

  test("the budget the context inspector shows is the active provider's turn budget", async () => {
    for (const [model, expected] of [
      ["moonshot-v1-8k", 8192 - 2048],
      ["scripted-model", 24_000],
    ] as const) {
      const h = await kernelHarness([], { env: { HOMED_BASE_URL: "http://127.0.0.1:9/v1", HOMED_MODEL: model } });
      try {
        assert.equal(await h.kernel.turnBudget(), expected, model);
      } finally {
        await h.close();
      }
    }
  });

  test("a model known to have 8,192 tokens gets requests that leave room for its answer; an unknown one the configured budget", async () => {
    const small = await largestRequest({ HOMED_MODEL: "moonshot-v1-8k" });
    assert.ok(small <= 8192 - 2048, `largest request ${small} tokens`);
    // A client asking for at most 500 tokens of answer leaves 500, not the default quarter: requests grow past 8,192 − 2,048.
    const withAnswer = await largestRequest({ HOMED_MODEL: "scripted-model", HOMED_CONTEXT_WINDOW: "8192" }, { max_tokens: 500 });
    assert.ok(withAnswer <= 8192 - 500 && withAnswer > 8192 - 2048, `largest request ${withAnswer} tokens`);
    const unknown = await largestRequest({ HOMED_MODEL: "scripted-model" });
    assert.ok(unknown > 8192, `the configured 24,000 holds the whole conversation: ${unknown} tokens`);
  });
});
