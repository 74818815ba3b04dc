/** Maps failures of a turn to API errors with a fitting status. */
import { NoProviderError } from "../kernel/index.ts";
import { ProviderError } from "../llm/index.ts";
import { SecretUnreadable } from "../store/index.ts";
import { ApiError } from "./errors.ts";

export function turnError(error: unknown): ApiError | undefined {
  if (error instanceof NoProviderError) return new ApiError(503, "no_provider", error.message, { cause: error });
  if (error instanceof SecretUnreadable) return new ApiError(503, error.code, error.message, { cause: error });
  if (error instanceof ProviderError) {
    const status = error.code === "timeout" ? 504 : 502;
    return new ApiError(status, `provider_${error.code}`, error.message, { cause: error });
  }
  return undefined;
}
