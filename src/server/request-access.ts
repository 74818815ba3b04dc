/**
 * Who a request acts as (memory/access.ts), from its credential alone: the admin token and the
 * console are the owner; an app key is its partner — the `-partner` it was made with, else its
 * name, so two apps never share one. Nothing a caller writes in a body or a header changes this.
 */
import type { Context } from "hono";
import { OWNER, partnerAccess, type Access } from "../memory/index.ts";
import type { AppKey } from "./app-keys.ts";
import type { AuthEnv } from "./auth.ts";

/** An app key's partner. */
export const keyPartner = (key: AppKey): string => key.partner ?? key.name;

export function accessOf(c: Context<AuthEnv>): Access {
  const key = c.get("appKey");
  return key ? partnerAccess(keyPartner(key)) : OWNER;
}
