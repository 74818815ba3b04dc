/**
 * Channel plugins, the host's side (src/protocol/channel.ts is the wire): a plugin whose manifest
 * says `channel: true` brings a way to talk to homed. Once it runs, homed tells it to open
 * (`homed/channel/open`); each message it hands in (`homed/channel/message`) is a kernel turn of
 * the session (channel, partner) and the answer goes back as the request's result (and, asked
 * for, as deltas while the model writes); what homed says first (Outbound: a reminder's answer)
 * for one of its sessions goes out through `homed/channel/deliver`.
 *
 * Who is who stays the host's: the channel is the plugin's own name, and the partner is the
 * spec's `partners[peer]` (so a person is one partner across channels) or `<channel>_<peer>`.
 * A plugin names only the peer, in the characters a peer may have (no `/`, which would nest one
 * partner inside another), so it cannot reach a session or a memory of a partner that is not its
 * own by naming it: the turn acts with its session's partner like every other (src/memory/access.ts).
 */
import { z } from "zod";
import { HomedError } from "../errors/index.ts";
import type { ImagePart, Kernel, Outbound, OutboundMessage } from "../kernel/index.ts";
import type { Logger } from "../log/index.ts";
import { declareScene } from "../memory/index.ts";
import { TokenBucket, type PluginHost, type PluginStatus } from "../plugins/index.ts";
import { CHANNEL_METHODS, ChannelReportSchema, DeliveredSchema, InboundMessageSchema, RpcError, ErrorCode, type InboundAnswer } from "../protocol/index.ts";
import { dataUrlPart, downloadImages } from "./images.ts";
import { channelVoice } from "./voice.ts";

/**
 * Channel names homed's own surfaces use for their sessions (the console, `homed chat`, `/v1`,
 * A2A, ACP): a plugin named so cannot be a channel, or it would answer in their sessions and
 * receive their proactive messages.
 */
export const RESERVED_CHANNELS: ReadonlySet<string> = new Set(["console", "terminal", "openai", "a2a", "acp", "mcp", "api"]);

/** Report lines a channel may write to the daemon log: 5 a second, 20 at once; the rest are counted, not written. */
const REPORTS_PER_SECOND = 5;
const REPORT_BURST = 20;

export type ChannelPluginsOptions = {
  kernel: Pick<Kernel, "sessions" | "turn" | "client">;
  host: PluginHost;
  /** Where proactive messages are offered; each channel plugin registers a sink for its sessions. */
  outbound?: Outbound;
  log: Pick<Logger, "info" | "warn">;
  /** Names a plugin may not take as its channel (RESERVED_CHANNELS by default). */
  reserved?: ReadonlySet<string>;
};

/**
 * Peers that are partners under their own name: a QQ group was partner `group_<id>` while QQ ran
 * inside the daemon, and its sessions and the memories private to it carry that name. Kept so an
 * upgrade loses none of them; only the built-in channel's name gets this.
 */
const OWN_NAME_PEERS: Readonly<Record<string, RegExp>> = { qq: /^group_\d+$/ };

/** The plugin's partner for a peer: the spec's mapping, else `<channel>_<peer>` (or the peer itself, see OWN_NAME_PEERS). */
export const partnerFor = (channel: string, partners: Readonly<Record<string, string>>, peer: string): string => partners[peer] ?? (OWN_NAME_PEERS[channel]?.test(peer) ? peer : `${channel}_${peer}`);

/** The peer a session's partner is reached at on this channel; undefined when it is none of the channel's. */
export function peerFor(channel: string, partners: Readonly<Record<string, string>>, partner: string): string | undefined {
  const mapped = Object.entries(partners).find(([, name]) => name === partner);
  if (mapped) return mapped[0];
  if (OWN_NAME_PEERS[channel]?.test(partner)) return partners[partner] === undefined ? partner : undefined;
  const prefix = `${channel}_`;
  const peer = partner.startsWith(prefix) ? partner.slice(prefix.length) : undefined;
  // A peer that is mapped to a name is reached as that name only.
  return peer && partners[peer] === undefined ? peer : undefined;
}

/** The text a turn is given for a message: in a group who spoke, and what it answers. */
function turnInput(message: z.output<typeof InboundMessageSchema>): string {
  const quoted = message.replyTo?.text ? `[in reply to: ${JSON.stringify(message.replyTo.text)}]\n` : "";
  const speaker = message.chat === "group" && message.sender ? `${message.sender.name || message.sender.id}: ` : "";
  // A voice message's words come before this line (kernel/voice.ts); in a group it says who sent it.
  const said = message.text || (speaker && message.audio.length ? "(a voice message)" : "");
  return `${quoted}${speaker}${said}`;
}

export class ChannelPlugins {
  private readonly reserved: ReadonlySet<string>;
  /** The Outbound sink of each channel plugin that has run, kept across its restarts. */
  private readonly sinks = new Map<string, () => void>();
  private readonly stops: (() => void)[] = [];
  /** Group scenes declared since start (declaring is idempotent; this spares the store). */
  private readonly declared = new Set<string>();
  private readonly reports = new Map<string, { bucket: TokenBucket; dropped: number }>();

  constructor(private readonly options: ChannelPluginsOptions) {
    this.reserved = options.reserved ?? RESERVED_CHANNELS;
    options.host.handle(CHANNEL_METHODS.message, (plugin, params, context) => this.receive(plugin, params, context.signal));
    options.host.listen(CHANNEL_METHODS.report, (plugin, params) => this.report(plugin, params));
    this.stops.push(options.host.onRunning((status) => void this.open(status)));
  }

