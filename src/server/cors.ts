/**
 * CORS for the routes a program reaches with a bearer key — `/v1/*`, `/mcp`, and, when A2A is on,
 * the agent card and `/a2a` — so that a web app in the browser (a chat UI, an MCP inspector, an
 * agent directory) can call homed with a key the user gave it. Never for `/api`: the console's
 * cookie API stays same-origin (a preflight there gets no CORS answer, so the browser refuses).
 *
 * Which origins: `cors.origins` in homed.json, or HOMED_CORS_ORIGINS (which wins), default `*`.
 * Why any origin by default: these routes trust only the `Authorization` header, which a browser
 * never adds by itself — a page of another origin gets in only with a key someone handed it, and
 * then the key, not the origin, is what is trusted (a program outside a browser ignores CORS
 * anyway). What CORS guards against is the browser's ambient credentials, and homed never sends
 * `Access-Control-Allow-Credentials`: a credentialed request (the console's cookie) from another
 * origin is never given its answer, and a preflighted one is never sent. For the same reason
 * `X-Homed-Request` (the console's proof that a cookie request came from the console, auth.ts)
 * is not among the allowed headers. Listing origins narrows which pages may read answers, e.g.
 * to one web app; an empty list (or `none`) turns CORS off.
 *
 * hono's own `cors` middleware answers; this file decides what it is given.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { z } from "zod";
import { HomedError } from "../errors/index.ts";

/** `*`, or an origin as a browser sends it: scheme://host[:port], no path (lower-cased; a trailing `/` is dropped). */
const OriginSchema = z
  .string()
  .trim()
  .transform((origin) => origin.replace(/\/$/, "").toLowerCase())
  .refine((origin) => origin === "*" || /^[a-z][a-z0-9+.-]*:\/\/[^/\s?#]+$/.test(origin), "expected '*' or an origin such as https://app.example or http://localhost:5173 (no path)");

/** `cors` in homed.json. */
export const CorsConfigSchema = z
  .object({
    /** Origins whose pages may read the answers of the bearer routes; `["*"]`: any. */
    origins: z.array(OriginSchema).max(100).default(["*"]),
  })
  .strict();
export type CorsConfig = z.output<typeof CorsConfigSchema>;

/** The default: any origin (see above for why that is safe for bearer routes). */
export const DEFAULT_CORS: CorsConfig = { origins: ["*"] };

/**
 * The origins in force: HOMED_CORS_ORIGINS (comma- or space-separated; `none` for none) when set,
 * else homed.json's. A bad value stops start-up naming it.
 */
export function corsConfig(file: CorsConfig, env: string | undefined): CorsConfig {
  if (env === undefined || env.trim() === "") return file;
  const listed = env.trim().toLowerCase() === "none" ? [] : env.split(/[\s,]+/).filter(Boolean);
  const parsed = CorsConfigSchema.safeParse({ origins: listed });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new HomedError("config_file", `Cannot start: HOMED_CORS_ORIGINS: ${listed[Number(issue.path[1])] ?? env}: ${issue.message}`);
}

/**
 * What a cross-origin page may send: what the protocols' clients send (MCP's session and version
 * headers and `Last-Event-ID`, A2A's version and extensions, homed's `X-Homed-Session`, the openai
 * SDK's `OpenAI-*` and `X-Stainless-*`), and never `X-Homed-Request`.
 */
export const CORS_ALLOW_HEADERS = [
  "authorization",
  "content-type",
  "accept",
  "last-event-id",
  "mcp-session-id",
  "mcp-protocol-version",
  "a2a-version",
  "a2a-extensions",
  "x-a2a-extensions",
  "x-homed-session",
  "openai-organization",
  "openai-project",
  "x-stainless-arch",
  "x-stainless-lang",
  "x-stainless-os",
  "x-stainless-package-version",
  "x-stainless-retry-count",
  "x-stainless-runtime",
  "x-stainless-runtime-version",
  "x-stainless-timeout",
] as const;

/** Answer headers a page may read beyond the safelisted ones. */
export const CORS_EXPOSE_HEADERS = ["mcp-session-id", "retry-after", "www-authenticate"] as const;

/** How long a browser may reuse a preflight's answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_S = 600;

/** The middleware for the bearer routes, or undefined when no origin is allowed (no CORS headers at all). */
export function corsMiddleware(config: CorsConfig): MiddlewareHandler | undefined {
  if (config.origins.length === 0) return undefined;
  return cors({
    origin: config.origins.includes("*") ? "*" : config.origins,
    allowMethods: ["GET", "HEAD", "POST", "DELETE"],
    allowHeaders: [...CORS_ALLOW_HEADERS],
    exposeHeaders: [...CORS_EXPOSE_HEADERS],
    maxAge: PREFLIGHT_MAX_AGE_S,
    // Never: credentials are the console's cookie, which stays same-origin.
    credentials: false,
  });
}
