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

/** How a request got in: the admin token, a console login, or an app key (then `appKey` says which). */
export type Caller = "admin" | "console" | "key";

/** What the auth middleware tells the routes after it: how the caller got in, and the app key used, when one was. */
export type AuthEnv = { Variables: { appKey?: AppKey; caller?: Caller } };

/** An audit line's `who` and `remote` for a request (audit-file.ts). */
export function auditBy(c: Context): { who: string; remote: string } {
  const { appKey, caller } = (c as Context<AuthEnv>).var;
  return { who: appKey ? `key:${appKey.name}` : (caller ?? "unknown"), remote: requestSource(c.env) };
}

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

/** The answer to a wrong admin token or key (login or Bearer): 401 once the source's wait is over (login-throttle.ts). */
export async function wrongToken(c: Context, throttle: LoginThrottle, message: string): Promise<Response> {
  await throttle.fail(requestSource(c.env));
  return errorResponse(c, "unauthorized", message);
}

/**
 * Before a credential is read: a source holding too many slowed wrong answers is refused unread
 * (so the refusal answers no guess), after a hold. Null when the request may go on.
 */
export async function refusedWhileFlooding(c: Context, throttle: LoginThrottle, log: Pick<Logger, "auditFailure"> | undefined, event: string): Promise<Response | null> {
  const source = requestSource(c.env);
  const admission = throttle.admit(source);
  if (admission.admitted) return null;
  // Counted in the audit file's per-minute summary; no line of its own anywhere.
  log?.auditFailure({ event, who: "unknown", remote: source, outcome: "refused" });
  await throttle.holdRefusal(admission.holdMs);
  c.header("retry-after", String(admission.retryAfterS));
  c.header("connection", "close");
  return errorResponse(c, "rate_limited", `Too many wrong tokens from this address are waiting for their answers: this request was not read; try again in ${admission.retryAfterS} s`);
}

export type AuthOptions = {
  token: string;
  sessions: ConsoleSessions;
  throttle: LoginThrottle;
  log?: Pick<Logger, "auditFailure">;
  keys: AppKeys;
  /** The app-key scope that may enter here; none: the admin token (or a console login) only. */
  scope?: KeyScope;
};

export function requireAuth({ token, sessions, throttle, log, keys, scope }: AuthOptions): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization");
    if (header !== undefined) {
      const refused = await refusedWhileFlooding(c, throttle, log, scope ? "wrong_key" : "wrong_admin_token");
      if (refused) return refused;
      const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
      if (given && tokensMatch(token, given)) {
        c.set("caller", "admin");
        return next();
      }
      const key = given ? await keys.verify(given) : undefined;
      if (key) {
        if (scope && key.scopes.includes(scope)) {
          c.set("appKey", key);
          c.set("caller", "key");
          return next();
        }
        log?.auditFailure({
          event: "key_scope_refused",
          who: `key:${key.name}`,
          remote: requestSource(c.env),
          outcome: "refused",
          detail: `app key '${key.name}' refused for ${c.req.method} ${c.req.path} (scopes ${key.scopes.join(",")})`,
        });
        const allowed = key.scopes.map((s) => `/${s}`).join(" and ");
        return errorResponse(c, "key_scope", `The app key '${key.name}' opens ${allowed} only; ${scope ? `/${scope}` : "this route"} needs ${scope ? "a key with that scope or " : ""}the admin token`);
      }
      log?.auditFailure({
        event: scope ? "wrong_key" : "wrong_admin_token",
        who: "unknown",
        remote: requestSource(c.env),
        outcome: "failed",
        detail: `wrong ${scope ? "key" : "admin token"} from ${requestSource(c.env)} for ${c.req.method} ${c.req.path}`,
      });
      return wrongToken(c, throttle, scope ? "The key matches neither the admin token nor a live app key (homed key list)" : "The admin token does not match");
    }
    if (await sessions.touch(getCookie(c, SESSION_COOKIE))) {
      const reason = crossSiteReason(c);
      if (reason) return errorResponse(c, "cross_site", reason);
      c.set("caller", "console");
      return next();
    }
    return errorResponse(c, "unauthorized", "Log in to the console, or send Authorization: Bearer <admin token> (the token is in <data>/admin.token)");
  };
}
