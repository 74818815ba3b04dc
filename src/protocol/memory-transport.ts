/** Two transports linked in memory: what one sends, the other receives. For protocol tests. */
import type { Message } from "./jsonrpc.ts";
import type { Transport } from "./transport.ts";

export class MemoryTransport implements Transport {
  onmessage?: (value: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private peer?: MemoryTransport;
  private queue: unknown[] = [];
  private started = false;
  private closed = false;

  /** A linked pair; frames round-trip through JSON so both ends see what a pipe would carry. */
  static pair(): [MemoryTransport, MemoryTransport] {
    const a = new MemoryTransport();
    const b = new MemoryTransport();
    a.peer = b;
    b.peer = a;
    return [a, b];
  }

  async start(): Promise<void> {
    this.started = true;
    const pending = this.queue;
    this.queue = [];
    for (const value of pending) this.onmessage?.(value);
  }

  /** Delivers a raw value as if the peer had written it (for malformed-frame tests). */
  receive(value: unknown): void {
    if (this.closed) return;
    if (this.started) queueMicrotask(() => this.onmessage?.(value));
    else this.queue.push(value);
  }

  async send(message: Message): Promise<void> {
    if (this.closed || !this.peer) throw new Error("Cannot send: transport is closed");
    this.peer.receive(JSON.parse(JSON.stringify(message)));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
    await this.peer?.close();
  }
}
