/**
 * MCP's Streamable HTTP transport, client side (spec 2025-03-26 and later): each frame is a POST
 * to the server's endpoint; a request's answer comes back as the POST's JSON body or as a
 * `text/event-stream` of messages ending with it; `Mcp-Session-Id` from the initialize answer and
 * the negotiated `MCP-Protocol-Version` go with every later POST; closing DELETEs the session.
 *
 * Why not the MCP SDK's StreamableHTTPClientTransport: homed's client (mcp-client.ts) speaks
 * through its own Peer and Transport, which this implements, so a remote plugin is the same
 * McpClient, manifest probe and supervisor as a local one; the SDK is a test peer only (a
 * devDependency), and taking it into the binary for one POST-and-read loop would bring its
 * whole client (auth, its own JSON-RPC layer) beside homed's.
 *
 * Not implemented: the optional GET stream for messages the server starts on its own (homed asks
 * plugins for tools and calls them; it waits for no server-initiated requests), and resuming a
 * broken stream. A server that forgets the session (404 with a session) closes the transport, and
 * one that cannot be reached is told to `onunreachable`: the plugin is then as good as exited and
 * its supervisor restarts it, which makes a new session. Headers may carry secrets: they are sent, never written anywhere;
 * messages name the server by origin and path only.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import { DEFAULT_MAX_FRAME_BYTES, ErrorCode, FrameError, type Message, type Transport } from "../protocol/index.ts";

export type HttpTransportOptions = {
  /** Extra headers of every request (an API key, a bearer token). */
  headers?: Record<string, string>;
  maxFrameBytes?: number;
  fetch?: typeof fetch;
};

/** How long closing waits for the server to end the session before giving up on it. */
const DELETE_TIMEOUT_MS = 2000;

export class StreamableHttpTransport implements Transport {
  onmessage?: (value: unknown) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** The server could not be reached for a frame (a remote plugin treats it as gone: remote.ts). */
  onunreachable?: (error: Error) => void;
  private closed = false;
  private sessionId?: string;
  private protocolVersion?: string;
  /** Aborts every request in flight when the transport closes. */
  private readonly inFlight = new AbortController();
  private readonly fetch: typeof fetch;
  private readonly maxFrameBytes: number;
  /** The server as messages name it: origin and path, never the query (it may hold a token). */
  readonly where: string;

  constructor(
    private readonly url: string,
    private readonly options: HttpTransportOptions = {},
  ) {
    this.fetch = options.fetch ?? fetch;
    this.maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    const parsed = new URL(url);
    this.where = `${parsed.origin}${parsed.pathname}`;
  }

  async start(): Promise<void> {}

  /** Resolves once the server took the frame (its status is in); the answer is read on and delivered to `onmessage`. */
  async send(message: Message): Promise<void> {
    if (this.closed) throw new Error("Cannot send: transport is closed");
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: "POST",
        headers: this.headers({ "content-type": "application/json", accept: "application/json, text/event-stream" }),
        body: JSON.stringify(message),
        signal: this.inFlight.signal,
      });
    } catch (error) {
      if (this.closed) throw new Error("Cannot send: transport is closed");
      // Unreachable (refused, reset, DNS): the frame's request fails with the reason, and the owner decides what a gone server means.
      const reason = new Error(`Cannot reach ${this.where}: ${(error as Error).message}`, { cause: error });
      this.onerror?.(reason);
      this.onunreachable?.(reason);
      throw reason;
    }
    const requestId = "method" in message && "id" in message ? message.id : undefined;
    if (!response.ok) return this.refused(response, requestId);
    const session = response.headers.get("mcp-session-id");
    if (session) this.sessionId = session;
    if (response.status === 202 || response.status === 204 || !response.body) return;
    const type = response.headers.get("content-type") ?? "";
    void (type.includes("text/event-stream") ? this.readStream(response.body) : this.readJson(response)).catch((error: Error) => {
      if (this.closed) return;
      const message = `Cannot read ${this.where}'s answer: ${error.message}`;
      // The request fails now rather than at its deadline.
      if (requestId !== undefined && requestId !== null) this.deliver({ jsonrpc: "2.0", id: requestId, error: { code: ErrorCode.InternalError, message } });
      else this.onerror?.(new Error(message, { cause: error }));
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.inFlight.abort();
    if (this.sessionId) {
      // Tells the server the session is over, so it frees what it holds; a server that does not care may refuse (405).
      await this.fetch(this.url, { method: "DELETE", headers: this.headers({}), signal: AbortSignal.timeout(DELETE_TIMEOUT_MS) }).catch(() => {});
    }
    this.onclose?.();
  }

  private headers(own: Record<string, string>): Record<string, string> {
    return {
      ...this.options.headers,
      ...own,
      ...(this.sessionId ? { "mcp-session-id": this.sessionId } : {}),
      ...(this.protocolVersion ? { "mcp-protocol-version": this.protocolVersion } : {}),
    };
  }

  /**
   * A refused POST: a request gets an error answer under its own id (servers answer such errors
   * with id null, which would leave the request waiting for its deadline). A forgotten session
   * ends the transport, so the plugin restarts with a new one.
   */
  private async refused(response: Response, requestId: string | number | null | undefined): Promise<void> {
    const body = await response.text().catch(() => "");
    let message = `${this.where} answered HTTP ${response.status}`;
    try {
      const said = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
      if (typeof said === "string") message += `: ${said.slice(0, 500)}`;
    } catch {
      // Not JSON: the status says enough.
    }
    if (requestId !== undefined && requestId !== null) this.deliver({ jsonrpc: "2.0", id: requestId, error: { code: ErrorCode.InternalError, message } });
    else this.onerror?.(new Error(message));
    if (response.status === 404 && this.sessionId) {
      this.onerror?.(new Error(`${this.where} no longer knows session ${this.sessionId}`));
      void this.close();
    }
  }

  private async readJson(response: Response): Promise<void> {
    const text = await response.text();
    if (text.length > this.maxFrameBytes) throw new FrameError("oversized", `an answer of ${text.length} bytes is over the limit of ${this.maxFrameBytes}`);
    if (!text.trim()) return;
    const value = JSON.parse(text) as unknown;
    for (const one of Array.isArray(value) ? value : [value]) this.deliver(one);
  }

  private async readStream(body: ReadableStream<Uint8Array>): Promise<void> {
    const events = body.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).pipeThrough(new EventSourceParserStream());
    for await (const event of events) {
      if (!event.data) continue;
      if (event.data.length > this.maxFrameBytes) {
        this.onerror?.(new FrameError("oversized", `a message of ${event.data.length} bytes is over the limit of ${this.maxFrameBytes}`));
        continue;
      }
      try {
        this.deliver(JSON.parse(event.data));
      } catch (error) {
        this.onerror?.(new FrameError("malformed", `Cannot parse a message from ${this.where}: ${(error as Error).message}`));
      }
    }
  }

  /** Hands a message on, remembering the protocol version an initialize answer agreed. */
  private deliver(value: unknown): void {
    const version = (value as { result?: { protocolVersion?: unknown } } | null)?.result?.protocolVersion;
    if (typeof version === "string") this.protocolVersion = version;
    this.onmessage?.(value);
  }
}
