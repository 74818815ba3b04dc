// Talks to the daemon. Every request carries the session cookie (same origin) and the console
// header that mutating requests need; errors surface as {error, message} from the server.
import { t } from "/assets/i18n.js";

export class ApiError extends Error {
  constructor(status, body) {
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
async function reach(path, init) {
  try {
    return await fetch(path, init);
  } catch (error) {
    if (error instanceof TypeError) throw new Error(t("shell.notAnswering", { origin: location.origin }));
    throw error;
  }
}

export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: { ...HEADERS } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await reach(path, init);
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    if (response.status === 401 && path !== "/api/login") window.dispatchEvent(new Event("homed:logged-out"));
    throw new ApiError(response.status, data);
  }
  return data;
}

/**
 * POSTs a body and calls onEvent(name, data) for each server-sent event as it arrives.
 * EventSource cannot POST, so the stream is read by hand: events are separated by a blank line.
 */
export async function streamPost(path, body, contentType, onEvent, signal) {
  const response = await reach(path, { method: "POST", credentials: "same-origin", headers: { ...HEADERS, "content-type": contentType }, body, signal });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value.replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (data.length) onEvent(name, JSON.parse(data.join("\n")));
    }
  }
}

/** Sends a chat message; the turn's events stream back. */
export const streamMessage = (sessionId, content, onEvent, signal) =>
  streamPost(`/api/sessions/${encodeURIComponent(sessionId)}/messages`, JSON.stringify({ content }), "application/json", onEvent, signal);
