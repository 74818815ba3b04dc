/**
 * A transport over injected byte streams: the kernel uses it on a child's stdout/stdin, the
 * plugin SDK on its own stdin/stdout. Tests can pass any pair of streams.
 */
import type { Readable, Writable } from "node:stream";
import { encodeFrame, LineFramer, DEFAULT_MAX_FRAME_BYTES } from "./framing.ts";
import type { Message } from "./jsonrpc.ts";
import type { Transport } from "./transport.ts";

export type StreamTransportOptions = { maxFrameBytes?: number };

export class StreamTransport implements Transport {
  onmessage?: (value: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private closed = false;
  private readonly framer: LineFramer;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: StreamTransportOptions = {},
  ) {
    this.framer = new LineFramer(
      (value) => this.onmessage?.(value),
      (error) => this.onerror?.(error),
      options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES,
    );
  }

  async start(): Promise<void> {
    this.input.on("data", this.onData);
    this.input.on("end", this.onEnd);
    this.input.on("error", this.onStreamError);
    // A peer that went away makes writes fail with EPIPE; that must be reported, not thrown.
    this.output.on("error", this.onStreamError);
  }

  send(message: Message): Promise<void> {
    if (this.closed) return Promise.reject(new Error("Cannot send: transport is closed"));
    return new Promise((resolve, reject) => {
      this.output.write(encodeFrame(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    this.input.off("end", this.onEnd);
    this.output.end();
    this.onclose?.();
  }

  private onData = (chunk: Buffer | string) => {
    this.framer.push(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
  };
  private onEnd = () => void this.close();
  private onStreamError = (error: Error) => this.onerror?.(error);
}

export { DEFAULT_MAX_FRAME_BYTES };
