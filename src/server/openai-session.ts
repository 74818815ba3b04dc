/**
 * Which session an OpenAI-compatible request (`/v1/chat/completions`, `/v1/responses`) talks in,
 * decided by its credential (memory/access.ts), never widened by what the client writes:
 *
 * - an app key's turns belong to its partner; a request's `user` only narrows that partner
 *   (`app2` sending `user: "alice"` talks as `app2/alice`: its own conversation, which sees
 *   `app2`'s private memory and never `alice`'s);
 * - the admin token's requests are the partner `user` names, else "default" (the owner may act as
 *   anyone);
 * - `X-Homed-Session: <id>` continues a stored session: for an app key, only one of this channel
 *   and of its (narrowed) partner. Any other id answers exactly as an unknown one (404), so ids are
 *   never confirmed.
 */
import type { Context } from "hono";
import { HomedError } from "../errors/index.ts";
import type { Kernel, Session } from "../kernel/index.ts";
import { maySeeSession, narrowedPartner, partnerAccess } from "../memory/index.ts";
import type { AuthEnv } from "./auth.ts";
import { keyPartner } from "./request-access.ts";

/** The channel of every OpenAI-compatible request's session. */
export const OPENAI_CHANNEL = "openai";

/** The partner a request talks as: see the file's comment. */
export function requestPartner(c: Context<AuthEnv>, user: string | undefined): string {
  const key = c.get("appKey");
  if (key) return narrowedPartner(keyPartner(key), user);
  return user?.trim() || "default";
}

/** The session a request talks in, and whether the client named it (`X-Homed-Session`). */
export async function requestSession(kernel: Kernel, c: Context<AuthEnv>, user: string | undefined): Promise<{ session: Session; named: boolean }> {
  const partner = requestPartner(c, user);
  const named = c.req.header("x-homed-session");
  if (named === undefined) return { session: await kernel.sessions.open(OPENAI_CHANNEL, partner), named: false };
  const session = await kernel.sessions.get(named);
  const mayOpen = session !== undefined && (c.get("appKey") === undefined || (session.channel === OPENAI_CHANNEL && maySeeSession(partnerAccess(partner), session)));
  if (!mayOpen) throw new HomedError("session_not_found", `No session with id ${named}`);
  return { session, named: true };
}
