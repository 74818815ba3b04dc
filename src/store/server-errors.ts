/**
 * What went wrong when a libSQL server (`http://`, `libsql://`) would not open, in words: the
 * client's own errors say "SERVER_ERROR: Server returned HTTP status 401" or "ECONNREFUSED:
 * Unable to connect" without the URL or what to do.
 */
import { HomedError } from "../errors/index.ts";

export class DatabaseOpenError extends HomedError {
  constructor(message: string, options?: ErrorOptions) {
    super("database_open", message, options);
  }
}

/** The URL without a token given in it (`?authToken=…`), for messages and logs. */
export const redactDbUrl = (url: string) => url.replace(/(authToken=)[^&]+/i, "$1…");

const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "ConnectionRefused", "FailedToOpenSocket"]);

/**
 * Deno's fetch fails with "fetch failed" and no code; what happened is in its cause's message
 * (measured, Deno 2.9: "... tcp connect error: Connection refused (os error 111)", TLS to a
 * plain server: "... received corrupt message of type InvalidContentType"). Named here as Bun
 * and Node name them.
 */
function codeFromCause(error: unknown): string {
  const cause = String((error as { cause?: { message?: unknown } })?.cause?.message ?? "");
  if (/Connection refused/i.test(cause)) return "ECONNREFUSED";
  if (/corrupt message|InvalidContentType|tls handshake/i.test(cause)) return "EPROTO";
  return "";
}

/** A clear error for a server that failed to open, or the error itself when it is not one of these. */
export function explainServerError(url: string, error: unknown, hadToken: boolean): unknown {
  const code = String((error as { code?: unknown })?.code ?? "") || codeFromCause(error);
  const message = String((error as Error)?.message ?? error);
  const head = `Cannot open database ${redactDbUrl(url)}`;
  if (code === "EPROTO" || /TLS handshake/i.test(message)) {
    return new DatabaseOpenError(`${head}: the TLS handshake failed (${code || message}); a libSQL server without TLS (sqld on loopback) takes http://host:port or libsql://host:port?tls=0`, {
      cause: error,
    });
  }
  if (UNREACHABLE.has(code)) return new DatabaseOpenError(`${head}: the libSQL server is not reachable (${code})`, { cause: error });
  const status = /HTTP status (\d{3})/.exec(message)?.[1];
  if (status === "401" || status === "403") {
    const what = hadToken ? "refused the auth token" : "needs an auth token";
    return new DatabaseOpenError(`${head}: the libSQL server ${what} (HTTP ${status}); set HOMED_DB_AUTH_TOKEN to a JWT the server accepts`, {
      cause: error,
    });
  }
  return error;
}
