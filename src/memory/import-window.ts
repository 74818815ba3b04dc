/**
 * The neighbours a message is indexed with (see `searchText`), found while the file streams by:
 * up to `CONTEXT_WINDOW` messages each side in the same session, within `CONTEXT_GAP_MS` of it.
 * A message is handed out as soon as the messages after it that can be its neighbours have been
 * read, so only the last few messages of each open session are held, not the file.
 *
 * Sessions are held least recently seen first; past `maxSessions` open at once (a file that
 * interleaves that many sessions) the oldest is handed out with the neighbours read so far. A
 * file written session by session, as exports are, loses nothing to that bound.
 */
import { coldSessionId, type ColdMessage } from "./cold-event.ts";

/**
 * Neighbours on each side whose text is indexed with a message. Measured on LoCoMo dev
 * (words+grams, R@5/10/25/50): one each side .611/.704/.798/.847, two .620/.712/.809/.861.
 */
export const CONTEXT_WINDOW = 2;

/**
 * Neighbours further apart in time than this are not one exchange: a diary of events a day
 * apart stored as one session must not lend each entry the words of the next (on MADial that
 * mixing halves recall). 30 minutes is the usual idle gap that ends a chat session.
 */
export const CONTEXT_GAP_MS = 30 * 60_000;

/** Open sessions held at once: ~5 messages each, a few MB at most. */
const MAX_OPEN_SESSIONS = 10_000;

/** A message read from the file; `fresh`: not yet stored (a present one is still a neighbour). */
export type WindowEntry<T extends ColdMessage = ColdMessage> = { message: T; fresh: boolean };

/** A fresh message whose neighbours are known, with their text. */
export type WithContext<T extends ColdMessage = ColdMessage> = { message: T; context: string };

type Session<T extends ColdMessage> = { entries: WindowEntry<T>[]; pending: number };

export class NeighbourWindow<T extends ColdMessage = ColdMessage> {
  readonly #sessions = new Map<string, Session<T>>();
  readonly #maxSessions: number;

  constructor(maxSessions = MAX_OPEN_SESSIONS) {
    this.#maxSessions = maxSessions;
  }

  /** Adds the next message of the file; returns the fresh messages whose neighbours are now all read. */
  add(entry: WindowEntry<T>): WithContext<T>[] {
    const key = coldSessionId(entry.message.conversation, entry.message.session);
    const session = this.#sessions.get(key) ?? { entries: [], pending: 0 };
    // Re-inserted so the map stays in least-recently-seen order.
    this.#sessions.delete(key);
    this.#sessions.set(key, session);
    session.entries.push(entry);
    session.pending++;
    const out: WithContext<T>[] = [];
    while (session.pending > CONTEXT_WINDOW) this.#emit(session, out);
    // Keep only what can still be a neighbour: the pending messages and the few before them.
    const keep = session.pending + CONTEXT_WINDOW;
    if (session.entries.length > keep) session.entries.splice(0, session.entries.length - keep);
    if (this.#sessions.size > this.#maxSessions) {
      const [oldest, held] = this.#sessions.entries().next().value!;
      this.#sessions.delete(oldest);
      while (held.pending > 0) this.#emit(held, out);
    }
    return out;
  }

  /** At the end of the file: every message still held. */
  flush(): WithContext<T>[] {
    const out: WithContext<T>[] = [];
    for (const session of this.#sessions.values()) while (session.pending > 0) this.#emit(session, out);
    this.#sessions.clear();
    return out;
  }

  #emit(session: Session<T>, out: WithContext<T>[]): void {
    const at = session.entries.length - session.pending;
    session.pending--;
    const entry = session.entries[at]!;
    if (!entry.fresh) return;
    const m = entry.message;
    const around = [...session.entries.slice(Math.max(0, at - CONTEXT_WINDOW), at), ...session.entries.slice(at + 1, at + 1 + CONTEXT_WINDOW)]
      .filter((n) => Math.abs(n.message.time - m.time) <= CONTEXT_GAP_MS)
      .map((n) => n.message.text);
    out.push({ message: m, context: around.join("\n") });
  }
}
