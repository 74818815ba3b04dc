/**
 * One logger: lines go to stderr and to one file a day, `<data>/logs/homed_<YYYYmmdd>.log`
 * (local date), which every start that day appends to. A file that reaches its size cap is
 * rotated (`homed_<day>.1.log`, `.2`, … up to `keepRotated`, the oldest removed), and day files
 * older than `keepDays` are removed when a new day begins: a daemon left running for a year, or
 * restarted in a loop, keeps a bounded folder. Lines are written synchronously so that nothing
 * said before a crash is lost.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import { shiftRotated } from "./rotate.ts";
import { AuditFile, type AuditEntry, type AuditFileOptions } from "./audit-file.ts";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /**
   * An audit line: into `<data>/audit.log` (audit-file.ts) when the logger has one, and as
   * `audit: <detail>` into the log (INFO when it went through, WARN otherwise).
   */
  audit(entry: AuditEntry): void;
  /**
   * A failed or refused attempt: counted into the audit file's per-minute summary (never a line of
   * its own there), and its `detail`, when given, a WARN line of the log.
   */
  auditFailure(entry: AuditEntry): void;
  /** Path of the current log file, when there is one. */
  readonly file?: string;
  close(): void;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYYmmdd` in local time: the day in a log file's name. */
export function logFileDay(date: Date): string {
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}`;
}

/** 16 MiB a file: a week of a busy daemon's INFO lines fits in a few of them. */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_KEEP_ROTATED = 3;
export const DEFAULT_KEEP_DAYS = 14;

export type LoggerOptions = {
  level: LogLevel;
  /** Folder for the log files; without it, stderr only. */
  dir?: string;
  /** Where stderr lines go (injected in tests). */
  stderr?: (line: string) => void;
  now?: () => Date;
  /** A file that would grow past this is rotated first. */
  maxFileBytes?: number;
  /** Rotated parts kept per day (`.1` newest). */
  keepRotated?: number;
  /** Day files kept, counting today. */
  keepDays?: number;
  /** The audit file (audit-file.ts); without it, audit lines go to the log only. */
  audit?: { path: string } & AuditFileOptions;
};

const LOG_FILE = /^homed_(\d{8})(?:\.\d+)?\.log$/;

export function createLogger(options: LoggerOptions): Logger {
  const now = options.now ?? (() => new Date());
  const toStderr = options.stderr ?? ((line: string) => process.stderr.write(line));
  const file = options.dir ? new DailyFile(options.dir, options) : undefined;
  const threshold = LOG_LEVELS.indexOf(options.level);
  const write = (level: LogLevel, message: string) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const at = now();
    const line = `${at.toISOString()} ${level.toUpperCase().padEnd(5)} ${message}\n`;
    toStderr(line);
    file?.write(at, line);
  };
  // The file opens at once, so a start that fails early still leaves its reason on disk.
  file?.open(now());
  const auditFile = options.audit ? new AuditFile(options.audit.path, { now, ...options.audit }) : undefined;
  return {
    get file() {
      return file?.path;
    },
    debug: (m) => write("debug", m),
    info: (m) => write("info", m),
    warn: (m) => write("warn", m),
    error: (m) => write("error", m),
    audit: (entry) => {
      if (entry.detail !== undefined) write(entry.outcome === "ok" ? "info" : "warn", `audit: ${entry.detail}`);
      auditFile?.write(entry);
    },
    auditFailure: (entry) => {
      if (entry.detail !== undefined) write("warn", `audit: ${entry.detail}`);
      auditFile?.count(entry);
    },
    close: () => {
      auditFile?.close();
      file?.close();
    },
  };
}

/** The day's log file: opened for appending, switched at midnight, rotated at its size cap. */
class DailyFile {
  private fd: number | undefined;
  private day = "";
  private size = 0;
  path: string | undefined;
  private readonly maxBytes: number;
  private readonly keepRotated: number;
  private readonly keepDays: number;

  constructor(
    private readonly dir: string,
    options: LoggerOptions,
  ) {
    this.maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    this.keepRotated = options.keepRotated ?? DEFAULT_KEEP_ROTATED;
    this.keepDays = options.keepDays ?? DEFAULT_KEEP_DAYS;
  }

  open(at: Date): void {
    mkdirSync(this.dir, { recursive: true });
    this.day = logFileDay(at);
    this.path = join(this.dir, `homed_${this.day}.log`);
    this.fd = openSync(this.path, "a", 0o600);
    this.size = fstatSync(this.fd).size;
    this.removeOldDays(at);
  }

  write(at: Date, line: string): void {
    if (this.fd === undefined) return;
    const bytes = Buffer.byteLength(line);
    if (logFileDay(at) !== this.day) {
      this.close();
      this.open(at);
    } else if (this.size > 0 && this.size + bytes > this.maxBytes) {
      this.rotate(at);
    }
    writeSync(this.fd!, line);
    this.size += bytes;
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private rotate(at: Date): void {
    this.close();
    shiftRotated(this.path!, (n) => join(this.dir, `homed_${this.day}.${n}.log`), this.keepRotated);
    this.open(at);
  }

  private removeOldDays(at: Date): void {
    const oldest = new Date(at.getFullYear(), at.getMonth(), at.getDate() - (this.keepDays - 1));
    const keepFrom = logFileDay(oldest);
    for (const name of readdirSync(this.dir)) {
      const day = LOG_FILE.exec(name)?.[1];
      if (day !== undefined && day < keepFrom) rmSync(join(this.dir, name), { force: true });
    }
  }
}
