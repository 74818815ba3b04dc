/**
 * Voice messages into a turn: each recording is transcribed through the configured
 * `/audio/transcriptions` endpoint (ProviderStore.audioTarget) and kept as an audio part, its
 * block. What the turn and recall see is a text line per recording: its transcript, or, when it
 * could not be transcribed (no endpoint, or the endpoint failed), that a voice message arrived
 * whose words are unknown — so the model says so instead of answering a question not heard.
 */
import { randomUUID } from "node:crypto";
import type { AudioPart } from "../context/index.ts";
import { HomedError } from "../errors/index.ts";
import { transcribe, type AudioTarget } from "../llm/index.ts";

/**
 * The largest recording homed takes, in bytes (OpenAI's transcription endpoint takes 25 MB).
 * Prevents: a client's minutes-long WAV filling memory and the store (8 MiB is ~87 s of 48 kHz
 * 16-bit WAV, ~9 min of 128 kbit/s MP3, over half an hour of Opus).
 */
export const VOICE_MAX_BYTES = 8 * 1024 * 1024;

/** A recording as a surface received it; `source` names where (`v1`, `console`, `qq`, `acp`…). */
export type VoiceInput = { bytes: Uint8Array; mime: string; source: string };

/** What the turn gets: text lines for its input, and the audio parts stored with it. */
export type HeardVoice = { said: string; parts: AudioPart[] };

export class VoiceTooLarge extends HomedError {
  constructor(bytes: number, param?: string) {
    super(
      "invalid_request",
      `${param ? `${param}: ` : ""}a voice message is at most ${VOICE_MAX_BYTES / 1024 / 1024} MiB; this one is ${(bytes / 1024 / 1024).toFixed(1)} MiB`,
      param ? { param } : {},
    );
    this.name = "VoiceTooLarge";
  }
}

/** Refuses a recording over VOICE_MAX_BYTES (every surface checks before it reads further). */
export function checkVoiceSize(bytes: number, param?: string): void {
  if (bytes > VOICE_MAX_BYTES) throw new VoiceTooLarge(bytes, param);
}

/** The line the model and recall read for one recording. */
export function voiceLine(transcript: string | undefined, why?: string): string {
  if (transcript !== undefined) return transcript ? `[Voice message, transcribed] ${transcript}` : "[Voice message, transcribed: no words were heard in it]";
  return `[A voice message arrived but was not transcribed (${why}); its words are unknown — tell the user you could not hear it]`;
}

export async function hearVoice(voices: readonly VoiceInput[], target: AudioTarget | undefined, log: (line: string) => void): Promise<HeardVoice> {
  const lines: string[] = [];
  const parts: AudioPart[] = [];
  for (const voice of voices) {
    checkVoiceSize(voice.bytes.byteLength);
    let transcript: string | undefined;
    let why = "no transcription endpoint is configured on any provider";
    if (target) {
      try {
        transcript = await transcribe(target, voice);
      } catch (error) {
        if (!(error instanceof HomedError)) throw error;
        why = `the transcription endpoint failed: ${error.message.slice(0, 200)}`;
        log(`voice message from ${voice.source} not transcribed: ${error.message}`);
      }
    }
    lines.push(voiceLine(transcript, why));
    const audio = { id: `audio-${randomUUID()}`, mime: voice.mime, size: voice.bytes.byteLength, source: voice.source, data: Buffer.from(voice.bytes).toString("base64") };
    parts.push({ type: "audio", audio: transcript === undefined ? audio : { ...audio, transcript } });
  }
  return { said: lines.join("\n"), parts };
}
