/**
 * The `connections` section of homed.json: how many connections one client address and all
 * clients together may hold, and how long a request's head and body may take to arrive. The
 * connection guard (connection-guard.ts) enforces them in front of the HTTP server.
 */
import { z } from "zod";

const int = (min: number, max: number) => z.number().int().min(min).max(max);

export const ConnectionLimitsSchema = z
  .object({
    /** Open connections one client address may hold (an IPv6 client: its /64); more are answered 429 and closed. */
    perClient: int(1, 1_000_000).default(64),
    /** Open connections of all clients together; default: what the open-files limit leaves (see below). */
    maxConnections: int(1, 10_000_000).optional(),
    /** A request's head must be complete this long after the connection opened (or its first byte, for the next request on it). */
    headTimeoutMs: int(50, 600_000).default(10_000),
    /** A request's body gets this long, plus one second for every `minBodyBytesPerSecond` bytes it has sent. */
    bodyTimeoutMs: int(50, 600_000).default(10_000),
    minBodyBytesPerSecond: int(1, 1_000_000_000).default(16 * 1024),
  })
  .strict();

export type ConnectionLimitsConfig = z.output<typeof ConnectionLimitsSchema>;
export type ConnectionLimits = Required<ConnectionLimitsConfig>;

/**
 * Each open connection costs up to three file descriptors (the client's socket, the guard's
 * socket to the server and the server's end of it), and the store, the log, plugins and the
 * embedder need theirs: a quarter of the limit (at least 256) is kept for them.
 */
export function defaultMaxConnections(openFilesLimit: number): number {
  const reserve = Math.max(256, Math.floor(openFilesLimit / 4));
  return Math.max(16, Math.floor((openFilesLimit - reserve) / 3));
}

export function resolveConnectionLimits(config: ConnectionLimitsConfig, openFilesLimit: number): ConnectionLimits {
  return { ...config, maxConnections: config.maxConnections ?? defaultMaxConnections(openFilesLimit) };
}
