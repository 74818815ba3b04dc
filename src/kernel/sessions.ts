/** Sessions: one per (channel, partner), created on first contact. */
import { randomUUID } from "node:crypto";
import type { Client } from "@libsql/client";

export type Session = { id: string; channel: string; partner: string; title: string | null; createdAt: number; updatedAt: number };

const fromRow = (r: Record<string, unknown>): Session => ({
  id: String(r.id),
  channel: String(r.channel),
  partner: String(r.partner),
  title: r.title == null ? null : String(r.title),
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export class Sessions {
  constructor(private readonly client: Client) {}

  /** The session of this channel and partner, created if there is none. */
  async open(channel: string, partner: string, title?: string): Promise<Session> {
    const now = Date.now();
    await this.client.execute({
      sql: "INSERT INTO sessions (id, channel, partner, title, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (channel, partner) DO NOTHING",
      args: [randomUUID(), channel, partner, title ?? null, now, now],
    });
    const row = await this.client.execute({ sql: "SELECT * FROM sessions WHERE channel = ? AND partner = ?", args: [channel, partner] });
    return fromRow(row.rows[0]!);
  }

  async get(id: string): Promise<Session | undefined> {
    const row = await this.client.execute({ sql: "SELECT * FROM sessions WHERE id = ?", args: [id] });
    return row.rows[0] ? fromRow(row.rows[0]) : undefined;
  }

  async list(): Promise<Session[]> {
    const rows = await this.client.execute("SELECT * FROM sessions ORDER BY updated_at DESC");
    return rows.rows.map(fromRow);
  }

  async touch(id: string): Promise<void> {
    await this.client.execute({ sql: "UPDATE sessions SET updated_at = ? WHERE id = ?", args: [Date.now(), id] });
  }
}
