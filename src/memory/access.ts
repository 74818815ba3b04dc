/**
 * Who sees what — one rule, one place (DESIGN §3). Every path that reads, searches, opens,
 * lists, forgets or writes memory or a session (HTTP, MCP, A2A, ACP, QQ and the model's own tool
 * calls) asks here, with the access its credential gives:
 *
 * - the **owner** (the admin token, the console, the local CLI): everything;
 * - a **partner** (an app key's partner, a channel's sender, a turn's session): the user's shared
 *   memory (`private_to` null), and what is private to that partner or to a partner it sits inside
 *   (`app2/alice` is inside `app2`: an app key's `user` narrows its partner this way, never widens
 *   it); sessions the same way: its own and those of the partners it sits inside. Never upward
 *   into another partner, never sideways.
 *
 * What a partner may not see answers as if it did not exist (404, "not found"), so an id is never
 * confirmed to someone who may not open it.
 */
import { enclosingPartners, visibleScopes, type PrivateScope } from "./scope.ts";

export type Access = { readonly kind: "owner" } | { readonly kind: "partner"; readonly partner: string };

/** The admin token, the console and the local CLI: every memory and session. */
export const OWNER: Access = { kind: "owner" };

export const partnerAccess = (partner: string): Access => ({ kind: "partner", partner });

/** The partner an access acts as, or undefined for the owner. */
export const partnerOf = (access: Access): string | undefined => (access.kind === "partner" ? access.partner : undefined);

/**
 * A partner narrowed by a label its caller gives (an OpenAI request's `user`): a partner inside
 * it, so the label can only ever see less. Whitespace-only labels narrow nothing.
 */
export function narrowedPartner(partner: string, label: string | undefined): string {
  const trimmed = label?.trim();
  return trimmed ? `${partner}/${trimmed}` : partner;
}

/**
 * The `private_to` values an access may see besides the user's (null) ones; undefined: no test at
 * all (the owner). The store puts this list in every query's WHERE clause.
 */
export const privateScopesOf = (access: Access): PrivateScope[] | undefined => (access.kind === "owner" ? undefined : visibleScopes({ partner: access.partner }));

/** Whether a memory (`private_to` as stored) is visible to this access. */
export function maySeeMemory(access: Access, privateTo: string | null): boolean {
  if (privateTo === null) return true;
  const scopes = privateScopesOf(access);
  return scopes === undefined || (scopes as string[]).includes(privateTo);
}

/** The partners whose sessions an access may see (itself and those it sits inside); undefined: every session (the owner). */
export const sessionPartnersOf = (access: Access): string[] | undefined => (access.kind === "owner" ? undefined : enclosingPartners(access.partner));

/** Whether a session (of `partner`) is visible to this access. */
export const maySeeSession = (access: Access, session: { partner: string }): boolean => sessionPartnersOf(access)?.includes(session.partner) ?? true;
