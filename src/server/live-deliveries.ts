/**
 * Where the woken turns' answers reach a person live: every open console (and `homed chat`) holds
 * a Server-Sent Events stream (`GET /api/proactive/events`), and two Outbound sinks hand each
 * answer to the streams that may see its session — `console` to the consoles, `chat` to the
 * `homed chat` attached to that very session. Who may see a session is memory/access.ts's rule,
 * asked for every message and every stream, so a stream never shows another partner's session.
 */
import { maySeeSession, type Access } from "../memory/index.ts";
import type { OutboundMessage, OutboundSink, Session } from "../kernel/index.ts";

export type LiveClient = "console" | "chat";

/** What a stream receives: the answer with enough of its session to say where it belongs. */
export type LiveMessage = OutboundMessage & { session: Pick<Session, "id" | "channel" | "partner" | "title"> };

export type LiveSubscriber = {
  access: Access;
  client: LiveClient;
  /** Only this session's answers (`homed chat` follows the session it is in). */
  session?: string | undefined;
  send(message: LiveMessage): void;
};

export class LiveDeliveries {
  private readonly subscribers = new Set<LiveSubscriber>();

  constructor(private readonly sessions: { get(id: string): Promise<Session | undefined> }) {}

  /** Adds a stream; the returned function removes it (the connection closed). */
  subscribe(subscriber: LiveSubscriber): () => void {
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  get open(): number {
    return this.subscribers.size;
  }

  /** The sink for one kind of client: delivered when at least one such stream may see the session and took it. */
  sink(client: LiveClient): OutboundSink {
    return { name: client, deliver: (message) => this.deliver(client, message) };
  }

  private async deliver(client: LiveClient, message: OutboundMessage): Promise<boolean> {
    const session = await this.sessions.get(message.sessionId);
    if (!session) return false;
    const live: LiveMessage = { ...message, session: { id: session.id, channel: session.channel, partner: session.partner, title: session.title } };
    let sent = false;
    for (const s of this.subscribers) {
      if (s.client !== client || (s.session !== undefined && s.session !== session.id) || !maySeeSession(s.access, session)) continue;
      s.send(live);
      sent = true;
    }
    return sent;
  }
}
