/**
 * Who may see which memory (DESIGN §3 Scopes), and which cold events a query may see. The store
 * turns a scope into each channel's SQL WHERE clause (src/store/cold-scope.ts).
 */
import { z } from "zod";
import type { ColdScope } from "../store/index.ts";

/**
 * Who is asking, in a chat (DESIGN §3 Scopes): homed serves one user, so every memory is
 * reachable unless it is private (`private_to`) to a partner or project other than these.
 */
export type Viewer = { partner?: string; project?: string };

/** A memory's narrower scope, as stored in `private_to`; null is the user's (every chat). */
export type PrivateScope = `partner:${string}` | `project:${string}`;

/**
 * A memory's scope as a person names it (`homed import --scope`, the console import, the
 * `memory_note` tool): `user` (the default: every chat) or private to one partner or project.
 */
export const MemoryScopeSchema = z.string().regex(/^(user|(partner|project):\S.{0,199})$/s, 'scope must be "user", "partner:NAME" or "project:NAME"');

/** The `private_to` value of a scope named so: null for `user`. */
export const privateToOf = (scope: string): PrivateScope | null => (scope === "user" ? null : (scope as PrivateScope));

/**
 * The partners a partner sits inside, itself included: `app2/alice` → `app2`, `app2/alice`. A
 * narrowed partner (access.ts) sees what is private to the partner it narrows, never the reverse.
 */
export function enclosingPartners(partner: string): string[] {
  const parts = partner.split("/");
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** The `private_to` values a viewer may see besides the user's (null) ones. */
export const visibleScopes = (viewer: Viewer): PrivateScope[] => [
  ...(viewer.partner === undefined ? [] : enclosingPartners(viewer.partner).map((p) => `partner:${p}` as const)),
  ...(viewer.project === undefined ? [] : [`project:${viewer.project}` as const]),
];

export type RecallScope = {
  /**
   * An explicit filter (benchmarks, `homed recall --conversation`, tools): only this
   * conversation's memories and user-wide (`scope = 'user'`) ones. A chat does not set it: it
   * searches everything and ranks its own conversation first (`QueryOptions.prefer`).
   */
  conversation?: string;
  /** Set in a chat: memories private to another partner or project are never returned. */
  viewer?: Viewer;
  /** Inclusive time bounds, milliseconds since the epoch. */
  since?: number;
  until?: number;
};

/** The store's terms for a recall scope: the viewer as the private scopes it may see. */
export function coldScopeOf(scope: RecallScope): ColdScope {
  const { conversation, viewer, since, until } = scope;
  return { conversation, since, until, privateScopes: viewer && visibleScopes(viewer) };
}
