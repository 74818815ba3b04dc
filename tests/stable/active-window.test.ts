/**
 * The active window may hold L2 events (DESIGN §3): a cold event the model has used three times
 * (cited: the real citation path) is injected every turn beside the important facts, whatever the
 * turn's words; used twice, it is not; another partner's private event never is.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { buildInjection, DEFAULT_INJECTION, recordCitations, shortId } from "../../src/memory/index.ts";
import type { Store } from "../../src/store/index.ts";
import { message, storeWith } from "./support.ts";

let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

const active = async (input: string, viewer?: { partner: string }) =>
  (await buildInjection(store!.client, input, { config: DEFAULT_INJECTION, ...(viewer ? { viewer } : {}) })).lines.filter((l) => l.band === "ACTIVE");

/** The model's answer cites the allergy line `times` times, through the real injection + citation path. */
async function cite(times: number, query: string) {
  for (let i = 0; i < times; i++) {
    const injection = await buildInjection(store!.client, query, { config: DEFAULT_INJECTION });
    const line = injection.lines.find((l) => /peanuts/.test(l.line))!;
    await recordCitations(store!.client, `Careful (id:${shortId(line.id)})`, injection.lines);
  }
}

describe("active window", () => {
  test("a cold event in steady use is injected every turn; one used twice is not", async () => {
    ({ store } = await storeWith([
      message(0, "Mia is allergic to peanuts, keep them out of every recipe."),
      message(1, "The ferry to Xiamen leaves at nine."),
      message(2, "Ben's private note: the spare key code is 7261.", { privateTo: "partner:Ben" }),
      // Enough ferry talk to fill every band for a ferry question: what the active window shows
      // is then there because of its uses, not because the search reached it.
      ...Array.from({ length: 12 }, (_, i) => message(3 + i, `The ferry on day ${i + 1} leaves the harbour at ${i + 6} o'clock.`)),
    ]));
    await cite(2, "what is Mia allergic to?");
    assert.deepEqual(await active("when does the ferry leave?"), [], "two uses: still cooling material, not standing");
    await cite(1, "what is Mia allergic to?");
    const [line] = await active("when does the ferry leave?");
    assert.ok(line, "three uses: in the active window");
    assert.equal(line.layer, "L2");
    assert.match(line.line, /\[L2 · verbatim source\] .*allergic to peanuts/);
    // Another partner's private event, however often used, stays out of Mia's chat.
    await store.client.execute("UPDATE events SET access_count = 9 WHERE private_to = 'partner:Ben'");
    assert.doesNotMatch(JSON.stringify(await active("when does the ferry leave?", { partner: "Mia" })), /\b7261\b/);
    assert.match(JSON.stringify(await active("when does the ferry leave?", { partner: "Ben" })), /\b7261\b/);
  });
});
