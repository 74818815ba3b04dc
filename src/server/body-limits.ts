/**
 * Request body limits: every route has one, each what the route needs, applied while the body is
 * read (hono's `bodyLimit`: a Content-Length over the limit is refused before anything is read, a
 * chunked body is counted as it streams and cut off at the limit). It runs before authentication,
 * so a caller without credentials never gets more read than the smallest limit.
 *
 * Before: `/api/login` read any body (six concurrent 120 MB bodies without credentials took the
 * daemon from 95 MB to 1.24 GB of RSS, and it stayed there), `/api/audit/replay` and
 * `/api/doctor` took 100 MB.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { IMPORT_MAX_BYTES } from "./api-import.ts";
import { errorResponse } from "./errors.ts";

const KIB = 1024;
const MIB = 1024 * KIB;

export type BodyLimit = { path: RegExp; maxSize: number; why: string };

/** The first whose `path` matches the request's path applies; otherwise DEFAULT_BODY_LIMIT. */
export const BODY_LIMITS: readonly BodyLimit[] = [
  { path: /^\/api\/(login|logout)$/, maxSize: 4 * KIB, why: "no credentials needed: a 64-character token and nothing else" },
  { path: /^\/api\/memory\/import\/?$/, maxSize: IMPORT_MAX_BYTES, why: "a history file (larger ones go through `homed import`)" },
  { path: /^\/v1\/(chat\/completions|responses)$/, maxSize: 16 * MIB, why: "an OpenAI client sends its whole conversation every time" },
  { path: /^\/v1\/embeddings$/, maxSize: 8 * MIB, why: "up to 1,000,000 characters of input, JSON-escaped (openai-embeddings.ts)" },
  { path: /^\/api\/sessions\/[^/]+\/messages$/, maxSize: 12 * MIB, why: "one message of up to 200,000 characters, JSON-escaped, or a voice message of up to 8 MiB in base64 (kernel/voice.ts)" },
  { path: /^\/a2a$/, maxSize: 2 * MIB, why: "one A2A message: text parts of up to 200,000 characters, JSON-escaped" },
  { path: /^\/api\/memory\/tools\/[^/]+$/, maxSize: 256 * KIB, why: "tool arguments (a note's text is at most 2,000 characters)" },
];

/** Every other route: a few small fields (a provider, a session) or no body at all. */
export const DEFAULT_BODY_LIMIT: BodyLimit = { path: /^/, maxSize: 64 * KIB, why: "small JSON or none" };

export const bodyLimitFor = (path: string): BodyLimit => BODY_LIMITS.find((l) => l.path.test(path)) ?? DEFAULT_BODY_LIMIT;

const sizeText = (bytes: number) => (bytes >= MIB ? `${bytes / MIB} MiB` : `${bytes / KIB} KiB`);

const tooLarge = (limit: BodyLimit) => (c: Context) => errorResponse(c, "too_large", `The request body is over ${sizeText(limit.maxSize)}, the most ${c.req.method} ${c.req.path} accepts`);

/** One middleware for the whole app: each request gets its route's limit. */
export function bodyLimits(): MiddlewareHandler {
  const handlers = new Map<BodyLimit, MiddlewareHandler>();
  for (const limit of [...BODY_LIMITS, DEFAULT_BODY_LIMIT]) handlers.set(limit, bodyLimit({ maxSize: limit.maxSize, onError: tooLarge(limit) }));
  return (c, next) => handlers.get(bodyLimitFor(c.req.path))!(c, next);
}
