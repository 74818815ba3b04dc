/** Maps failures of a turn to API errors (no provider, an unreadable key, the provider failed). */
import { ApiError, publicError } from "./errors.ts";

export function turnError(error: unknown): ApiError | undefined {
  const known = publicError(error);
  return known && new ApiError(known.status, known.error, known.message, { cause: error });
}
