/**
 * Newline-delimited JSON frames with a size cap. A line longer than the cap is dropped whole
 * (its tail is skipped up to the next newline, so a fragment is never parsed as a frame);
 * a line that is not JSON is dropped. Either way the reader carries on with the next line.
 */
import { FrameError } from "./transport.ts";

/** 16 MiB: far above any control message; bulk data belongs in the shared segment. */
export const DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;
const NEWLINE = 0x0a;

export class LineFramer {
  private parts: Uint8Array[] = [];
  private size = 0;
  private discarding = false;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly onFrame: (value: unknown) => void,
    private readonly onDropped: (error: FrameError) => void,
    private readonly maxBytes = DEFAULT_MAX_FRAME_BYTES,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) return;
      this.finishLine();
      start = newline + 1;
    }
  }

  private take(piece: Uint8Array): void {
    if (this.discarding || piece.length === 0) return;
    if (this.size + piece.length > this.maxBytes) {
      this.onDropped(new FrameError("oversized", `Cannot read frame: longer than ${this.maxBytes} bytes, dropped`));
      this.parts = [];
      this.size = 0;
      this.discarding = true;
      return;
    }
    // Copy: the carrier may reuse its chunk buffer after this call.
    this.parts.push(piece.slice());
    this.size += piece.length;
  }

  private finishLine(): void {
    const wasDiscarding = this.discarding;
    this.discarding = false;
    if (wasDiscarding) return;
    const bytes = this.parts.length === 1 ? this.parts[0]! : concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    const text = this.decoder.decode(bytes).replace(/\r$/, "");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.onDropped(new FrameError("malformed", `Cannot read frame: not JSON (${preview(text)})`, { cause: error }));
      return;
    }
    this.onFrame(value);
  }
}

/** One frame on the wire: compact JSON and a newline (JSON.stringify never emits a raw newline). */
export function encodeFrame(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const preview = (text: string) => (text.length > 60 ? `${JSON.stringify(text.slice(0, 60))}…` : JSON.stringify(text));
