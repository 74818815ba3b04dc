/** Bearer-token auth for the API: every route but the health check and the console's files. */
import type { MiddlewareHandler } from "hono";
import { errorBody } from "./errors.ts";
import { tokensMatch } from "./admin-token.ts";

export function requireAdminToken(token: string): MiddlewareHandler {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const given = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    if (!given) return c.json(errorBody("unauthorized", "Send Authorization: Bearer <admin token> (the token is in <data>/admin.token)"), 401);
    if (!tokensMatch(token, given)) return c.json(errorBody("unauthorized", "The admin token does not match"), 401);
    await next();
  };
}