  /** Removes the sinks and listeners (the daemon's stop). */
  stop(): void {
    for (const off of [...this.stops, ...this.sinks.values()]) off();
    this.sinks.clear();
  }

  /** Whether the plugin runs as a channel (it declared the role and its name is not reserved). */
  private isChannel(plugin: string): boolean {
    const status = this.options.host.status(plugin);
    return status.state === "running" && status.manifest?.channel === true && !this.reserved.has(plugin);
  }

  private async open(status: PluginStatus): Promise<void> {
    if (!status.manifest?.channel) return;
    const channel = status.name;
    if (this.reserved.has(channel)) return this.options.log.warn(`${channel}: the plugin declares the channel role, but "${channel}" is a channel homed serves itself; rename the plugin`);
    if (!this.sinks.has(channel) && this.options.outbound) {
      this.sinks.set(channel, this.options.outbound.register({ name: channel, deliver: (message) => this.deliver(channel, message) }));
    }
    try {
      await this.options.host.request(channel, CHANNEL_METHODS.open, { channel });
      this.options.log.info(`${channel}: open as a channel (plugin)`);
    } catch (error) {
      this.options.log.warn(`${channel}: the channel plugin did not open: ${(error as Error).message}`);
    }
  }

  private async receive(plugin: string, params: unknown, signal: AbortSignal): Promise<InboundAnswer> {
    if (!this.isChannel(plugin)) throw new RpcError(ErrorCode.MethodNotFound, `${plugin} is not a channel: declare "channel": true in homed/manifest (and not as ${[...this.reserved].join(", ")})`);
    const { _meta: _, ...fields } = (typeof params === "object" && params !== null ? params : {}) as Record<string, unknown>;
    const parsed = InboundMessageSchema.safeParse(fields);
    if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `Cannot take the message: ${z.prettifyError(parsed.error)}`);
    const message = parsed.data;
    if (message.stream && !message.messageId) throw new RpcError(ErrorCode.InvalidParams, "Cannot stream the answer: give the message a messageId for its deltas to carry");
    const partner = partnerFor(plugin, this.options.host.spec(plugin).partners, message.peer);
    const warn = (line: string) => this.options.log.warn(`${plugin}: ${line}`);
    const images: ImagePart[] = [
      ...message.images.flatMap((i) => ("data" in i ? [dataUrlPart(i.mimeType, i.data)] : [])),
      ...(await downloadImages(
        message.images.flatMap((i) => ("url" in i ? [i.url] : [])),
        warn,
      )),
    ];
    const audio = await channelVoice(message.audio, plugin, warn);
    const session = await this.options.kernel.sessions.open(plugin, partner);
    if (message.chat === "group") await this.declareGroup(plugin, message.peer, warn);
    const input = turnInput(message);
    if (!input.trim() && images.length === 0 && audio.length === 0) return { text: "", sessionId: session.id, stopReason: "empty" };
    const onEvent = message.stream
      ? (event: { type: string; text?: string }) => {
          if (event.type === "content" && event.text) void this.options.host.notify(plugin, CHANNEL_METHODS.delta, { messageId: message.messageId!, text: event.text }).catch(() => {});
        }
      : undefined;
    try {
      const result = await this.options.kernel.turn({ session, input, signal, ...(images.length ? { images } : {}), ...(audio.length ? { audio } : {}), ...(onEvent ? { onEvent } : {}) });
      return { text: result.text, sessionId: session.id, stopReason: result.stopReason };
    } catch (error) {
      const code = error instanceof HomedError ? error.code : ((error as { code?: string }).code ?? "internal");
      warn(`turn for ${partner} failed: ${(error as Error).message}`);
      return { text: `homed could not answer (${code}).`, sessionId: session.id, stopReason: "failed" };
    }
  }

  /** A group is a scene from its first message (DESIGN §3 Scenes), keyed by the peer as the channel names it. */
  private async declareGroup(channel: string, peer: string, warn: (line: string) => void): Promise<void> {
    const key = `chan:${channel}/peer:${peer}`;
    if (this.declared.has(key)) return;
    try {
      await declareScene(this.options.kernel.client, key);
      this.declared.add(key);
    } catch (error) {
      warn(`cannot declare scene ${key}: ${(error as Error).message}`);
    }
  }

  /** A channel's line for the daemon log, under its name, held to REPORTS_PER_SECOND. */
  private report(plugin: string, params: unknown): void {
    const parsed = ChannelReportSchema.safeParse(params);
    if (!parsed.success || !this.isChannel(plugin)) return;
    let limit = this.reports.get(plugin);
    if (!limit) this.reports.set(plugin, (limit = { bucket: new TokenBucket(REPORTS_PER_SECOND, REPORT_BURST), dropped: 0 }));
    if (!limit.bucket.take()) {
      limit.dropped++;
      return;
    }
    const dropped = limit.dropped ? ` (${limit.dropped} earlier lines dropped, over ${REPORTS_PER_SECOND} a second)` : "";
    limit.dropped = 0;
    this.options.log.warn(`${plugin}: ${parsed.data.text}${dropped}`);
  }

  /** A proactive message, when its session is one of this channel's and the plugin runs. */
  private async deliver(channel: string, message: OutboundMessage): Promise<boolean> {
    const session = await this.options.kernel.sessions.get(message.sessionId);
    if (session?.channel !== channel || !this.isChannel(channel)) return false;
    const peer = peerFor(channel, this.options.host.spec(channel).partners, session.partner);
    if (!peer) return false;
    const answer = await this.options.host.request(channel, CHANNEL_METHODS.deliver, { peer, text: message.text, source: message.source, sessionId: session.id });
    return DeliveredSchema.parse(answer).delivered;
  }
}
