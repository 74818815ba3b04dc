/**
 * One end of a JSON-RPC conversation over a transport: outgoing requests with a deadline each,
 * incoming requests dispatched to handlers, notifications to listeners. Both the kernel's
 * plugin client and the plugin SDK's server are a Peer.
 */
import { classify, ErrorCode, RpcError, type Message, type RequestId } from "./jsonrpc.ts";
import type { Transport } from "./transport.ts";

export type RequestHandler = (params: unknown, context: { signal: AbortSignal }) => Promise<unknown> | unknown;
export type NotificationHandler = (params: unknown) => void;

export type PeerOptions = {
  /** Deadline of a request when the caller gives none. */
  defaultTimeoutMs?: number;
  /** Where dropped frames and protocol complaints are reported (the plugin's log). */
  log?: (message: string) => void;
};

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: ReturnType<typeof setTimeout> };

export class Peer {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly handlers = new Map<string, RequestHandler>();
  private readonly listeners = new Map<string, NotificationHandler>();
  private readonly running = new Map<RequestId, AbortController>();
  private closed = false;
  private readonly defaultTimeoutMs: number;
  private readonly log: (message: string) => void;
  readonly closedPromise: Promise<void>;
  private markClosed!: () => void;

  constructor(
    private readonly transport: Transport,
    options: PeerOptions = {},
  ) {
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 30_000;
    this.log = options.log ?? (() => {});
    this.closedPromise = new Promise((resolve) => (this.markClosed = resolve));
    transport.onmessage = (value) => this.receive(value);
    transport.onerror = (error) => this.log(error.message);
    transport.onclose = () => this.shutdown();
    // MCP's cancellation notice: stop work the caller no longer waits for.
    this.listeners.set("notifications/cancelled", (params) => {
      const id = (params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.running.get(id)?.abort();
    });
  }

  start(): Promise<void> {
    return this.transport.start();
  }

  handle(method: string, handler: RequestHandler): void {
    this.handlers.set(method, handler);
  }

  on(method: string, listener: NotificationHandler): void {
    this.listeners.set(method, listener);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  request(method: string, params?: Record<string, unknown>, options: { timeoutMs?: number } = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new RpcError(ErrorCode.ConnectionClosed, `Cannot call ${method}: connection closed`));
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RpcError(ErrorCode.RequestTimeout, `Cannot call ${method}: no answer within ${timeoutMs} ms`));
        void this.notify("notifications/cancelled", { requestId: id, reason: "timeout" }).catch(() => {});
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.transport.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) }).catch((error: Error) => {
        this.settle(id, undefined, new RpcError(ErrorCode.ConnectionClosed, `Cannot call ${method}: ${error.message}`, undefined, { cause: error }));
      });
    });
  }

  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.transport.send({ jsonrpc: "2.0", method, ...(params ? { params } : {}) });
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private receive(value: unknown): void {
    const frame = classify(value);
    switch (frame.kind) {
      case "invalid":
        this.log(`Cannot handle frame: ${frame.reason}`);
        if (frame.id !== null) void this.reply({ jsonrpc: "2.0", id: frame.id, error: { code: ErrorCode.InvalidRequest, message: frame.reason } });
        return;
      case "response": {
        const { id } = frame.message;
        if (id === null || !this.pending.has(id)) {
          this.log(`Cannot match answer: no open request with id ${JSON.stringify(id)}`);
          return;
        }
        const message = frame.message;
        if ("error" in message) this.settle(id, undefined, new RpcError(message.error.code, message.error.message, message.error.data));
        else this.settle(id, message.result);
        return;
      }
      case "notification": {
        const listener = this.listeners.get(frame.message.method);
        if (listener) listener(frame.message.params);
        return;
      }
      case "request":
        void this.dispatch(frame.message.id, frame.message.method, frame.message.params);
    }
  }

  private async dispatch(id: RequestId, method: string, params: unknown): Promise<void> {
    const handler = this.handlers.get(method);
    if (!handler) {
      await this.reply({ jsonrpc: "2.0", id, error: { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` } });
      return;
    }
    const controller = new AbortController();
    this.running.set(id, controller);
    try {
      const result = await handler(params, { signal: controller.signal });
      await this.reply({ jsonrpc: "2.0", id, result: result ?? {} });
    } catch (error) {
      const wire = error instanceof RpcError ? error : new RpcError(ErrorCode.InternalError, (error as Error).message ?? String(error));
      await this.reply({ jsonrpc: "2.0", id, error: wire.toWire() });
    } finally {
      this.running.delete(id);
    }
  }

  private async reply(message: Message): Promise<void> {
    if (this.closed) return;
    await this.transport.send(message).catch((error: Error) => this.log(`Cannot answer: ${error.message}`));
  }

  private settle(id: RequestId, result: unknown, error?: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (error) entry.reject(error);
    else entry.resolve(result);
  }

  private shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    for (const [id] of this.pending) this.settle(id, undefined, new RpcError(ErrorCode.ConnectionClosed, "Cannot finish call: connection closed"));
    for (const controller of this.running.values()) controller.abort();
    this.markClosed();
  }
}
