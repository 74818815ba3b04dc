// Talks to the daemon. Every request carries the session cookie (same origin) and the console
// header that mutating requests need; errors surface as {error, message} from the server.
import type { MessageEvents } from "./api-types.ts";
import { t } from "./i18n.ts";

/** The daemon's error body: a stable code and a message in English. */
type ErrorBody = { error?: string; message?: string } | null;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, body: ErrorBody) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.error ?? "http";
  }
}

const HEADERS = { "x-homed-request": "1" };

/**
 * fetch, but a refused connection says what it means: the browser's own words ("Failed to
 * fetch", "NetworkError…") do not tell a person that the daemon is down.
 */
async function reach(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (error) {
    if (error instanceof TypeError) throw new Error(t("shell.notAnswering", { origin: location.origin }));
    throw error;
  }
}

/**
 * A JSON request; `T` is the answer's type, which the caller names from the server's own types
 * (api-types.ts) so that a changed API breaks the console's compile.
 */
// biome-ignore lint/suspicious/noExplicitAny: a page that has not named the answer's type yet gets any
export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { ...HEADERS };
  const init: RequestInit = { method, credentials: "same-origin", headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await reach(path, init);
  if (response.status === 204) return null as T;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && path !== "/api/login") window.dispatchEvent(new Event("homed:logged-out"));
    throw new ApiError(response.status, data);
  }
  return data as T;
}

/**
 * POSTs a body and calls onEvent({name, data}) for each server-sent event as it arrives; `E` names
 * each event's data (the route's own type), so a switch on `name` knows what `data` is.
 * EventSource cannot POST, so the stream is read by hand: events are separated by a blank line.
 */
export type Streamed<E> = { [K in keyof E]: { name: K; data: E[K] } }[keyof E];

export async function streamPost<E>(path: string, body: BodyInit, contentType: string, onEvent: (event: Streamed<E>) => void, signal?: AbortSignal): Promise<void> {
  const response = await reach(path, { method: "POST", credentials: "same-origin", headers: { ...HEADERS, "content-type": contentType }, body, signal });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n/g, "\n");
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) onEvent({ name, data: JSON.parse(data.join("\n")) } as Streamed<E>);
    }
  }
}

/** Sends a chat message (with `replace`, in place of that stored event and all after it); the turn's events stream back. */
export const streamMessage = (
  sessionId: string,
  message: { content?: string; audio?: { data: string; mime: string }; replace?: string; images?: { url: string }[] },
  onEvent: (event: Streamed<MessageEvents>) => void,
  signal?: AbortSignal,
) => streamPost<MessageEvents>(`/api/sessions/${encodeURIComponent(sessionId)}/messages`, JSON.stringify(message), "application/json", onEvent, signal);
