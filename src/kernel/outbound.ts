/**
 * Messages homed sends without being asked in that moment: the answer of a turn woken by a
 * reminder, a feed or a plugin event. The kernel does not know where a person is; the ways to
 * reach them register here — the console (live while open), `homed chat` when attached, a channel
 * (QQ, a channel plugin) for the sessions it owns — and each message goes to every sink that takes
 * its session. A sink says whether it delivered, so the caller can tell "nobody was reached"
 * (the answer stays in the session and is shown unread next time) from a delivery.
 */

/** Why homed speaks first: which source woke the turn. */
export interface OutboundSource {
  kind: "reminder" | "feed" | "terminal" | "plugin";
  /** The plugin whose event woke the turn. */
  plugin: string;
}

export interface OutboundMessage {
  sessionId: string;
  /** The answer as the model wrote it (Markdown). */
  text: string;
  source: OutboundSource;
  /** The stored assistant event, when the answer was stored. */
  eventId?: string;
}

export interface OutboundSink {
  /** Names the sink in logs ("console", "qq", "plugin:telegram"). */
  readonly name: string;
  /** Sends the message when the session is one this sink reaches; resolves true if it was sent. */
  deliver(message: OutboundMessage): Promise<boolean>;
}

export class Outbound {
  private readonly sinks = new Set<OutboundSink>();

  /** Adds a sink; the returned function removes it (a channel that stops, a console that closes). */
  register(sink: OutboundSink): () => void {
    this.sinks.add(sink);
    return () => this.sinks.delete(sink);
  }

  /** Offers the message to every sink; resolves with the names of those that delivered it. A failing sink does not stop the others. */
  async deliver(message: OutboundMessage): Promise<string[]> {
    const results = await Promise.allSettled([...this.sinks].map(async (sink) => ((await sink.deliver(message)) ? sink.name : undefined)));
    return results.flatMap((r) => (r.status === "fulfilled" && r.value ? [r.value] : []));
  }
}
