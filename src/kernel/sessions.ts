/** Sessions: the channel's own one per (channel, partner), created on first contact, and new ones started beside it. */
import type { Client } from "@libsql/client";
import { listSessions, openSession, renameSession, sessionById, startSession, touchSession, type SessionRow } from "../store/index.ts";

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

  touch(id: string): Promise<void> {
    return touchSession(this.client, id);
  }
}
