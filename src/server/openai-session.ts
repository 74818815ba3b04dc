/**
 * Which session an OpenAI-compatible request (`/v1/chat/completions`, `/v1/responses`) talks in,
 * decided by its credential (memory/access.ts), never widened by what the client writes:
 *
 * - an app key's turns belong to its partner; a request's `user` only narrows that partner
 *   (`app2` sending `user: "alice"` talks as `app2/alice`: its own conversation, which sees
 *   `app2`'s private memory and never `alice`'s);
 * - the admin token's requests are the partner `user` names, else "default" (the owner may act as
 *   anyone);
 * - `X-Homed-Session: <id>`, or a Responses `previous_response_id` (whose id names its session),
 *   continues a stored session: for an app key, only one of this channel and of its (narrowed)
 *   partner. Any other id answers exactly as an unknown one (404), so ids are never confirmed.
 */
import type { Context } from "hono";
import { HomedError } from "../errors/index.ts";
import type { Kernel, Session } from "../kernel/index.ts";
import { maySeeMemory, maySeeSession, narrowedPartner, partnerAccess } from "../memory/index.ts";
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

/**
 * A stored session a request names, and what it answers when the credential may not open it or it
 * does not exist: the same answer either way, so an id is never confirmed.
 */
export type NamedSession = { id: string; notFound: HomedError };

/** The session `X-Homed-Session` names, if the request has the header. */
export function headerSession(c: Context<AuthEnv>): NamedSession | undefined {
  const id = c.req.header("x-homed-session");
  return id === undefined ? undefined : { id, notFound: new HomedError("session_not_found", `No session with id ${id}`) };
}

/**
 * The session a request talks in, and whether the client named it: by `X-Homed-Session`, or by
 * what the route reads (the response a `previous_response_id` continues). Every way of naming a
 * session goes through this one check.
 */
export async function requestSession(kernel: Kernel, c: Context<AuthEnv>, user: string | undefined, named: NamedSession | undefined = headerSession(c)): Promise<{ session: Session; named: boolean }> {
  const partner = requestPartner(c, user);
  if (named === undefined) return { session: await kernel.sessions.open(OPENAI_CHANNEL, partner), named: false };
  const session = named.id ? await kernel.sessions.get(named.id) : undefined;
  if (session === undefined || !mayContinue(c, partner, session)) throw named.notFound;
  return { session, named: true };
}

/** The one check: the owner continues any session; an app key only those of channel openai of its (narrowed) partner. */
function mayContinue(c: Context<AuthEnv>, partner: string, session: Session): boolean {
  return c.get("appKey") === undefined || (session.channel === OPENAI_CHANNEL && maySeeSession(partnerAccess(partner), session));
}

/**
 * The text of a stored answer a request refers to (a Responses `item_reference` to one of homed's
 * messages, by its turn), under the same check as the session it was said in; undefined for one
 * the credential may not see, exactly as for one that does not exist.
 */
export async function referencedAnswer(kernel: Kernel, c: Context<AuthEnv>, user: string | undefined, turnId: string): Promise<string | undefined> {
  const partner = requestPartner(c, user);
  const answer = await kernel.sessions.answerOf(turnId);
  if (!answer || !mayContinue(c, partner, answer.session)) return undefined;
  if (c.get("appKey") !== undefined && !maySeeMemory(partnerAccess(partner), answer.privateTo)) return undefined;
  return answer.text;
}
