/**
 * A forward WebSocket to a OneBot 11 implementation, kept open: events come in, actions go out
 * as `{action, params, echo}` and each answer is matched to its request by `echo`. The access
 * token rides as `access_token` in the query (OneBot 11 accepts it there or as a Bearer header; a
 * browser-standard WebSocket cannot set headers, so the query works on every runtime). A closed or
 * refused connection is retried after 1 s, then twice as long each time up to `maxBackoffMs`,
 * back to 1 s once a connection opens: NapCat restarting must not need homed restarted.
 */
import { randomUUID } from "node:crypto";
import { ActionResponseSchema, type ActionResponse } from "./onebot.ts";

export type OneBotConnectionOptions = {
  url: string;
  accessToken?: string;
  onEvent: (event: unknown) => void;
  log: (level: "info" | "warn", line: string) => void;
  /** The longest wait between two attempts (default 30 s). */
  maxBackoffMs?: number;
  /** How long an action waits for its answer (default 15 s). */
  actionTimeoutMs?: number;
};

export class ActionFailedError extends Error {
  constructor(
    readonly action: string,
    readonly response: ActionResponse | undefined,
    message: string,
  ) {
    super(message);
    this.name = "ActionFailedError";
  }
}

const FIRST_BACKOFF_MS = 1000;

export class OneBotConnection {
  private socket: WebSocket | undefined;
  private backoffMs = FIRST_BACKOFF_MS;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly waiting = new Map<string, { resolve: (r: ActionResponse) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();

  constructor(private readonly options: OneBotConnectionOptions) {}

  /** Where it connects, the token hidden. */
  get address(): string {
    return this.options.url;
  }

  start(): void {
    this.connect();
  }

  private connect(): void {
    if (this.closed) return;
    const url = new URL(this.options.url);
    if (this.options.accessToken) url.searchParams.set("access_token", this.options.accessToken);
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.backoffMs = FIRST_BACKOFF_MS;
      this.options.log("info", `connected to ${this.address}`);
    });
    socket.addEventListener("message", (e) => this.receive(String(e.data)));
    socket.addEventListener("close", (e) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      for (const [echo, w] of this.waiting) {
        clearTimeout(w.timer);
        w.reject(new ActionFailedError("", undefined, "the connection closed before the answer came"));
        this.waiting.delete(echo);
      }
      if (this.closed) return;
      this.options.log("warn", `connection to ${this.address} closed (${e.code}${e.reason ? ` ${e.reason}` : ""}); retrying in ${this.backoffMs / 1000} s`);
      this.retry = setTimeout(() => this.connect(), this.backoffMs);
      this.backoffMs = Math.min(this.backoffMs * 2, this.options.maxBackoffMs ?? 30_000);
    });
  }

  private receive(raw: string): void {
    let frame: unknown;
    try {
      frame = JSON.parse(raw);
    } catch {
      this.options.log("warn", `skipped a frame that is not JSON (${raw.slice(0, 80)})`);
      return;
    }
    const answer = ActionResponseSchema.safeParse(frame);
    if (answer.success && typeof answer.data.echo === "string" && this.waiting.has(answer.data.echo)) {
      const w = this.waiting.get(answer.data.echo)!;
      this.waiting.delete(answer.data.echo);
      clearTimeout(w.timer);
      w.resolve(answer.data);
      return;
    }
    this.options.onEvent(frame);
  }

  /** Calls an action; resolves with its data, rejects with ActionFailedError when it failed or no answer came. */
  async call(action: string, params: Record<string, unknown>): Promise<unknown> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) throw new ActionFailedError(action, undefined, `Cannot call ${action}: not connected to ${this.address}`);
    const echo = randomUUID();
    const response = await new Promise<ActionResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(echo);
        reject(new ActionFailedError(action, undefined, `${action}: no answer within ${(this.options.actionTimeoutMs ?? 15_000) / 1000} s`));
      }, this.options.actionTimeoutMs ?? 15_000);
      this.waiting.set(echo, { resolve, reject, timer });
      socket.send(JSON.stringify({ action, params, echo }));
    });
    if (response.status !== "ok" && response.status !== "async") {
      throw new ActionFailedError(action, response, `${action} failed: retcode ${response.retcode}${response.wording || response.message ? ` (${response.wording ?? response.message})` : ""}`);
    }
    return response.data;
  }

  stop(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.socket?.close(1000, "homed is stopping");
  }
}
