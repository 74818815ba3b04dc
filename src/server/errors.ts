/**
 * The one error shape of the HTTP API: `{error, message}`, its status from the error table
 * (src/errors/table.ts). Routes throw a HomedError (or let a known error through); the app's one
 * `onError` handler answers with `errorResponse`.
 */
import type { Context, ErrorHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ERRORS, errorCodeOf, HomedError, type ErrorCode } from "../errors/index.ts";

/**
 * An API failure with the status spelled out: kept for src/server/openai-compat.ts, which
 * another change is rewriting; new routes throw `new HomedError(code, message)` instead. The
 * status answered is the table's (they agree for the two codes it throws: tests/server/api.test.ts).
 */
export class ApiError extends HomedError {
  constructor(
    readonly status: ContentfulStatusCode,
    code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(code, message, options);
    this.name = "ApiError";
  }

  /** The body's `error` field. */
  get error(): string {
    return this.code;
  }
}

export const errorBody = (error: string, message: string) => ({ error, message });

/**
 * What the API says about a thrown value, or undefined when it says nothing but `internal`:
 * anything the table does not know, and the rows with status 500 (their messages may name paths).
 */
export function publicError(error: unknown): { status: ContentfulStatusCode; error: ErrorCode; message: string } | undefined {
  const code = errorCodeOf(error);
  if (!code || ERRORS[code].http === 500) return undefined;
  return { status: ERRORS[code].http as ContentfulStatusCode, error: code, message: (error as Error).message };
}

/**
 * The app's one error handler: a known code answers `{error, message}` with its row's status;
 * anything else is `internal` (500), with the stack in the log.
 */
export function apiErrorHandler(log: { error(line: string): void }): ErrorHandler {
  return (error, c) => {
    const known = publicError(error);
    if (known) return c.json(errorBody(known.error, known.message), known.status);
    log.error(`${c.req.method} ${c.req.path} failed: ${error.stack ?? error.message}`);
    return c.json(errorBody("internal", "The server failed to handle this request; see the log."), 500);
  };
}

/** The `{error, message}` answer for a HomedError built on the spot (middleware that returns). */
export const errorResponse = (c: Context, code: ErrorCode, message: string): Response =>
  c.json(errorBody(code, message), ERRORS[code].http as ContentfulStatusCode);
