/**
 * Voice messages that come with a channel's message (a QQ `record` segment), as the kernel hears
 * them: a URL is downloaded, bounded by VOICE_MAX_BYTES while it is read (a server that sends no
 * length cannot fill memory); one that cannot be fetched or is too large is left out with a log
 * line, so the rest of the message still gets its answer.
 */
import { checkVoiceSize, VOICE_MAX_BYTES, type VoiceInput } from "../kernel/index.ts";
import type { ChannelAudio } from "../protocol/index.ts";

/** A type by extension when the server names none: QQ's own recordings are SILK or AMR. */
const BY_EXTENSION: Record<string, string> = { amr: "audio/amr", silk: "audio/silk", slk: "audio/silk", mp3: "audio/mpeg", wav: "audio/wav", ogg: "audio/ogg", m4a: "audio/mp4" };

function mimeOf(url: string, header: string | null): string {
  const type = header?.split(";")[0]?.trim();
  if (type?.startsWith("audio/")) return type;
  const extension = /\.(\w+)$/.exec(new URL(url).pathname)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) ?? "application/octet-stream";
}

async function download(url: string): Promise<{ bytes: Uint8Array; mime: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  checkVoiceSize(Number(response.headers.get("content-length") ?? 0));
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > VOICE_MAX_BYTES) throw new Error(`over ${VOICE_MAX_BYTES} bytes`);
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks), mime: mimeOf(url, response.headers.get("content-type")) };
}

/** The message's voice messages, in order, as the kernel takes them; `source` is the channel. */
export async function channelVoice(audio: readonly ChannelAudio[], source: string, warn: (line: string) => void): Promise<VoiceInput[]> {
  const voices: VoiceInput[] = [];
  for (const item of audio) {
    try {
      if ("data" in item) {
        const bytes = Buffer.from(item.data, "base64");
        checkVoiceSize(bytes.byteLength);
        voices.push({ bytes, mime: item.mimeType, source });
      } else {
        voices.push({ ...(await download(item.url)), source });
      }
    } catch (error) {
      warn(`voice message ${"url" in item ? item.url : "(inline)"} left out: ${(error as Error).message}`);
    }
  }
  return voices;
}
