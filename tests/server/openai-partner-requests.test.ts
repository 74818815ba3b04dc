/**
 * One partner's `/v1/chat/completions` requests (issue 31.8), with the official `openai` SDK
 * against a real daemon whose provider takes about a second per answer: concurrent requests that
 * bring their own messages run side by side (they ran one after another: 4 streams took 18 s),
 * their turns are all stored whole in the partner's session, and an assistant prefill at the end
 * of `messages` is refused naming the field, never dropped.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

/** Between each of a streamed answer's four chunks: about a second an answer. */
const CHUNK_DELAY_MS = 170;

const lastUser = (r: ReceivedRequest): string => [...r.body.messages].reverse().find((m: { role: string }) => m.role === "user")?.content ?? "";

describe("one partner's concurrent /v1 requests", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  let client: OpenAI;

  before(async () => {
    dir = tempDir("homed-openai-partner-");
    provider = await startScriptedProvider((r) => ({ content: `echo ${lastUser(r)}`, delayMs: CHUNK_DELAY_MS }));
    daemon = await startApiDaemon(dir.path, provider.url);
    client = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: daemon.headers.authorization!.slice("Bearer ".length), maxRetries: 0 });
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  const streamed = async (content: string) => {
    const stream = await client.chat.completions.create({ model: "homed", user: "alice", stream: true, messages: [{ role: "user", content }] });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    return text;
  };

  test("four slow streams of one user run side by side, and each turn is stored whole in the user's session", async () => {
    // The first turn loads the tokenizer and the embedder: not what is measured.
    assert.equal(await streamed("warm-up"), "echo warm-up");
    const one = performance.now();
    assert.equal(await streamed("q0"), "echo q0");
    const single = performance.now() - one;

    const started = performance.now();
    const answers = await Promise.all(["q1", "q2", "q3", "q4"].map(streamed));
    const together = performance.now() - started;
    assert.deepEqual(answers, ["echo q1", "echo q2", "echo q3", "echo q4"]);
    console.log(`one stream ${single.toFixed(0)} ms; four of one user together ${together.toFixed(0)} ms`);
    assert.ok(together < 2 * single, `four streams took ${together.toFixed(0)} ms, one took ${single.toFixed(0)} ms: they queued`);
    assert.ok(together < 2_500, `four streams took ${together.toFixed(0)} ms`);

    // One session for the user (no X-Homed-Session): every input and answer in it, each answer after its input.
    const sessions = (await (await fetch(`${daemon.url}/api/sessions`, { headers: daemon.headers })).json()) as { sessions: { id: string; channel: string; partner: string }[] };
    const alice = sessions.sessions.filter((s) => s.channel === "openai" && s.partner === "alice");
    assert.equal(alice.length, 1);
    const events = (await (await fetch(`${daemon.url}/api/sessions/${alice[0]!.id}/context`, { headers: daemon.headers })).json()) as { messages: { role: string; content: string }[] }[];
    const said = events.flatMap((e) => e.messages.map((m) => `${m.role}:${m.content}`));
    for (const q of ["warm-up", "q0", "q1", "q2", "q3", "q4"]) {
      const asked = said.indexOf(`user:${q}`);
      assert.ok(asked >= 0, `${q} is stored (${said.join(" | ")})`);
      assert.ok(said.indexOf(`assistant:echo ${q}`) > asked, `the answer to ${q} is stored after it`);
    }
    assert.equal(said.length, 12, said.join(" | "));
  });

  test("an assistant prefill at the end of messages is refused with a 400 naming it, and nothing reaches the provider", async () => {
    const before = provider.requests.length;
    const error = await client.chat.completions
      .create({
        model: "homed",
        user: "alice",
        messages: [
          { role: "user", content: "Write a haiku about tea" },
          { role: "assistant", content: "Steam rises" },
        ],
      })
      .catch((e) => e);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.type, "invalid_request_error");
    assert.equal(error.param, "messages.1");
    assert.match(error.message, /assistant message at the end \(a prefill/);
    assert.equal(provider.requests.length, before, "the provider was not asked");
  });
});
