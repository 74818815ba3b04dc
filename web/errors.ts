// The daemon's errors in people's words: the API answers {error: CODE, message}, and the console
// says a known code as a sentence in the reader's language (web/i18n.ts, `errors`). Where the
// daemon's message is technical (a validation failure, a provider's answer), the sentence says
// what it means and the message stays one click away (Notice shows it in a <details>); where it
// names what was wrong in plain terms (a key's name, a limit), it follows the words as before. A
// code the console has no words for is shown as the daemon sent it in English, and as a general
// sentence with the message as detail in Chinese.
import { ApiError } from "./api.ts";
import { has, language, type TextKey, t } from "./i18n.ts";

/** Codes whose message names what exactly was wrong in plain terms (the name, the limit): kept after the words. */
const DETAILED = new Set(["ambiguous", "key_exists", "too_large", "embedder_unreachable"]);
/** Codes whose message is a validation failure (zod's words, a path): explained, the message kept as detail. */
const VALIDATION = new Set(["invalid_json", "invalid_request", "invalid_history", "invalid_arguments", "import_failed"]);

/**
 * The technical detail behind each sentence errorWords gave: the pages pass errors on as text
 * (into their notices), so the detail travels beside it, keyed by the sentence, for Notice to
 * offer expandable. Bounded: the oldest go first.
 */
const DETAIL = new Map<string, string>();
const KEPT = 50;

function remember(words: string, detail: string): string {
  if (detail && detail !== words) {
    DETAIL.delete(words);
    DETAIL.set(words, detail);
    if (DETAIL.size > KEPT) DETAIL.delete(DETAIL.keys().next().value!);
  }
  return words;
}

/** The technical detail of a sentence errorWords gave, if it had one. */
export const detailOf = (words: string): string | undefined => DETAIL.get(words);

/**
 * A validation failure's first issue in words: "model: Too small: expected string to have >=1
 * characters" (the daemon's `path: zod message`) → "The Model field is empty: fill it in."
 */
function validationWords(code: string, message: string): string {
  const [, path, issue = message] = /^([\w.]+): (.*)$/s.exec(message) ?? [];
  const field = path?.split(".").at(-1);
  const fieldKey = `look.field_${field}`;
  if (/expected (object|array), received/.test(issue) || code === "invalid_history" || code === "import_failed") return t("look.badFile");
  if (!field || !has(fieldKey)) return t(code === "invalid_json" ? "look.notJson" : "look.invalidInput");
  const name = t(fieldKey as TextKey);
  if (/^Too small: expected string/.test(issue) || /received undefined/.test(issue)) return t("look.fieldEmpty", { field: name });
  if (/^Too big/.test(issue)) return t("look.fieldTooBig", { field: name });
  return t("look.fieldInvalid", { field: name });
}

/** A daemon error (its code and message) in the reader's words; the technical detail, if any, goes to detailOf. */
export function errorWords(code: string, message: string): string {
  const key = `errors.${code}`;
  if (VALIDATION.has(code)) return remember(validationWords(code, message), message);
  if (code.startsWith("provider_") && code !== "provider_not_found") {
    const status = /HTTP (\d{3})/.exec(message)?.[1];
    const said = status ? t("look.providerHttp", { status }) : has(key) ? t(key) : t("look.providerFailed");
    return remember(t("look.sentence", { text: said }) + t("look.providerNext"), message);
  }
  if (code === "withDetails") return message;
  // Codes the console learned after its first words (web/i18n.ts, console27), said with the daemon's message as detail.
  const later = `console27.error_${code}`;
  if (!has(key) && has(later)) return remember(t("look.sentence", { text: t(later) }), message);
  // A code the console does not know: in English the daemon's message reads as a sentence; in
  // another language a sentence in it, the message as detail.
  if (!has(key)) return language() === "en" ? message : remember(t("console27.unknownError"), message);
  return DETAILED.has(code) ? t("errors.withDetails", { text: t(key), details: message }) : t(key);
}

/** Any error a page caught: the daemon's by its code, anything else (the daemon not answering) by its message. */
export const errorText = (error: unknown): string => (error instanceof ApiError ? errorWords(error.code, error.message) : (error as Error).message);
