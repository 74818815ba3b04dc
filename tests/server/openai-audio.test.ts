/**
 * Voice messages through `/v1`, with the official `openai` SDK against a real daemon whose model
 * and `/audio/transcriptions` endpoint are a scripted provider on loopback: an `input_audio`
 * part is heard as its transcript (what the model and recall see), kept as an audio block the
 * console plays back, and found later by its words; without an endpoint it is kept and marked
 * untranscribed, and the model is told so; an oversize recording is a 400 in OpenAI's shape.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";
import { sineWav } from "../support/wav.ts";

const SAID = "my bicycle is the turquoise one with a wicker basket";
/** What the scripted whisper hears: SAID in a 440 Hz tone, nothing else; a 660 Hz tone fails (HTTP 500). */
const hz = (bytes: Uint8Array) => (Buffer.from(bytes).equals(sineWav({ hz: 660 })) ? 660 : 440);

const textOf = (content: unknown): string => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p: any) => (p.type === "text" ? p.text : `<${p.type}>`)).join("\n") : "");
const lastUser = (r: ReceivedRequest) => [...r.body.messages].reverse().find((m: any) => m.role === "user");
const voicePart = (wav: Buffer) => ({ type: "input_audio" as const, input_audio: { data: wav.toString("base64"), format: "wav" as const } });

