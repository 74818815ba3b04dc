/**
 * The admin token: created on first run in `<data>/admin.token` (mode 0600), required as
 * `Authorization: Bearer <token>` on every API route. Only its last four characters are ever
 * logged or shown.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const ADMIN_TOKEN_FILE = "admin.token";

export const tokenHint = (token: string) => `…${token.slice(-4)}`;

/** Reads the token, creating it when the data folder has none. */
export function ensureAdminToken(dataDir: string): { token: string; path: string; created: boolean } {
  const path = join(dataDir, ADMIN_TOKEN_FILE);
  if (existsSync(path)) {
    const token = readFileSync(path, "utf8").trim();
    if (token.length >= 32) {
      chmodSync(path, 0o600);
      return { token, path, created: false };
    }
  }
  return { token: resetAdminToken(dataDir), path, created: true };
}

/** Writes a new random token (the old one stops working) and returns it. */
export function resetAdminToken(dataDir: string): string {
  const token = randomBytes(32).toString("base64url");
  const path = join(dataDir, ADMIN_TOKEN_FILE);
  writeFileSync(path, `${token}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return token;
}

export function tokensMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
