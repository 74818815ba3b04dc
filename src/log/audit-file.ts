/**
 * The audit trail, apart from the daemon log: `<data>/audit.log`, one JSON line per thing a person
 * (or a key) did that changes who may do what — a console login or logout, a provider or embedder
 * saved, an app key made or revoked, the admin token reset, a memory or conversation deleted.
 *
 * Why its own file: the daemon log rotates at its size cap, and every wrong login writes a line
 * there, so a flood of wrong logins (829k in 53 s, issue 31.7) rotated the login and provider lines
 * out of all four log files. Here a failed attempt is never a line of its own: failures are counted
 * per event and address and written as one summary line per minute (`count`), at most
 * `MAX_SUMMARIES_PER_MINUTE` addresses a minute and the rest as one `"remote": "(others)"` line. A
 * flood therefore adds a bounded number of lines a minute, and the file rotates only by its own,
 * generous size (`audit.1.log` … `audit.<keepRotated>.log`, the oldest removed).
 *
 * Lines are appended synchronously (O_APPEND, one write each), so `homed key` and `homed token`
 * run beside a daemon write to the same file without tearing each other's lines.
 */
import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { shiftRotated } from "./rotate.ts";

/** What was done, by whom, from where, and how it ended. `detail` is the human sentence (never a secret). */
export type AuditEntry = {
  /** A short stable name: `console_login`, `provider_changed`, `app_key_created`, … */
  event: string;
  /** `admin` (the admin token), `console` (a console login), `key:<name>` (an app key), `cli` or `unknown`. */
  who: string;
  /** The peer address of the request; absent for the command line. */
  remote?: string;
  outcome: "ok" | "failed" | "refused";
  detail?: string;
};

/** The audit file's name in the data folder. */
export const AUDIT_FILE = "audit.log";

/** 64 MiB a file, five files: months of a busy daemon's audit, and a flood adds at most ~65 lines a minute. */
export const DEFAULT_AUDIT_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_AUDIT_KEEP_ROTATED = 4;
/** Addresses with their own failure summary each minute; the others share one line. */
export const MAX_SUMMARIES_PER_MINUTE = 64;
const MINUTE_MS = 60_000;

export type AuditFileOptions = {
  maxBytes?: number;
  keepRotated?: number;
  now?: () => Date;
};

type Tally = { event: string; who: string; remote: string; outcome: AuditEntry["outcome"]; count: number; since: string; addresses?: Set<string> };

export class AuditFile {
  private fd: number | undefined;
  private size = 0;
  private readonly maxBytes: number;
  private readonly keepRotated: number;
  private readonly now: () => Date;
  /** Failures of the current minute, by event, outcome and address. */
  private tallies = new Map<string, Tally>();
  /** Addresses with a tally of their own this minute, by event and outcome. */
  private addressesOf = new Map<string, number>();
  private minute = -1;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly path: string,
    options: AuditFileOptions = {},
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_AUDIT_MAX_BYTES;
    this.keepRotated = options.keepRotated ?? DEFAULT_AUDIT_KEEP_ROTATED;
    this.now = options.now ?? (() => new Date());
    this.open();
  }

  /** One line, now. */
  write(entry: AuditEntry): void {
    this.flushIfNewMinute();
    this.append({ time: this.now().toISOString(), ...entry });
  }

  /** One failed (or refused) attempt: counted into this minute's summary, never a line of its own. */
  count(entry: Omit<AuditEntry, "detail">): void {
    this.flushIfNewMinute();
    const remote = entry.remote ?? "unknown";
    const key = `${entry.event}\u0000${entry.outcome}\u0000${remote}`;
    let tally = this.tallies.get(key);
    if (!tally) {
      const kind = `${entry.event}\u0000${entry.outcome}`;
      const addresses = this.addressesOf.get(kind) ?? 0;
      const others = `${kind}\u0000(others)`;
      if (addresses < MAX_SUMMARIES_PER_MINUTE) this.addressesOf.set(kind, addresses + 1);
      tally =
        addresses >= MAX_SUMMARIES_PER_MINUTE
          ? (this.tallies.get(others) ?? this.remember(others, { ...entry, remote: "(others)", count: 0, since: this.now().toISOString(), addresses: new Set() }))
          : this.remember(key, { ...entry, remote, count: 0, since: this.now().toISOString() });
      // The summary is written within a minute even if nothing else happens.
      this.timer ??= unref(setInterval(() => this.flushIfNewMinute(), MINUTE_MS / 4));
    }
    tally.count += 1;
    tally.addresses?.add(remote);
  }

  /** Writes the summaries counted so far (at a minute's end, and before closing). */
  flush(): void {
    const tallies = [...this.tallies.values()];
    this.tallies = new Map();
    this.addressesOf = new Map();
    for (const { addresses, ...t } of tallies) this.append({ time: this.now().toISOString(), ...t, ...(addresses ? { addresses: addresses.size } : {}) });
  }

  close(): void {
    this.flush();
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private remember(key: string, tally: Tally): Tally {
    this.tallies.set(key, tally);
    return tally;
  }

  private flushIfNewMinute(): void {
    const minute = Math.floor(this.now().getTime() / MINUTE_MS);
    if (minute !== this.minute && this.tallies.size > 0) this.flush();
    this.minute = minute;
    if (this.tallies.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private open(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    this.fd = openSync(this.path, "a", 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private append(line: object): void {
    if (this.fd === undefined) return;
    const text = `${JSON.stringify(line)}\n`;
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.maxBytes) this.rotate();
    writeSync(this.fd!, text);
    this.size += bytes;
  }

  /** `audit.N.log` → `.N+1` (the last removed), the current file → `audit.1.log`, and a fresh file. */
  private rotate(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    const ext = extname(this.path);
    shiftRotated(this.path, (n) => join(dirname(this.path), `${basename(this.path, ext)}.${n}${ext}`), this.keepRotated);
    this.open();
  }
}

function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
