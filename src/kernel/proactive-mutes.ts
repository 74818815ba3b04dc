/**
 * What a person silenced of homed's proactive turns, kept in the `settings` table so a restart
 * keeps it: a muted **source** (a plugin: `calendar`, `rss`, `terminal`…) wakes no turn — its
 * events still wait for the session's next turn; a muted **session** is neither woken nor
 * delivered to — its events wait for the next turn the person starts there.
 */
import type { Client } from "@libsql/client";
import { z } from "zod";
import { readSetting, writeSetting } from "../store/index.ts";

const SETTING = "proactive_mutes";

const MutesSchema = z.object({ sources: z.array(z.string()).default([]), sessions: z.array(z.string()).default([]) });
export type Mutes = z.output<typeof MutesSchema>;

export type MuteTarget = { kind: "source" | "session"; name: string };

export class ProactiveMutes {
  private constructor(
    private readonly client: Client,
    private mutes: Mutes,
  ) {}

  /** Reads the stored mutes once; later checks are answered from memory (they run on every pushed event). */
  static async open(client: Client): Promise<ProactiveMutes> {
    const stored = MutesSchema.safeParse((await readSetting(client, SETTING)) ?? {});
    return new ProactiveMutes(client, stored.success ? stored.data : { sources: [], sessions: [] });
  }

  sourceMuted(plugin: string): boolean {
    return this.mutes.sources.includes(plugin);
  }

  sessionMuted(sessionId: string): boolean {
    return this.mutes.sessions.includes(sessionId);
  }

  list(): Mutes {
    return { sources: [...this.mutes.sources], sessions: [...this.mutes.sessions] };
  }

  /** Mutes or unmutes one source or session; stored before it takes effect, so what is answered is what a restart keeps. */
  async set({ kind, name }: MuteTarget, muted: boolean): Promise<Mutes> {
    const key = kind === "source" ? "sources" : "sessions";
    const others = this.mutes[key].filter((n) => n !== name);
    const next = { ...this.mutes, [key]: muted ? [...others, name] : others };
    await writeSetting(this.client, SETTING, next);
    this.mutes = next;
    return this.list();
  }
}
