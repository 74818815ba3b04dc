/**
 * `homed chat`: a terminal client for a running daemon. Streams the answer as it comes, shows
 * tool calls and what memory was recalled; `/new`, `/sessions`, `/quit`. Ctrl-C cancels the
 * turn in progress (the daemon keeps what was said), not the program. While attached, the answers
 * of turns homed starts itself in this session (a reminder due, new feed items) are printed as
 * they come (`/api/proactive/events`).
 */
import { readFileSync } from "node:fs";
import { userInfo } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ADMIN_TOKEN_FILE } from "../server/index.ts";
import type { CommandIo, Settings } from "../config/index.ts";
import { readSse } from "./sse.ts";
import { HomedError } from "../errors/index.ts";

export type ChatIo = Pick<CommandIo, "stdout" | "stderr" | "stdin">;

export type ChatOptions = { settings: Settings; token?: string; partner?: string };

type SessionView = { id: string; channel: string; partner: string; updatedAt: number };

export class ChatError extends HomedError {
  constructor(message: string, options?: ErrorOptions) {
    super("chat", message, options);
  }
}

/** The token given, else the one in the daemon's data folder. */
export function adminToken(options: Pick<ChatOptions, "settings" | "token">): string {
  if (options.token) return options.token;
  const path = join(options.settings.dataDir, ADMIN_TOKEN_FILE);
  try {
    return readFileSync(path, "utf8").trim();
  } catch (error) {
    throw new ChatError(`Cannot read the admin token at ${path}: ${(error as Error).message} (pass -token or -data of the daemon)`, { cause: error });
  }
}

/** The running daemon's address, from -addr. */
export function daemonBase(settings: Settings): string {
  const { hostname, port } = settings.listen;
  return `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
}

export async function runChat(options: ChatOptions, io: ChatIo): Promise<number> {
  const base = daemonBase(options.settings);
  const headers = { authorization: `Bearer ${adminToken(options)}`, "content-type": "application/json" };
  const api = async (path: string, init: RequestInit = {}) => {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { ...init, headers });
    } catch (error) {
      throw new ChatError(`Cannot reach homed at ${base}: ${(error as Error).message} (is the daemon running? see -addr)`, { cause: error });
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      throw new ChatError(`homed answered ${response.status}: ${body.message ?? response.statusText}`);
    }
    return response;
  };
  const open = async (partner: string) => (await (await api("/api/sessions", { method: "POST", body: JSON.stringify({ channel: "terminal", partner }) })).json()) as SessionView;

  /** Prints the woken answers of one session until aborted; a daemon without the stream just prints none. */
  let listening: AbortController | undefined;
  const listen = (sessionId: string) => {
    listening?.abort();
    const controller = new AbortController();
    listening = controller;
    void (async () => {
      const response = await fetch(`${base}/api/proactive/events?client=chat&session=${encodeURIComponent(sessionId)}`, { headers, signal: controller.signal });
      if (!response.ok || !response.body) return;
      for await (const { event, data } of readSse(response.body)) {
        if (event !== "woken") continue;
        const woken = JSON.parse(data) as { text: string; source: { kind: string; plugin: string } };
        io.stdout(`\n· ${woken.source.kind} (${woken.source.plugin}) ·\n${woken.text}\n`);
      }
    })().catch(() => {});
  };

  const partner = options.partner ?? userInfo().username;
  let session = await open(partner);
  io.stdout(`homed chat · session ${session.id.slice(0, 8)} (${session.partner}) · /new /sessions /quit · Ctrl-C cancels a turn\n`);
  listen(session.id);

  let inFlight: AbortController | undefined;
  const onSigint = () => {
    if (inFlight) inFlight.abort();
    else io.stdout("\n(type /quit to leave)\n");
  };
  process.on("SIGINT", onSigint);

  const turn = async (content: string) => {
    inFlight = new AbortController();
    try {
      const response = await api(`/api/sessions/${session.id}/messages`, { method: "POST", body: JSON.stringify({ content }), signal: inFlight.signal });
      const shown = new Set<number>();
      for await (const { event, data } of readSse(response.body!)) {
        const e = JSON.parse(data);
        if (event === "content") io.stdout(e.text);
        else if (event === "recall")
          io.stdout(
            `· recalled · L2×${e.report.counts?.L2 ?? 0} L3×${e.report.counts?.L3 ?? 0} · ${e.report.chars ?? 0} chars${e.report.scopes ? ` · searched ${e.report.scopes.join(", ")}` : ""}${e.report.restored?.length ? ` · ${e.report.restored.length} earlier events back in context` : ""}\n`,
          );
        else if (event === "tool_call" && e.name && !shown.has(e.index)) {
          shown.add(e.index);
          io.stdout(`\n→ ${e.name}\n`);
        } else if (event === "tool_result") io.stdout(`← ${e.name}${e.denied ? " (denied)" : ""}: ${e.result.slice(0, 200)}\n`);
        else if (event === "error") io.stderr(`homed: ${e.message}\n`);
        else if (event === "done") io.stdout(e.stopReason === "no_tool_calls" ? "\n" : `\n(${e.stopReason})\n`);
      }
    } catch (error) {
      if (inFlight.signal.aborted) io.stdout("\n(cancelled)\n");
      else throw error;
    } finally {
      inFlight = undefined;
    }
  };

  const lines = createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const raw of lines) {
      const line = raw.trim();
      if (!line) continue;
      if (line === "/quit") break;
      if (line === "/new") {
        session = await open(`${partner}-${Date.now().toString(36)}`);
        listen(session.id);
        io.stdout(`new session ${session.id.slice(0, 8)} (${session.partner})\n`);
      } else if (line === "/sessions") {
        const { sessions } = (await (await api("/api/sessions")).json()) as { sessions: SessionView[] };
        for (const s of sessions) io.stdout(`${s.id === session.id ? "*" : " "} ${s.id.slice(0, 8)}  ${s.channel}/${s.partner}  ${new Date(s.updatedAt).toISOString()}\n`);
      } else if (line.startsWith("/")) {
        io.stdout(`unknown command ${line} (/new /sessions /quit)\n`);
      } else {
        await turn(line);
      }
    }
  } finally {
    listening?.abort();
    process.off("SIGINT", onSigint);
    lines.close();
  }
  return 0;
}
