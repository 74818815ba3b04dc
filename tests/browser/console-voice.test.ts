/**
 * Voice in the console, in Chromium with a fake microphone (`--use-fake-device-for-media-stream`
 * records a tone; `--use-fake-ui-for-media-stream` grants it): the microphone button records and
 * sends a voice message, the provider's transcription endpoint hears it, the answer comes from the
 * transcript; after a reload the message shows its recording (played from /api/audio) and its
 * transcript; "Read aloud" speaks an answer through the provider's /audio/speech model. axe finds
 * nothing serious. The provider's voice models are set in its console form.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { Script } from "../support/scripted-provider.ts";
import { sineWav } from "../support/wav.ts";
import { axeSerious, chromiumMissing, logIn, openConsole, screenshot, type Console } from "./support.ts";

const HEARD = "please water the ferns on friday";
const textOf = (content: unknown) => (Array.isArray(content) ? content.map((p: any) => p.text ?? "").join("\n") : String(content ?? ""));
const lastUser = (body: { messages: { role: string; content: unknown }[] }) => textOf(body.messages.findLast((m) => m.role === "user")?.content);
const script: Script = ({ body }) => ({ content: body.stream ? `Noted: ${lastUser(body).replace("[Voice message, transcribed] ", "")}` : "ok" });

const log = (page: Page) => page.getByRole("log");

describe("voice messages in the console", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script, {
      audio: { transcribe: () => HEARD, speech: () => sineWav({ seconds: 0.1 }) },
      chromiumArgs: ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream", "--autoplay-policy=no-user-gesture-required"],
    });
    await logIn(c);
    // The provider's voice models, set in its form as a person would.
    const { page } = c;
    await page.getByRole("link", { name: "Providers" }).click();
    await page.getByLabel("Name").fill("Scripted");
    await page.getByLabel("Base URL").fill(c.provider.url);
    await page.getByLabel("Model").fill("scripted-model");
    await page.getByLabel("Transcription (optional)").fill("whisper-1");
    await page.getByLabel("Speech (optional)").fill("tts-1");
    await page.getByLabel("Speech voice (optional)").fill("nova");
    await page.getByRole("button", { name: "Add provider" }).click();
    await page.locator("tr[data-provider=Scripted]").waitFor();
    const { providers } = (await (await fetch(`${c.daemon.url}/api/providers`, { headers: { authorization: `Bearer ${c.token}` } })).json()) as { providers: object[] };
    assert.deepEqual(
      providers.map((p: any) => [p.transcriptionModel, p.speechModel, p.speechVoice]),
      [["whisper-1", "tts-1", "nova"]],
    );
  });
  after(async () => {
    await c?.close();
  });

  test("record with the microphone, answered from the transcript; after a reload the recording plays back beside its transcript", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByLabel("New conversation with").fill("voice");
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await page.getByRole("heading", { name: /^voice · voice · console$/, level: 2 }).waitFor();
    await page.getByRole("button", { name: "Record your voice" }).click();
    await page.getByRole("button", { name: "Stop and send the recording" }).waitFor();
    await page.waitForTimeout(800);
    await page.getByRole("button", { name: "Stop and send the recording" }).click();
    await log(page).locator(".msg.assistant:not(.streaming) .answer").getByText(`Noted: ${HEARD}`).waitFor({ timeout: 30_000 });
    const upload = c.provider.transcriptions.at(-1)!;
    assert.equal(upload.model, "whisper-1");
    assert.ok(upload.bytes.length > 500, `a real recording was uploaded (${upload.bytes.length} bytes, ${upload.type})`);
    // MediaRecorder's own container (Chromium: WebM/Opus), named so the endpoint picks its decoder.
    assert.match(upload.filename, /^voice\.(webm|ogg)$/);

    await page.reload();
    const clip = log(page).locator(".msg.user .voice-clip");
    await clip.waitFor();
    assert.equal(await clip.locator("p").innerText(), `Transcript: ${HEARD}`);
    const src = (await clip.locator("audio").getAttribute("src"))!;
    assert.match(src, /^\/api\/audio\/audio-/);
    const played = await page.evaluate(async (url) => {
      const r = await fetch(url);
      return { status: r.status, type: r.headers.get("content-type"), size: (await r.arrayBuffer()).byteLength };
    }, src);
    assert.equal(played.status, 200);
    assert.match(played.type ?? "", /^audio\/(webm|ogg)$/);
    assert.equal(played.size, upload.bytes.length, "the very recording that was transcribed");
    assert.deepEqual(await axeSerious(page), []);
    await screenshot(page, "console-voice");
  });

  test("Read aloud speaks the answer through the provider's speech model", async () => {
    const { page } = c;
    const spoken = page.waitForResponse((r) => r.url().endsWith("/api/audio/speech"));
    await log(page).getByRole("button", { name: "Read aloud" }).last().click();
    const response = await spoken;
    assert.equal(response.status(), 200);
    assert.equal(response.headers()["content-type"], "audio/mpeg");
    assert.deepEqual(c.provider.speeches.at(-1), { model: "tts-1", input: `Noted: ${HEARD}`, voice: "nova" });
  });
});
