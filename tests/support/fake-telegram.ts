/**
 * A stand-in for the Telegram Bot API on loopback, written from its specification
 * (https://core.telegram.org/bots/api): requests to `/bot<token>/<method>` with a JSON or query
 * body, answers `{"ok":true,"result":…}` or `{"ok":false,"error_code","description"}`; a wrong
 * token is 401 Unauthorized. getUpdates is long polling: it returns the updates from `offset` on
 * (which confirms and forgets every earlier one) or waits up to `timeout` seconds for one.
 * sendMessage, sendChatAction, getMe and getFile (with `/file/bot<token>/<path>` downloads) answer
 * as the Bot API does; every call is recorded for the test to read.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type BotCall = { method: string; params: any; at: number };

export const BOT = { id: 7000, is_bot: true, first_name: "homed", username: "homed_test_bot" };

export class FakeTelegram {
  readonly calls: BotCall[] = [];
  /** Files getFile can name, by file_id. */
  readonly files = new Map<string, { path: string; bytes: Buffer }>();
  private updates: any[] = [];
  private nextUpdate = 1;
  private nextMessage = 1;
  private waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly token: string,
  ) {}

  static async start(token: string): Promise<FakeTelegram> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const fake = new FakeTelegram(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token);
    server.on("request", (request, response) => {
      const send = (status: number, body: unknown, type = "application/json") =>
        response.writeHead(status, { "content-type": type }).end(typeof body === "string" || Buffer.isBuffer(body) ? body : JSON.stringify(body));
      void fake.route(request).then(
        ({ status, body, type }) => send(status, body, type),
        (error: Error) => send(500, { ok: false, error_code: 500, description: error.message }),
      );
    });
    return fake;
  }

  /** A message from a person, as an update: `chat` is a private chat with them unless given. */
  message(fields: { chatId: number; text?: string; chatType?: "private" | "group" | "supergroup"; from?: { id: number; first_name: string }; photo?: string; replyTo?: any }): any {
    const from = fields.from ?? { id: fields.chatId, first_name: `user${fields.chatId}` };
    const message = {
      message_id: this.nextMessage++,
      from: { ...from, is_bot: false },
      chat: { id: fields.chatId, type: fields.chatType ?? "private", ...(fields.chatType && fields.chatType !== "private" ? { title: "a group" } : { first_name: from.first_name }) },
      date: Math.floor(Date.now() / 1000),
      ...(fields.photo
        ? {
            photo: [
              { file_id: `${fields.photo}-small`, file_unique_id: "s", width: 90, height: 90 },
              { file_id: fields.photo, file_unique_id: "l", width: 800, height: 800 },
            ],
            caption: fields.text,
          }
        : { text: fields.text }),
      ...(fields.replyTo ? { reply_to_message: fields.replyTo } : {}),
    };
    this.updates.push({ update_id: this.nextUpdate++, message });
    for (const wake of [...this.waiters]) wake();
    return message;
  }

  /** The calls of `method` made after `since` calls in all. */
  callsOf(method: string, since = 0): BotCall[] {
    return this.calls.slice(since).filter((c) => c.method === method);
  }

  async close(): Promise<void> {
    for (const wake of [...this.waiters]) wake();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async route(request: IncomingMessage): Promise<{ status: number; body: unknown; type?: string }> {
    const url = new URL(request.url ?? "/", this.url);
    const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (file) {
      const found = [...this.files.values()].find((f) => f.path === file[2]);
      if (file[1] !== this.token || !found) return { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } };
      return { status: 200, body: found.bytes, type: "application/octet-stream" };
    }
    const call = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!call) return { status: 404, body: { ok: false, error_code: 404, description: "Not Found" } };
    if (call[1] !== this.token) return { status: 401, body: { ok: false, error_code: 401, description: "Unauthorized" } };
    let text = "";
    for await (const chunk of request) text += chunk;
    const params = text ? JSON.parse(text) : Object.fromEntries(url.searchParams);
    const method = call[2]!;
    this.calls.push({ method, params, at: Date.now() });
    const ok = (result: unknown) => ({ status: 200, body: { ok: true, result } });
    const bad = (description: string) => ({ status: 400, body: { ok: false, error_code: 400, description: `Bad Request: ${description}` } });
    switch (method) {
      case "getMe":
        return ok(BOT);
      case "getUpdates":
        return ok(await this.poll(params.offset === undefined ? undefined : Number(params.offset), Number(params.timeout ?? 0)));
      case "sendMessage": {
        if (params.chat_id === undefined) return bad("chat_id is empty");
        if (typeof params.text !== "string" || params.text.length === 0) return bad("message text is empty");
        if (params.text.length > 4096) return bad("message is too long");
        return ok({ message_id: this.nextMessage++, from: BOT, chat: { id: Number(params.chat_id), type: "private" }, date: Math.floor(Date.now() / 1000), text: params.text });
      }
      case "sendChatAction":
        return params.chat_id === undefined ? bad("chat_id is empty") : ok(true);
      case "getFile": {
        const found = this.files.get(params.file_id);
        return found ? ok({ file_id: params.file_id, file_unique_id: "u", file_size: found.bytes.length, file_path: found.path }) : bad("wrong file_id or the file is temporarily unavailable");
      }
      default:
        return { status: 404, body: { ok: false, error_code: 404, description: "Not Found: method not found" } };
    }
  }

  /** getUpdates: an offset confirms every update before it; with none waiting, hold the request up to `timeout` s. */
  private async poll(offset: number | undefined, timeout: number): Promise<any[]> {
    if (offset !== undefined) this.updates = this.updates.filter((u) => u.update_id >= offset);
    if (this.updates.length === 0 && timeout > 0) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, timeout * 1000);
        this.waiters.add(wake);
      });
    }
    return [...this.updates];
  }
}