describe("voice messages through /v1", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let daemon: ApiDaemon;
  let client: OpenAI;
  const api = async (path: string, init: RequestInit = {}) => fetch(`${daemon.url}${path}`, { ...init, headers: { ...daemon.headers, ...(init.headers as object) } });
  /** The session the SDK's `user` maps to, and its stored audio parts. */
  const audioParts = async (user: string) => {
    const { sessions } = (await (await api("/api/sessions")).json()) as { sessions: { id: string; channel: string; partner: string }[] };
    const session = sessions.find((s) => s.partner.includes(user))!;
    assert.ok(session, JSON.stringify(sessions));
    const events = (await (await api(`/api/sessions/${session.id}/context`)).json()) as { messages: { content: unknown }[] }[];
    const parts = events.flatMap((e) => e.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p: any) => p.type === "audio") : [])));
    return { session: session.id, parts: parts as { audio: { id: string; mime: string; size: number; source: string; transcript?: string; data?: string } }[] };
  };

  before(async () => {
    dir = tempDir("homed-openai-audio-");
    provider = await startScriptedProvider((r) => ({ content: `heard: ${textOf(lastUser(r)?.content)}` }), { transcribe: (u) => (hz(u.bytes) === 660 ? 500 : SAID) });
    daemon = await startApiDaemon(dir.path, provider.url);
    client = new OpenAI({ baseURL: `${daemon.url}/v1`, apiKey: daemon.headers.authorization!.slice("Bearer ".length), maxRetries: 0 });
  });
  after(async () => {
    await daemon?.stop();
    await provider?.close();
    dir?.remove();
  });

  test("without a transcription endpoint: the recording is kept as an audio block marked untranscribed, and the model is told a voice message arrived unheard", async () => {
    const wav = sineWav();
    const answer = await client.chat.completions.create({ model: "homed", user: "deaf-client", messages: [{ role: "user", content: [voicePart(wav)] }] });
    assert.equal(provider.transcriptions.length, 0, "no endpoint configured: nothing uploaded");
    const sent = textOf(lastUser(provider.requests.at(-1)!).content);
    assert.match(sent, /\[A voice message arrived but was not transcribed \(no transcription endpoint is configured on any provider\)/);
    assert.doesNotMatch(JSON.stringify(provider.requests.at(-1)!.body), /"audio"|input_audio/, "no audio part reaches the model");
    assert.match(answer.choices[0]!.message.content!, /not transcribed/);
    const { parts } = await audioParts("deaf-client");
    assert.equal(parts.length, 1);
    assert.equal(parts[0]!.audio.transcript, undefined, "marked untranscribed");
    assert.equal(parts[0]!.audio.data, undefined, "the bytes are in the block, not the event's JSON");
    assert.deepEqual({ mime: parts[0]!.audio.mime, size: parts[0]!.audio.size, source: parts[0]!.audio.source }, { mime: "audio/wav", size: wav.length, source: "v1" });
    const played = await api(`/api/audio/${parts[0]!.audio.id}`);
    assert.equal(played.status, 200);
    assert.equal(played.headers.get("content-type"), "audio/wav");
    assert.ok(Buffer.from(await played.arrayBuffer()).equals(wav), "the console plays back the very recording");
  });

  test("with a provider's transcription model: the transcript is what the model sees, the audio is kept with it, and a later turn recalls it by its words", async () => {
    const added = await api("/api/providers", { method: "POST", body: JSON.stringify({ name: "voice", baseUrl: provider.url, model: "scripted", transcriptionModel: "whisper-scripted" }) });
    assert.equal(added.status, 201, await added.clone().text());
    assert.equal(((await added.json()) as { transcriptionModel?: string }).transcriptionModel, "whisper-scripted");
    const wav = sineWav();
    const answer = await client.chat.completions.create({
      model: "homed",
      user: "voice-client",
      messages: [{ role: "user", content: [{ type: "text", text: "remember this" }, voicePart(wav)] }],
    });
    const upload = provider.transcriptions.at(-1)!;
    assert.equal(upload.model, "whisper-scripted");
    assert.equal(upload.filename, "voice.wav");
    assert.match(upload.type, /^audio\/(x-)?wav$/);
    assert.ok(Buffer.from(upload.bytes).equals(wav), "the recording is uploaded as sent");
    const sent = lastUser(provider.requests.at(-1)!);
    assert.equal(textOf(sent.content), `[Voice message, transcribed] ${SAID}\nremember this`);
    assert.match(answer.choices[0]!.message.content!, /turquoise one with a wicker basket/);

    // The client sends its history again with the next message: the recording reads as what was heard, not heard again.
    const uploads = provider.transcriptions.length;
    await client.chat.completions.create({
      model: "homed",
      user: "voice-client",
      messages: [
        { role: "user", content: [{ type: "text", text: "remember this" }, voicePart(wav)] },
        { role: "assistant", content: answer.choices[0]!.message.content },
        { role: "user", content: "thanks" },
      ],
    });
    assert.equal(provider.transcriptions.length, uploads, "nothing uploaded again");
    const resent = provider.requests
      .at(-1)!
      .body.messages.filter((m: any) => m.role === "user")
      .map((m: any) => textOf(m.content));
    assert.deepEqual(resent.slice(-2), [`remember this\n[Voice message, transcribed] ${SAID}`, "thanks"]);
    // Another conversation sending the same bytes in its history does not read this one's transcript.
    await client.chat.completions.create({
      model: "homed",
      user: "other-client",
      messages: [
        { role: "user", content: [voicePart(wav)] },
        { role: "assistant", content: "ok" },
        { role: "user", content: "hi" },
      ],
    });
    assert.equal(
      textOf(
        provider.requests
          .at(-1)!
          .body.messages.filter((m: any) => m.role === "user")
          .at(-2).content,
      ),
      "[voice message]",
    );

    const { session, parts } = await audioParts("voice-client");
    assert.equal(parts[0]!.audio.transcript, SAID);
    assert.ok(Buffer.from(await (await api(`/api/audio/${parts[0]!.audio.id}`)).arrayBuffer()).equals(wav));

    // The conversation ends (its events sink to cold history); a new one asks in other words.
    assert.equal((await api(`/api/sessions/${session}?memory=keep`, { method: "DELETE" })).status, 200);
    const recalled = (await (await api("/api/memory/tools/memory_recall", { method: "POST", body: JSON.stringify({ query: "turquoise bicycle basket" }) })).json()) as any;
    assert.match(JSON.stringify(recalled), /wicker basket/, JSON.stringify(recalled));
    assert.ok(Buffer.from(await (await api(`/api/audio/${parts[0]!.audio.id}`)).arrayBuffer()).equals(wav), "the audio block sank with its event, still playable");
    await client.chat.completions.create({ model: "homed", user: "later-client", messages: [{ role: "user", content: "which bicycle is mine, the turquoise one?" }] });
    const system = provider.requests.at(-1)!.body.messages[0];
    assert.equal(system.role, "system");
    assert.match(textOf(system.content), /wicker basket/, "recall injected the voice message by its words");
  });

  test("a transcription endpoint that fails: kept untranscribed, the model told why; the Responses API takes input_audio too", async () => {
    const failing = sineWav({ hz: 660 });
    const response = await client.responses.create({
      model: "homed",
      user: "responses-client",
      input: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: failing.toString("base64"), format: "wav" } } as any] }],
    });
    assert.match(response.output_text, /not transcribed \(the transcription endpoint failed: Provider answered HTTP 500/);
    const { parts } = await audioParts("responses-client");
    assert.equal(parts[0]!.audio.transcript, undefined);
  });

  test("an oversize recording or a bad format is a 400 in OpenAI's shape, naming the part", async () => {
    const big = Buffer.alloc(9 * 1024 * 1024, 1);
    const requests = provider.requests.length;
    await assert.rejects(
      client.chat.completions.create({ model: "homed", messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: big.toString("base64"), format: "wav" } }] }] }),
      (error: any) => {
        assert.equal(error.status, 400);
        assert.equal(error.code, "invalid_request");
        assert.equal(error.param, "messages.0.content.0.input_audio.data");
        assert.match(error.message, /a voice message is at most 8 MiB; this one is 9\.0 MiB/);
        return true;
      },
    );
    await assert.rejects(
      client.chat.completions.create({ model: "homed", messages: [{ role: "user", content: [{ type: "input_audio", input_audio: { data: "AAAA", format: "flac" as any } }] }] }),
      (error: any) => error.status === 400 && /format is 'wav' or 'mp3'/.test(error.message),
    );
    assert.equal(provider.requests.length, requests, "nothing reached the model");
  });
});
