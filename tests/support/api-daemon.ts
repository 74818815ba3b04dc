/**
 * A daemon from source with its admin token at hand: start it (optionally pointed at a scripted
 * provider), open sessions and send messages over the real HTTP API.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SOURCE_HOMED, startDaemon, type Daemon } from "./process.ts";

export type ApiDaemon = Daemon & {
  data: string;
  headers: Record<string, string>;
  /** Opens (or reuses) the session of `partner`; resolves with its id. */
  openSession(partner: string): Promise<string>;
  /** Sends one message; resolves with the whole SSE reply once the turn ends. */
  send(sessionId: string, content: string): Promise<string>;
};

/** `homed`: the command that runs homed (from source by default; the compiled binary's path works too). */
/** `extraEnv`: more of the daemon's environment (HOMED_TRANSCRIPTION_MODEL for the provider's audio endpoint). */
export async function startApiDaemon(data: string, providerUrl?: string, homed: readonly string[] = SOURCE_HOMED, extraEnv: Record<string, string> = {}): Promise<ApiDaemon> {
  const env = { ...process.env, ...(providerUrl ? { HOMED_BASE_URL: providerUrl, HOMED_MODEL: "scripted" } : {}), ...extraEnv };
  const daemon = await startDaemon([...homed, "-data", data, "-addr", "127.0.0.1:0"], { env });
  const headers = { authorization: `Bearer ${readFileSync(join(data, "admin.token"), "utf8").trim()}`, "content-type": "application/json" };
  return {
    ...daemon,
    data,
    headers,
    async openSession(partner) {
      const response = await fetch(`${daemon.url}/api/sessions`, { method: "POST", headers, body: JSON.stringify({ partner }) });
      return ((await response.json()) as { id: string }).id;
    },
    async send(sessionId, content) {
      const response = await fetch(`${daemon.url}/api/sessions/${sessionId}/messages`, { method: "POST", headers, body: JSON.stringify({ content }) });
      return await response.text();
    },
  };
}
