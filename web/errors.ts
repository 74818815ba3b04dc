// The daemon's errors in the reader's language: the API answers {error: CODE, message}, and the
// console says a known code in its own words (web/i18n.ts, `errors`), adding the daemon's message
// where it carries the details; a code the console does not know yet is shown as the daemon sent it.
import { ApiError } from "./api.ts";
import { has, t } from "./i18n.ts";

/** Codes whose message names what exactly was wrong (the field, the name, the limit): kept after the words. */
const DETAILED = new Set([
  "invalid_json",
  "invalid_request",
  "invalid_history",
  "ambiguous",
  "key_exists",
  "too_large",
  "import_failed",
  "embedder_unreachable",
  "provider_bad_request",
  "provider_server_error",
  "provider_bad_response",
]);

/** A daemon error (its code and message) in the reader's words. */
export function errorWords(code: string, message: string): string {
  const key = `errors.${code}`;
  if (code === "withDetails" || !has(key)) return message;
  return DETAILED.has(code) ? t("errors.withDetails", { text: t(key), details: message }) : t(key);
}

/** Any error a page caught: the daemon's by its code, anything else (the daemon not answering) by its message. */
export const errorText = (error: unknown): string => (error instanceof ApiError ? errorWords(error.code, error.message) : (error as Error).message);
