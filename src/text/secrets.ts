/**
 * Secrets are never stored as memory (issue 15): text about to become a note, a distilled fact,
 * an excerpt or an imported event passes through `maskSecrets` first. Each secret shape is
 * replaced by `[secret masked: KIND]`; the caller gets the kinds and counts (never the value) to
 * log a reason with the record's id.
 *
 * Why a pattern table and not a library: secretlint (the well-kept npm option) is an async,
 * config-loading file linter with one package per rule, and has neither card numbers nor a
 * generic `password = value` rule; this runs synchronously on every write. What it finds is
 * shapes with a distinctive prefix or structure — no entropy guessing, so a git SHA, a UUID or
 * base64 stays intact (a secret with no recognisable shape is not caught; docs/security.md).
 */

export type MaskedSecret = { kind: string; count: number };
export type MaskResult = { text: string; masked: MaskedSecret[] };

const marker = (kind: string) => `[secret masked: ${kind}]`;

/** A token's characters may not continue past the match (base64url and the like). */
const END = "(?![A-Za-z0-9_-])";

/** Provider keys and tokens by their published prefixes; order matters (sk-ant- before sk-). */
const SHAPES: readonly { kind: string; pattern: RegExp }[] = [
  { kind: "private-key", pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g },
  { kind: "anthropic-key", pattern: new RegExp(`(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,}${END}`, "g") },
  { kind: "openai-key", pattern: new RegExp(`(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}${END}`, "g") },
  { kind: "stripe-key", pattern: new RegExp(`(?<![A-Za-z0-9_-])(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}${END}`, "g") },
  { kind: "github-token", pattern: new RegExp(`(?<![A-Za-z0-9_-])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})${END}`, "g") },
  { kind: "slack-token", pattern: new RegExp(`(?<![A-Za-z0-9_-])xox[abposr]-[A-Za-z0-9-]{10,}${END}`, "g") },
  { kind: "aws-access-key", pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: "google-api-key", pattern: new RegExp(`(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}${END}`, "g") },
  // homed's own app keys (src/server/app-keys.ts): "hk-" and 43 base64url characters.
  { kind: "homed-app-key", pattern: new RegExp(`(?<![A-Za-z0-9_-])hk-[A-Za-z0-9_-]{32,}${END}`, "g") },
  { kind: "jwt", pattern: new RegExp(`(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}${END}`, "g") },
];

/**
 * `password = value`, `api_key: "value"` and the like: the name stays, the value goes. A value
 * shorter than 6 characters is left alone ("token: 5", "password: none"), and so is prose with no
 * `=` or `:` after the name ("password reset link").
 */
const KEY_VALUE =
  /(?<![A-Za-z0-9])((?:password|passwd|pwd|passphrase|secret|client[_-]?secret|token|access[_-]?token|auth[_-]?token|api[_-]?key|access[_-]?key|secret[_-]?key|private[_-]?key)["']?\s*[:=]\s*)(?!\[secret masked:)("[^"\n]{6,}"|'[^'\n]{6,}'|[^\s"',;]{6,})/gi;

/**
 * Card numbers: 13–19 digits, contiguous or in groups of four (Amex 4-6-5), starting 2–6 (Visa,
 * Mastercard, Amex, Discover…), standing alone (not inside a word or a hex id such as a git SHA), and passing the Luhn check — so a phone number, a date, an ISBN
 * written with its dashes, a millisecond timestamp or an order number that fails Luhn stays.
 */
const CARD = /(?<![\w-])(?:[2-6]\d{12,18}|[2-6]\d{3}([ -])\d{4}\1\d{4}\1\d{1,7}|3\d{3}([ -])\d{6}\2\d{5})(?![\w-])/g;

/** The Luhn checksum: every second digit from the right doubled, the sum a multiple of 10. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * Secrets this process knows by value rather than by shape — homed's own admin token, whose
 * random base64url has no prefix a pattern could catch — masked wherever they appear.
 */
const KNOWN = new Map<string, string>();

/** Masks `value` (at least 16 characters: shorter ones would mask ordinary words) as `kind` from now on. */
export function maskKnownSecret(kind: string, value: string): void {
  if (value.length >= 16) KNOWN.set(value, kind);
}

/** `text` with every secret shape masked, and what was masked (kinds and counts only). */
export function maskSecrets(text: string): MaskResult {
  const counts = new Map<string, number>();
  const count = (kind: string) => counts.set(kind, (counts.get(kind) ?? 0) + 1);
  let out = text;
  for (const [value, kind] of KNOWN) {
    if (!out.includes(value)) continue;
    const pieces = out.split(value);
    for (let i = 1; i < pieces.length; i++) count(kind);
    out = pieces.join(marker(kind));
  }
  for (const { kind, pattern } of SHAPES) {
    out = out.replace(pattern, () => {
      count(kind);
      return marker(kind);
    });
  }
  out = out.replace(KEY_VALUE, (_whole, name: string, value: string) => {
    count("password-value");
    // A quoted value keeps its quotes, so JSON (`"token": "…"`) stays JSON.
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : "";
    return `${name}${quote}${marker("password-value")}${quote}`;
  });
  out = out.replace(CARD, (whole) => {
    const digits = whole.replace(/[ -]/g, "");
    if (digits.length < 13 || digits.length > 19 || !passesLuhn(digits)) return whole;
    count("card-number");
    return marker("card-number");
  });
  return { text: out, masked: [...counts].map(([kind, n]) => ({ kind, count: n })) };
}

/** "2 openai-key, 1 card-number": a log line's reason, with no secret in it. */
export function describeMasked(masked: readonly MaskedSecret[]): string {
  return masked.map((m) => `${m.count} ${m.kind}`).join(", ");
}

/** Adds one result's kinds into a running total (a record masked in several fields). */
export function mergeMasked(into: MaskedSecret[], more: readonly MaskedSecret[]): MaskedSecret[] {
  for (const m of more) {
    const known = into.find((k) => k.kind === m.kind);
    if (known) known.count += m.count;
    else into.push({ ...m });
  }
  return into;
}
