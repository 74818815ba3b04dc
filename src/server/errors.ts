/** The one error shape of the HTTP API: `{error, message}` with a fitting status. */
import type { ContentfulStatusCode } from "hono/utils/http-status";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly error: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "ApiError";
  }
}

export const errorBody = (error: string, message: string) => ({ error, message });
