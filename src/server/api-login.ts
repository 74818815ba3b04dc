/**
 * `/api/login`, `/api/logout` and `/api/auth`: the console's way in. These are the only `/api`
 * routes reachable without credentials, so the app mounts them before the auth middleware.
 */
import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { tokensMatch } from "./admin-token.ts";
import { crossSiteReason, wrongToken } from "./auth.ts";
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
  /** Where logins, failed logins and logouts are written as audit lines. */
  log?: Pick<Logger, "info" | "warn">;
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
    const { token } = await parseBody(c, LoginSchema);
    // The token is checked before anything else: a correct one is never kept waiting.
    if (!tokensMatch(deps.adminToken, token.trim())) {
      deps.log?.warn(`audit: failed console login from ${requestSource(c.env)}: wrong token`);
      return wrongToken(c, deps.throttle, "That is not the admin token");
    }
    deps.log?.info(`audit: console login from ${requestSource(c.env)}`);
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
    deps.log?.info(`audit: console logout from ${requestSource(c.env)}`);
    deleteCookie(c, SESSION_COOKIE, { path: "/" });
    return c.json({ loggedIn: false });
  });
  return app;
}
