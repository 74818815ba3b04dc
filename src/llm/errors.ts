/** Failures of a provider call, with a string code and whether retrying can help. */
import { HomedError } from "../errors/index.ts";

/** Every way a provider call fails; the API shows each as `provider_<code>` (src/errors/table.ts). */
export const PROVIDER_ERROR_CODES = [
  "rate_limited", // 429
  "server_error", // 5xx
  "bad_request", // other 4xx: the request itself is wrong; retrying repeats the mistake
  "network", // connection refused/reset, DNS
  "timeout",
  "aborted", // the caller cancelled
  "bad_response", // the provider answered something that is not a chat completion
] as const;

export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

export class ProviderError extends HomedError {
  constructor(
    override readonly code: ProviderErrorCode,
    message: string,
    readonly status?: number,
    /** The provider's own words, verbatim (shown to the user, e.g. on "test connection"). */
    readonly body?: string,
    options?: ErrorOptions & { retryAfterSeconds?: number },
  ) {
    super(code, message, options);
    this.name = "ProviderError";
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }

  /** The provider's `Retry-After`, when it sent one. */
  readonly retryAfterSeconds?: number;

  /** `rate_limited` from a provider is not the API's own 429: callers see `provider_rate_limited`. */
  override get publicCode(): string {
    return `provider_${this.code}`;
  }

  get retryable(): boolean {
    return this.code === "rate_limited" || this.code === "server_error" || this.code === "network";
  }
}

export async function errorFromResponse(response: Response): Promise<ProviderError> {
  const body = await response.text().catch(() => "");
  const status = response.status;
  const code: ProviderErrorCode = status === 429 ? "rate_limited" : status >= 500 ? "server_error" : "bad_request";
  const retryAfter = Number(response.headers.get("retry-after"));
  return new ProviderError(code, `Provider answered HTTP ${status}: ${body.slice(0, 500)}`, status, body, {
    retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  });
}
