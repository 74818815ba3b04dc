/**
 * Auth for the API: every route but the health check, the login and the console's files.
 * Two ways in everywhere: `Authorization: Bearer <admin token>` (CLI, scripts) or the console's
 * session cookie. A third on `/v1` (and `/mcp`): an app key (app-keys.ts) with that scope, which
 * opens nothing else; the route reads which key it was from `c.get("appKey")`. A cookie rides along on any request the browser makes, including
 * ones a hostile page triggers, so a mutating request authenticated by cookie must also prove
 * it came from the console itself: the `X-Homed-Request: 1` header (which another origin
 * cannot add without a CORS preflight, and homed never approves that header nor credentials: cors.ts) and, when the browser sends
 * one, an `Origin` equal to this host.
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { errorResponse } from "./errors.ts";
import { tokensMatch } from "./admin-token.ts";
import { SESSION_COOKIE, type ConsoleSessions } from "./console-session.ts";
import { requestSource, type LoginThrottle } from "./login-throttle.ts";
import type { Logger } from "../log/index.ts";
import type { AppKey, AppKeys, KeyScope } from "./app-keys.ts";

/** What the auth middleware tells the routes after it: the app key used, when one was. */
export type AuthEnv = { Variables: { appKey?: AppKey } };

export const CONSOLE_REQUEST_HEADER = "x-homed-request";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Why a cookie-authenticated mutating request is not from the console, or null when it is. */
export function crossSiteReason(c: Context): string | null {
  if (SAFE_METHODS.has(c.req.method)) return null;
  if (c.req.header(CONSOLE_REQUEST_HEADER) !== "1") return `Send the header X-Homed-Request: 1 with a request that changes something`;
  const origin = c.req.header("origin");
  const host = c.req.header("host");
  if (origin !== undefined && (!host || !/^https?:\/\//.test(origin) || new URL(origin).host !== host)) {
    return `The request's Origin ${origin} is not this console's`;
  }
  return null;
}

/** The answer to a wrong admin token (login or Bearer): 401 once the source's wait is over. */
export async function wrongToken(c: Context, throttle: LoginThrottle, message: string): Promise<Response> {
  const outcome = await throttle.fail(requestSource(c.env));
  if (outcome.kind === "flooding") {
    c.header("retry-after", String(outcome.retryAfterS));
    return errorResponse(c, "rate_limited", `Too many wrong tokens from this address at once: try again in ${outcome.retryAfterS} s`);
  }
  return errorResponse(c, "unauthorized", message);
}

export type AuthOptions = {
  token: string;
  sessions: ConsoleSessions;
  throttle: LoginThrottle;
  log?: Pick<Logger, "warn">;
  keys: AppKeys;
  /** The app-key scope that may enter here; none: the admin token (or a console login) only. */
  scope?: KeyScope;
};

export function requireAuth({ token, sessions, throttle, log, keys, scope }: AuthOptions): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (header !== undefined) {
      const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
      if (given && tokensMatch(token, given)) return next();
      const key = given ? await keys.verify(given) : undefined;
      if (key) {
        if (scope && key.scopes.includes(scope)) {
          c.set("appKey", key);
          return next();
        }
        log?.warn(`audit: app key '${key.name}' refused for ${c.req.method} ${c.req.path} (scopes ${key.scopes.join(",")})`);
        const allowed = key.scopes.map((s) => `/${s}`).join(" and ");
        return errorResponse(c, "key_scope", `The app key '${key.name}' opens ${allowed} only; ${scope ? `/${scope}` : "this route"} needs ${scope ? "a key with that scope or " : ""}the admin token`);
      }
      log?.warn(`audit: wrong ${scope ? "key" : "admin token"} from ${requestSource(c.env)} for ${c.req.method} ${c.req.path}`);
      return wrongToken(c, throttle, scope ? "The key matches neither the admin token nor a live app key (homed key list)" : "The admin token does not match");
    }
    if (await sessions.touch(getCookie(c, SESSION_COOKIE))) {
      const reason = crossSiteReason(c);
      if (reason) return errorResponse(c, "cross_site", reason);
      return next();
    }
    return errorResponse(c, "unauthorized", "Log in to the console, or send Authorization: Bearer <admin token> (the token is in <data>/admin.token)");
  };
}
