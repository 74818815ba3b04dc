/**
 * The one seam between the RPC protocol and whatever carries its frames (a child's pipes,
 * an in-memory pair in tests). Shaped after the MCP TypeScript SDK's `Transport`.
 */
import type { Message } from "./jsonrpc.ts";
import { HomedError } from "../errors/index.ts";

export interface Transport {
  /** Begins delivering incoming frames to `onmessage`. */
  start(): Promise<void>;
  /** Writes one frame; resolves when the frame was handed to the carrier. */
  send(message: Message): Promise<void>;
  /** Stops both directions; `onclose` fires once. */
  close(): Promise<void>;
  /** One parsed JSON value per frame; its JSON-RPC shape is not yet checked. */
  onmessage?: (value: unknown) => void;
  /** A frame that was dropped or a carrier failure, with the reason; never fatal by itself. */
  onerror?: (error: Error) => void;
  onclose?: () => void;
}

/** Why a frame was dropped before it reached the protocol. */
export class FrameError extends HomedError {
  constructor(
    readonly reason: "oversized" | "malformed",
    message: string,
    options?: ErrorOptions,
  ) {
    super("bad_frame", message, options);
    this.name = "FrameError";
  }
}
