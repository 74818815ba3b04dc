/** Sessions: the channel's own one per (channel, partner), created on first contact, and new ones started beside it. */
import type { Client } from "@libsql/client";
import { sinkToL2 } from "../context/index.ts";
import { forgetRecord, OWNER } from "../memory/index.ts";
import { deleteSession, eventsByIds, listSessions, openContextSession, openSession, renameSession, sessionById, sessionTimeline, startSession, touchSession, type SessionRow } from "../store/index.ts";

/** What deleting a conversation did with what was said in it: sank to cold history (kept, recallable) or forgotten. */
export type Deleted = { sunk: number; forgotten: number };

export type Session = SessionRow;

export class Sessions {
  constructor(private readonly client: Client) {}

  /** The session of this channel and partner, created if there is none. */
  open(channel: string, partner: string, title?: string): Promise<Session> {
    return openSession(this.client, channel, partner, title);
  }

  /** A new conversation with this partner on this channel (the console's New chat); memory treats it as the partner's, like the others. */
  start(channel: string, partner: string, title?: string): Promise<Session> {
    return startSession(this.client, channel, partner, title);
  }

  /** The conversation this partner names `contextKey` on this channel (an A2A contextId), started on first use; the key is the partner's own. */
  openContext(channel: string, partner: string, contextKey: string): Promise<Session> {
    return openContextSession(this.client, channel, partner, contextKey);
  }

  get(id: string): Promise<Session | undefined> {
    return sessionById(this.client, id);
  }

  list(): Promise<Session[]> {
    return listSessions(this.client);
  }

  /** Whether there was a session `id` to rename. */
  rename(id: string, title: string | null): Promise<boolean> {
    return renameSession(this.client, id, title);
  }

  /**
   * Deletes a conversation: it leaves the list. What was said in it is the user's memory
   * (DESIGN §3: nothing is lost unless the user says so), so by default its live turns sink to
   * cold history, as pruning would sink them, and recall finds them as before; its cold history
   * and the facts drawn from it stay. With `forget`, every turn of it (live and cold) is
   * forgotten as memory delete forgets one (event, blocks, search rows), and the facts drawn
   * from them stay with their source marked gone. Undefined when there is no such session.
   */
  async remove(id: string, { forget = false }: { forget?: boolean } = {}): Promise<Deleted | undefined> {
    if (!(await sessionById(this.client, id))) return undefined;
    const timeline = await sessionTimeline(this.client, id);
    const live = timeline.filter((e) => e.layer === "L1").map((e) => e.id);
    if (forget) for (const e of timeline) await forgetRecord(this.client, e.id, OWNER);
    else await sinkToL2(this.client, live);
    await deleteSession(this.client, id);
    return forget ? { sunk: 0, forgotten: timeline.length } : { sunk: live.length, forgotten: 0 };
  }

  /**
   * A turn's stored answer (runTurn stores it under the turn's id) with its session, or undefined
   * when it is gone (forgotten, its session deleted) or was never stored (a paused or failed turn).
   * Who may read it is the caller's to check, as for the session itself.
   */
  async answerOf(turnId: string): Promise<{ session: Session; text: string; privateTo: string | null } | undefined> {
    const [event] = await eventsByIds(this.client, [turnId]);
    const session = event && (await sessionById(this.client, event.sessionId));
    return session ? { session, text: event.text, privateTo: event.privateTo } : undefined;
  }

  touch(id: string): Promise<void> {
    return touchSession(this.client, id);
  }
}
