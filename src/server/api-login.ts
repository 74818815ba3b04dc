/**
 * `/api/login`, `/api/logout` and `/api/auth`: the console's way in. These are the only `/api`
 * routes reachable without credentials, so the app mounts them before the auth middleware.
 */
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { tokensMatch } from "./admin-token.ts";
import { crossSiteReason, refusedWhileFlooding, wrongToken } from "./auth.ts";
import { SESSION_COOKIE, SESSION_TTL_MS, type ConsoleSessions } from "./console-session.ts";
import { HomedError } from "../errors/index.ts";
import { requestSource, type LoginThrottle } from "./login-throttle.ts";
import type { Logger } from "../log/index.ts";
import { parseBody } from "./validate.ts";

const LoginSchema = z.object({ token: z.string().min(1).max(1000) });

/** `GET /api/auth`: whether this browser is logged in, and where the admin token is. */
export type AuthStatus = { loggedIn: boolean; tokenFile: string };

export type LoginDeps = {
  adminToken: string;
  sessions: ConsoleSessions;
  throttle: LoginThrottle;
  tokenPath?: string;
  /** Where logins and logouts are written as audit lines, and failed logins counted (audit-file.ts). */
  log?: Pick<Logger, "audit" | "auditFailure">;
};

export function loginRoutes(deps: LoginDeps): Hono {
  const app = new Hono();

  app.get("/auth", async (c) =>
    c.json<AuthStatus>({
      loggedIn: await deps.sessions.touch(getCookie(c, SESSION_COOKIE)),
      // The path, never the token: it tells a first-time user where to look.
      tokenFile: deps.tokenPath ?? "<data>/admin.token",
    }),
  );

  app.post("/login", async (c) => {
    // Login is a mutation too: a hostile page must not log a browser into its own session.
    const reason = crossSiteReason(c);
    if (reason) throw new HomedError("cross_site", reason);
    // A flooding source's login is refused before its body (the token) is read.
    const refused = await refusedWhileFlooding(c, deps.throttle, deps.log, "console_login");
    if (refused) return refused;
    const { token } = await parseBody(c, LoginSchema);
    const remote = requestSource(c.env);
    // The token is checked before anything else: a correct one is never kept waiting.
    if (!tokensMatch(deps.adminToken, token.trim())) {
      deps.log?.auditFailure({ event: "console_login", who: "unknown", remote, outcome: "failed", detail: `failed console login from ${remote}: wrong token` });
      return wrongToken(c, deps.throttle, "That is not the admin token");
    }
    deps.log?.audit({ event: "console_login", who: "console", remote, outcome: "ok", detail: `console login from ${remote}` });
    setCookie(c, SESSION_COOKIE, await deps.sessions.create(), {
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      maxAge: SESSION_TTL_MS / 1000,
    });
    return c.json({ loggedIn: true });
  });

  app.post("/logout", async (c) => {
    // SameSite=Strict already keeps the cookie off cross-site requests; the same check as every
    // other mutation keeps the rule one rule.
    const reason = crossSiteReason(c);
    if (reason) throw new HomedError("cross_site", reason);
    await deps.sessions.revoke(getCookie(c, SESSION_COOKIE));
    deps.log?.audit({ event: "console_logout", who: "console", remote: requestSource(c.env), outcome: "ok", detail: `console logout from ${requestSource(c.env)}` });
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json({ loggedIn: false });
  });
  return app;
}
