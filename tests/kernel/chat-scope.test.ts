/**
 * DESIGN §3 Scopes, through real chat turns: homed serves one user, so a chat recalls all of
 * the user's memory (its own conversation first) and never what is private to another partner.
 * The memory line the model was sent is read off the provider's request.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { importHistory, OWNER, partnerAccess, runMemoryTool, type PrivateScope } from "../../src/memory/index.ts";
import { kernelHarness, type Harness } from "./support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

let clock = Date.UTC(2025, 0, 1);
const line = (conversation: string, id: string, text: string, privateTo: PrivateScope | null = null) => ({
  conversation,
  session: `${conversation}-s1`,
  time: (clock += 60_000),
  speaker: "me",
  role: "user" as const,
  sourceId: id,
  text,
  privateTo,
});

/** The memory text the model received on request `n`. */
const memoryOf = (harness: Harness, n: number): string =>
  harness.provider.requests[n]!.body.messages.map((m: { content?: unknown }) => (typeof m.content === "string" ? m.content : ""))
    .filter((c: string) => c.includes("Memory (cite"))
    .join("\n");

async function ask(harness: Harness, partner: string, input: string): Promise<string> {
  const session = await harness.kernel.sessions.open("test", partner);
  await harness.kernel.turn({ session, input });
  return memoryOf(harness, harness.provider.requests.length - 1);
}

describe("chat recall scopes", () => {
  test("imported history (conversation conv-mia) is recalled from a chat with any partner", async () => {
    h = await kernelHarness(() => ({ content: "ok" }));
    await importHistory(h.store.client, [line("conv-mia", "1", "I parked the car at the airport, level P3 row 12"), line("conv-mia", "2", "the flight to Lisbon leaves at nine")]);
    for (const partner of ["Mia", "Bob", "conv-mia"]) {
      const memory = await ask(h, partner, "Where did I park at the airport?");
      assert.match(memory, /level P3 row 12/, partner);
    }
  });

  test("a partner-private memory reaches that partner's chats and never another's", async () => {
    h = await kernelHarness(() => ({ content: "ok" }));
    await importHistory(h.store.client, [
      line("conv-mia", "1", "the surprise party for Mia's sister is on Friday", "partner:Mia"),
      line("conv-mia", "2", "bring the surprise cake for the party", "project:birthday"),
    ]);
    // A hand-written private fact, important enough for the active window of every turn.
    await runMemoryTool("memory_note", { text: "Mia's door code is 4412", scope: "partner:Mia", importance: 0.95 }, { client: h.store.client, access: OWNER });
    const bob = await ask(h, "Bob", "when is the surprise party? what is the door code?");
    assert.doesNotMatch(bob, /Friday|\b4412\b|cake/);
    const mia = await ask(h, "Mia", "when is the surprise party? what is the door code?");
    assert.match(mia, /Friday/);
    assert.match(mia, /4412/);
    assert.doesNotMatch(mia, /cake/, "a project's memory stays in the project");
    // The model's own recall tool in Bob's chat keeps the same rule.
    const tool = await runMemoryTool("memory_recall", { query: "surprise party door code" }, { client: h.store.client, conversation: "Bob", access: partnerAccess("Bob") });
    assert.doesNotMatch(JSON.stringify(tool), /Friday|\b4412\b|cake/);
    // Nor does listing, even when Bob's chat names Mia's conversation.
    for (const [layer, conversation] of [
      ["L2", "conv-mia"],
      ["L3", "Mia"],
    ] as const) {
      const listed = await runMemoryTool("memory_list", { layer, conversation }, { client: h.store.client, conversation: "Bob", access: partnerAccess("Bob") });
      assert.doesNotMatch(JSON.stringify(listed), /Friday|\b4412\b|cake/, layer);
    }
    const mias = await runMemoryTool("memory_list", { layer: "L2", conversation: "conv-mia" }, { client: h.store.client, conversation: "Mia", access: partnerAccess("Mia") });
    assert.match(JSON.stringify(mias), /"privateTo":"partner:Mia"/);
  });

  test("the chat's own conversation ranks above an equally matching memory from elsewhere", async () => {
    h = await kernelHarness(() => ({ content: "ok" }));
    await importHistory(h.store.client, [line("Ann", "1", "the dentist appointment is on the fourth"), line("Bob", "1", "the dentist appointment is on the ninth")]);
    // Facts too: one noted in each conversation, equally worded.
    for (const [scope, where] of [
      ["Ann", "Elm"],
      ["Bob", "Oak"],
    ]) {
      await runMemoryTool("memory_note", { subject: "the dentist", predicate: "practises on", object: `${where} street`, scope, importance: 0.1 }, { client: h.store.client, access: OWNER });
    }
    for (const [partner, own, other, ownFact, otherFact] of [
      ["Bob", "ninth", "fourth", "Oak", "Elm"],
      ["Ann", "fourth", "ninth", "Elm", "Oak"],
    ] as const) {
      const memory = await ask(h, partner, "when is the dentist appointment, which street?");
      assert.ok(memory.includes(other) && memory.includes(otherFact), `${partner}: the other conversation's memories are still recalled\n${memory}`);
      assert.ok(memory.indexOf(own) < memory.indexOf(other), `${partner}: its own memory first\n${memory}`);
      assert.ok(memory.indexOf(ownFact) < memory.indexOf(otherFact), `${partner}: its own fact first\n${memory}`);
    }
  });
});
