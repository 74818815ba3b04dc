/**
 * The Host header checked against where homed listens: the defence against DNS rebinding. A page
 * on evil.example whose name is made to resolve to 127.0.0.1 reaches a loopback daemon from the
 * victim's browser with `Host: evil.example:8080`; the console's origin check compares Origin with
 * that same Host, so it passes. Bound to a loopback address, homed therefore answers only Hosts
 * that name the loopback (localhost, *.localhost, 127.x.x.x, [::1]) or a name the person listed
 * (HOMED_ALLOWED_HOSTS, e.g. a reverse proxy's `homed.lan`); anything else is 421 Misdirected
 * Request. Bound to another address (0.0.0.0, a LAN address), people reach it by names homed
 * cannot know, so only a non-empty HOMED_ALLOWED_HOSTS restricts it.
 */
import type { MiddlewareHandler } from "hono";
import { errorResponse } from "./errors.ts";

const LOOPBACK_NAME = /^(localhost|.+\.localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/** Whether an address homed listens on is the loopback. */
export const isLoopback = (hostname: string): boolean => LOOPBACK_NAME.test(hostname);

/** A Host header's name without its port, lower case (`[::1]:8080` → `[::1]`). */
function hostName(host: string): string {
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
  return name.toLowerCase();
}

/** HOMED_ALLOWED_HOSTS: names separated by commas or spaces. */
export const parseAllowedHosts = (value: string | undefined): string[] =>
  (value ?? "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((h) => h.toLowerCase());

export function hostCheck(listenHostname: string, allowedHosts: readonly string[]): MiddlewareHandler {
  const allowed = new Set(allowedHosts);
  const restricted = isLoopback(listenHostname) || allowed.size > 0;
  return async (c, next) => {
    if (!restricted) return next();
    const host = c.req.header("host");
    const name = host === undefined ? "" : hostName(host);
    if (allowed.has(name) || (isLoopback(listenHostname) && LOOPBACK_NAME.test(name))) return next();
    return errorResponse(
      c,
      "misdirected_request",
      `This homed answers Host localhost or 127.0.0.1${allowed.size ? ` or ${[...allowed].join(", ")}` : ""}, not ${host ?? "(none)"}: list other names in HOMED_ALLOWED_HOSTS`,
    );
  };
}
