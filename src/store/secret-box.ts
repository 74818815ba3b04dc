/**
 * Secrets at rest: API keys are sealed with AES-256-GCM (node:crypto) under a key kept in its
 * own file, `<data>/secrets.key` (0600), beside the database and never in it. A copy of the
 * database alone — a backup, a synced file, a libSQL server — shows no key. Someone who can read
 * the data folder reads both files; this does not protect against that, the folder's modes do.
 * Each secret's row name is bound into its seal, so a sealed value moved to another row fails
 * to open instead of answering for it.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HomedError } from "../errors/index.ts";

export const SECRETS_KEY_FILE = "secrets.key";
/** Marks a sealed value; a stored value without it is a plaintext one from before sealing. */
const SEALED_PREFIX = "homed-secret-v1:";
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretUnreadable extends HomedError {
  constructor(name: string, options?: ErrorOptions) {
    super("secret_unreadable", `Cannot read the stored secret ${name}: it was sealed with another ${SECRETS_KEY_FILE} (set it again)`, options);
    this.name = "SecretUnreadable";
  }
}

export class SecretKeyFileError extends HomedError {
  constructor(path: string, reason: string, options?: ErrorOptions) {
    super("secret_key_file", `Cannot use ${path}: ${reason}`, options);
    this.name = "SecretKeyFileError";
  }
}

export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: Buffer): SecretBox {
    if (key.length !== KEY_BYTES) throw new Error(`A secret key is ${KEY_BYTES} bytes, not ${key.length}`);
    return new SecretBox(key);
  }

  /** A box with a fresh key that lives only in memory (tests, throwaway stores). */
  static ephemeral(): SecretBox {
    return new SecretBox(randomBytes(KEY_BYTES));
  }

  static isSealed(value: string): boolean {
    return value.startsWith(SEALED_PREFIX);
  }

  seal(name: string, plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv).setAAD(Buffer.from(name));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
  }

  /** The plaintext of a sealed value; throws SecretUnreadable when another key (or row) sealed it. */
  open(name: string, sealed: string): string {
    const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64url");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, IV_BYTES)).setAAD(Buffer.from(name));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
    } catch (error) {
      throw new SecretUnreadable(name, { cause: error });
    }
  }
}

/**
 * The data folder's secret box: its key read from `secrets.key`, or made on first use. A key
 * file that is there but is not a key is an error, never replaced: replacing it would make
 * every stored secret unreadable.
 */
export function openSecretBox(dataDir: string): { box: SecretBox; path: string; created: boolean } {
  const path = join(dataDir, SECRETS_KEY_FILE);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw new SecretKeyFileError(path, (error as Error).message, { cause: error });
    const key = randomBytes(KEY_BYTES);
    // "wx": of two processes starting at once, one writes the key and the other reads it.
    try {
      writeFileSync(path, `${key.toString("base64url")}\n`, { mode: 0o600, flag: "wx" });
      return { box: SecretBox.fromKey(key), path, created: true };
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== "EEXIST") throw new SecretKeyFileError(path, (raced as Error).message, { cause: raced });
      text = readFileSync(path, "utf8");
    }
  }
  const key = Buffer.from(text.trim(), "base64url");
  if (key.length !== KEY_BYTES) throw new SecretKeyFileError(path, `it does not hold a ${KEY_BYTES}-byte key (restore it from the backup it came with; deleting it makes stored API keys unreadable)`);
  return { box: SecretBox.fromKey(key), path, created: false };
}
