/**
 * A OneBot 11 implementation's forward WebSocket, scripted from the protocol's specification
 * (botuniverse/onebot-11: `access_token`, message events with segment arrays or CQ codes, actions
 * answered by `echo`), since no implementation (NapCat, go-cqhttp) can run here. The QQ channel's
 * tests connect a real daemon to it on loopback.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";
import { until } from "./process.ts";

export const SELF = 10001;
export const TOKEN = "onebot-secret";

export type Action = { action: string; params: any; echo: unknown };

/** A OneBot 11 implementation's forward WebSocket, as the spec describes it. */
export class ScriptedOneBot {
  readonly connections: { socket: WebSocket; url: string }[] = [];
  readonly actions: Action[] = [];
  /** How an action is answered (default: ok with a new message_id). */
  answer: (a: Action) => object = () => ({ status: "ok", retcode: 0, data: { message_id: 900 + this.actions.length } });
  private nextMessageId = 1;
  private constructor(
    private readonly http: Server,
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {}

  static async start(): Promise<ScriptedOneBot> {
    const http = createServer();
    const wss = new WebSocketServer({ noServer: true });
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    const bot = new ScriptedOneBot(http, wss, `ws://127.0.0.1:${(http.address() as AddressInfo).port}/`);
    http.on("upgrade", (request, socket, head) => {
      // Spec: with an access_token configured, a connection without it (query or Bearer) is 401 before the upgrade.
      const url = new URL(request.url ?? "/", "http://x");
      const given = url.searchParams.get("access_token") ?? /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (given !== TOKEN) {
        socket.end("HTTP/1.1 401 Unauthorized\r\n\r\n");
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        bot.connections.push({ socket: ws, url: request.url ?? "" });
        ws.send(JSON.stringify({ time: 1, self_id: SELF, post_type: "meta_event", meta_event_type: "lifecycle", sub_type: "connect" }));
        ws.on("message", (data) => {
          const action = JSON.parse(String(data)) as Action;
          bot.actions.push(action);
          ws.send(JSON.stringify({ ...bot.answer(action), echo: action.echo }));
        });
      });
    });
    return bot;
  }

  get live(): WebSocket | undefined {
    return this.connections.at(-1)?.socket;
  }

  /** Pushes a message event on the live connection; resolves with its message_id. */
  message(fields: { message_type: "private" | "group"; user_id: number; group_id?: number; message: unknown; nickname?: string }): number {
    const message_id = this.nextMessageId++;
    const event = {
      time: Math.floor(Date.now() / 1000),
      self_id: SELF,
      post_type: "message",
      sub_type: fields.message_type === "group" ? "normal" : "friend",
      message_id,
      font: 0,
      raw_message: typeof fields.message === "string" ? fields.message : "",
      sender: { user_id: fields.user_id, nickname: fields.nickname ?? "someone" },
      ...fields,
    };
    this.live!.send(JSON.stringify(event));
    return message_id;
  }

  /** Waits as long as `until` does: the first message's turn waits for the daemon's plugins to start. */
  async nextAction(since: number, timeoutMs = 60_000): Promise<Action> {
    await until(() => this.actions.length > since, "an action from homed", timeoutMs);
    return this.actions[since]!;
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.socket.terminate();
    this.wss.close();
    await new Promise((r) => this.http.close(r));
  }
}

/** The text segments of a message, joined. */
export const textOf = (message: any[]) =>
  message
    .filter((s) => s.type === "text")
    .map((s) => s.data.text)
    .join("");
