/**
 * The error answers of the HTTP API, their status from the error table (src/errors/table.ts).
 * Routes throw a HomedError (or let a known error through); the app's one `onError` handler
 * answers. Two shapes, chosen by path: `{error, message}` for homed's own API, and OpenAI's
 * `{error: {message, type, param, code}}` under /v1, because OpenAI's SDKs read only that one (a
 * flat body reached SDK users as `401 "unauthorized"`, the explanation lost).
 */
import type { Context, ErrorHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ERRORS, errorCodeOf, HomedError, type ErrorCode } from "../errors/index.ts";

export const errorBody = (error: string, message: string) => ({ error, message });

/** OpenAI's error `type` for a status: what its SDKs and clients branch on. */
function openAiType(status: number): string {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 429) return "rate_limit_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/** The OpenAI error body: homed's code as `code`, the request field at fault (or null) as `param`. */
export const openAiErrorBody = (code: string, message: string, status: number, param?: string) => ({
  error: { message, type: openAiType(status), param: param ?? null, code },
});

const isOpenAiPath = (path: string) => path === "/v1" || path.startsWith("/v1/");

/** A public failure: its table row's status, its message, and the field at fault when known. */
export type PublicError = { status: ContentfulStatusCode; error: ErrorCode; message: string; param?: string };

/**
 * What the API says about a thrown value, or undefined when it says nothing but `internal`:
 * anything the table does not know, and the rows with status 500 (their messages may name paths).
 */
export function publicError(error: unknown): PublicError | undefined {
  const code = errorCodeOf(error);
  if (!code || ERRORS[code].http === 500) return undefined;
  const param = error instanceof HomedError ? error.param : undefined;
  return { status: ERRORS[code].http as ContentfulStatusCode, error: code, message: (error as Error).message, ...(param ? { param } : {}) };
}

const INTERNAL: PublicError = { status: 500, error: "internal", message: "The server failed to handle this request; see the log." };

function answer(c: Context, e: PublicError): Response {
  return c.json(isOpenAiPath(c.req.path) ? openAiErrorBody(e.error, e.message, e.status, e.param) : errorBody(e.error, e.message), e.status);
}

/**
 * The app's one error handler: a known code answers with its row's status; anything else is
 * `internal` (500), with the stack in the log.
 */
export function apiErrorHandler(log: { error(line: string): void }): ErrorHandler {
  return (error, c) => {
    const known = publicError(error);
    if (known) return answer(c, known);
    log.error(`${c.req.method} ${c.req.path} failed: ${error.stack ?? error.message}`);
    return answer(c, INTERNAL);
  };
}

/** The answer for a HomedError built on the spot (middleware that returns rather than throws). */
export const errorResponse = (c: Context, code: ErrorCode, message: string): Response => answer(c, { status: ERRORS[code].http as ContentfulStatusCode, error: code, message });

/** What a stream that already began says when it fails: OpenAI's error body, as a chunk. */
export const openAiStreamError = (error: unknown) => {
  const e = publicError(error) ?? INTERNAL;
  return openAiErrorBody(e.error, e.message, e.status, e.param);
};
