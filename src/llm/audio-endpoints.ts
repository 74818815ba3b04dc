/**
 * OpenAI-compatible audio endpoints: `POST <baseUrl>/audio/transcriptions` (a multipart upload
 * of `file` and `model`, answered `{text}`, as OpenAI, Groq and SiliconFlow take it) and `POST <baseUrl>/audio/speech` (JSON `{model, input, voice}`, answered with
 * the audio's bytes). Failures are ProviderErrors, as a chat call's are.
 */
import { z } from "zod";
import { errorFromResponse, ProviderError } from "./errors.ts";

/** Where an audio call goes: a provider's base URL and key, and the model for this use. */
export type AudioTarget = { baseUrl: string; apiKey?: string; model: string; voice?: string };

const TranscriptionWire = z.looseObject({ text: z.string() });

/** File names by MIME type: some servers pick the decoder from the upload's extension. */
const EXTENSIONS: Record<string, string> = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/webm": "webm",
  "audio/ogg": "ogg",
  "audio/mp4": "m4a",
  "audio/amr": "amr",
  "audio/silk": "silk",
};
export const audioExtension = (mime: string): string => EXTENSIONS[mime.split(";")[0]!.trim()] ?? "bin";

async function post(url: string, init: RequestInit, timeoutMs: number, what: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    if ((error as Error).name === "TimeoutError") throw new ProviderError("timeout", `The provider did not ${what} within ${timeoutMs} ms`, undefined, undefined, { cause: error });
    throw new ProviderError("network", `Cannot reach the provider at ${url}: ${(error as Error).message}`, undefined, undefined, { cause: error });
  }
  if (!response.ok) throw await errorFromResponse(response);
  return response;
}

const endpoint = (target: AudioTarget, path: string) => `${target.baseUrl.replace(/\/+$/, "")}/audio/${path}`;
const auth = (target: AudioTarget): Record<string, string> => (target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {});

/** The words of a recording, as the provider's transcription model heard them. */
export async function transcribe(target: AudioTarget, audio: { bytes: Uint8Array; mime: string }, timeoutMs = 120_000): Promise<string> {
  const form = new FormData();
  form.set("file", new Blob([audio.bytes as Uint8Array<ArrayBuffer>], { type: audio.mime }), `voice.${audioExtension(audio.mime)}`);
  form.set("model", target.model);
  form.set("response_format", "json");
  const response = await post(endpoint(target, "transcriptions"), { method: "POST", headers: auth(target), body: form }, timeoutMs, "transcribe the recording");
  const text = await response.text();
  let parsed: ReturnType<typeof TranscriptionWire.safeParse>;
  try {
    parsed = TranscriptionWire.safeParse(JSON.parse(text));
  } catch (error) {
    throw new ProviderError("bad_response", `The provider's transcription is not JSON: ${text.slice(0, 200)}`, undefined, text, { cause: error });
  }
  if (!parsed.success) throw new ProviderError("bad_response", `The provider's answer is not a transcription ({text}): ${parsed.error.issues[0]?.message}`, undefined, text);
  return parsed.data.text.trim();
}

/** A text spoken by the provider's speech model: the audio's bytes and type (mp3 unless it says otherwise). */
export async function speak(target: AudioTarget, input: string, timeoutMs = 120_000): Promise<{ bytes: Uint8Array; mime: string }> {
  const body = JSON.stringify({ model: target.model, input, voice: target.voice ?? "alloy", response_format: "mp3" });
  const response = await post(endpoint(target, "speech"), { method: "POST", headers: { ...auth(target), "content-type": "application/json" }, body }, timeoutMs, "speak the text");
  const mime = response.headers.get("content-type")?.split(";")[0]?.trim() || "audio/mpeg";
  if (!mime.startsWith("audio/") && mime !== "application/octet-stream")
    throw new ProviderError("bad_response", `The provider's speech answer is ${mime}, not audio`, undefined, (await response.text()).slice(0, 500));
  return { bytes: new Uint8Array(await response.arrayBuffer()), mime: mime === "application/octet-stream" ? "audio/mpeg" : mime };
}
