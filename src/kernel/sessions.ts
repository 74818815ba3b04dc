/** Sessions: the channel's own one per (channel, partner), created on first contact, and new ones started beside it. */
import type { Client } from "@libsql/client";
import { loadL1Events, sinkToL2 } from "../context/index.ts";
import { forgetRecord, OWNER } from "../memory/index.ts";
import {
  deleteSession,
  deleteSetting,
  eventsByIds,
  listSessions,
  openContextSession,
  openSession,
  readSetting,
  renameSession,
  sessionById,
  sessionTimeline,
  startSession,
  touchSession,
  writeSetting,
  type SessionRow,
} from "../store/index.ts";

/** What deleting a conversation did with what was said in it: sank to cold history (kept, recallable) or forgotten. */
export type Deleted = { sunk: number; forgotten: number };

export type Session = SessionRow;

/**
 * A turn that ended in an error, kept with its conversation until the next turn ends, so a page
 * loaded later still shows what went wrong and can send `input` again (it may never have been
 * stored: a turn refused before it started, e.g. with no provider, stores nothing).
 */
export type TurnFailure = { error: string; message: string; input: string; time: string };

/** Where a conversation's last failure is kept: a setting of its own (one small JSON value per conversation). */
const failureKey = (id: string) => `turn_failure:${id}`;

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
    await this.recordFailure(id, null);
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

  /** The conversation's last turn, if it failed (cleared when a later turn ends). */
  async failure(id: string): Promise<TurnFailure | undefined> {
    return (await readSetting(this.client, failureKey(id))) as TurnFailure | undefined;
  }

  /** Keeps a turn's failure with its conversation, or (null) clears it once a turn has ended. */
  recordFailure(id: string, failure: TurnFailure | null): Promise<void> {
    return failure ? writeSetting(this.client, failureKey(id), failure) : deleteSetting(this.client, failureKey(id));
  }

  /**
   * Takes the live events from `eventId` on out of the conversation, so a new message takes their
   * place (regenerate, edit and resend, retry). They are forgotten, as memory delete forgets one:
   * replacing them is the person saying so (DESIGN §3), and sunk to cold history instead they
   * came straight back, since recall restores the cold turns a new message resembles. The count
   * forgotten, or undefined when `eventId` is not a live event of this conversation.
   */
  async rewind(id: string, eventId: string): Promise<number | undefined> {
    const live = await loadL1Events(this.client, id);
    const at = live.findIndex((e) => e.id === eventId);
    if (at < 0) return undefined;
    const gone = live.slice(at).map((e) => e.id);
    for (const event of gone) await forgetRecord(this.client, event, OWNER);
    return gone.length;
  }

  touch(id: string): Promise<void> {
    return touchSession(this.client, id);
  }
}
