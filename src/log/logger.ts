/**
 * One logger: lines go to stderr and to `<data>/logs/homed_<YYYYmmdd-HHMMSS>.log`.
 * Lines are written synchronously so that nothing said before a crash is lost.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** Path of the log file, when there is one. */
  readonly file?: string;
  close(): void;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** `YYYYmmdd-HHMMSS` in local time, the stamp of a log file's name. */
export function logFileStamp(date: Date): string {
  return (
    `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-` +
    `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`
  );
}

export type LoggerOptions = {
  level: LogLevel;
  /** Folder for the log file; without it, stderr only. */
  dir?: string;
  /** Where stderr lines go (injected in tests). */
  stderr?: (line: string) => void;
  now?: () => Date;
};

export function createLogger(options: LoggerOptions): Logger {
  const now = options.now ?? (() => new Date());
  const toStderr = options.stderr ?? ((line: string) => process.stderr.write(line));
  let fd: number | undefined;
  let file: string | undefined;
  if (options.dir) {
    mkdirSync(options.dir, { recursive: true });
    file = join(options.dir, `homed_${logFileStamp(now())}.log`);
    fd = openSync(file, "a", 0o600);
  }
  const threshold = LOG_LEVELS.indexOf(options.level);
  const write = (level: LogLevel, message: string) => {
    if (LOG_LEVELS.indexOf(level) < threshold) return;
    const line = `${now().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}\n`;
    toStderr(line);
    if (fd !== undefined) writeSync(fd, line);
  };
  return {
    file,
    debug: (m) => write("debug", m),
    info: (m) => write("info", m),
    warn: (m) => write("warn", m),
    error: (m) => write("error", m),
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
