/**
 * QQ through OneBot 11, as a channel plugin: it connects to the implementation's forward WebSocket
 * (NapCat, LLOneBot, Lagrange), answers private messages, and in groups answers when @-mentioned
 * or named (`groups.reply`: mention, always, never). Each message goes to homed as a message of
 * its peer — the QQ id of a private chat, `group_<id>` of a group — so homed runs it as a turn of
 * the session (qq, partner): the partner is homed.json's `partners[<QQ id>]` when it names one
 * (the same name as on another channel shares that partner's memory), else `qq_<id>`, and a group
 * is the partner `group_<id>` (its name before QQ was a plugin) with its scene `chan:qq/peer:group_<id>`. Image segments go in as
 * URLs (homed downloads them), and so do record segments (voice messages, heard as their
 * transcript); markdown images in the answer go out as image segments.
 */
import { defineChannel, type ChannelHost } from "../sdk/index.ts";
import { QQPluginConfigSchema, type QQPluginConfig } from "./config.ts";
import { OneBotConnection } from "./connection.ts";
import { imageUrls, recordUrls, MessageEventSchema, mentions, messageText, segmentsOf, text, type MessageEvent, type Segment } from "./onebot.ts";

/** Markdown images in an answer: sent as image segments. */
const MARKDOWN_IMAGE = /!\[[^\]]*\]\((https?:\/\/[^)\s]+)\)/g;

/** The answer as segments: its text, with markdown images as image segments in place. */
export function answerSegments(answer: string): Segment[] {
  const segments: Segment[] = [];
  let last = 0;
  for (const match of answer.matchAll(MARKDOWN_IMAGE)) {
    if (match.index > last) segments.push(text(answer.slice(last, match.index)));
    segments.push({ type: "image", data: { file: match[1]! } });
    last = match.index + match[0].length;
  }
  if (last < answer.length) segments.push(text(answer.slice(last)));
  return segments.filter((s) => s.type !== "text" || String(s.data?.text).trim());
}

/** OneBot wants numeric ids where they are numeric. */
const idParam = (id: string) => (/^\d+$/.test(id) ? Number(id) : id);

const GROUP_PEER = /^group_(.+)$/;

class QQBot {
  readonly connection: OneBotConnection;

  constructor(
    private readonly config: QQPluginConfig,
    private readonly homed: ChannelHost,
  ) {
    this.connection = new OneBotConnection({
      url: config.url,
      accessToken: config.accessToken,
      maxBackoffMs: config.maxBackoffMs,
      // Warnings reach the daemon log; the rest stays in the plugin's own.
      log: (level, line) => (level === "warn" ? homed.report(line) : process.stderr.write(`${line}\n`)),
      onEvent: (event) => void this.receive(event),
    });
  }

  /** Whether homed answers this message: always in private; in a group as `groups.reply` says. */
  private addressed(event: MessageEvent, segments: Segment[]): boolean {
    if (event.message_type === "private") return true;
    const { reply, names } = this.config.groups;
    if (reply !== "mention") return reply === "always";
    const said = messageText(segments, event.self_id).toLowerCase();
    return mentions(segments, event.self_id) || names.some((n) => said.includes(n.toLowerCase()));
  }

  private async receive(frame: unknown): Promise<void> {
    const parsed = MessageEventSchema.safeParse(frame);
    // Meta events (lifecycle, heartbeat), notices and requests: nothing to answer.
    if (!parsed.success) return;
    const event = parsed.data;
    if (event.user_id === event.self_id) return;
    const segments = segmentsOf(event);
    if (!this.addressed(event, segments)) return;
    try {
      await this.answer(event, segments);
    } catch (error) {
      this.homed.report(`answering message ${event.message_id} failed: ${(error as Error).message}`);
    }
  }

  private async answer(event: MessageEvent, segments: Segment[]): Promise<void> {
    const group = event.message_type === "group" ? event.group_id : undefined;
    const said = messageText(segments, event.self_id);
    const images = imageUrls(segments).map((url) => ({ url }));
    // Voice messages: homed downloads and hears them (src/channels/voice.ts).
    const audio = recordUrls(segments).map((url) => ({ url }));
    if (!said && images.length === 0 && audio.length === 0) return;
    // In a group several people speak: homed tells the model who.
    const speaker = event.sender?.card || event.sender?.nickname || event.user_id;
    const answer = await this.homed.send({
      peer: group ? `group_${group}` : event.user_id,
      chat: group ? "group" : "direct",
      sender: { id: event.user_id, name: speaker },
      text: said,
      images,
      ...(audio.length ? { audio } : {}),
      messageId: event.message_id,
    });
    const reply = answerSegments(answer.text);
    if (reply.length === 0) return;
    if (group) await this.connection.call("send_group_msg", { group_id: idParam(group), message: [{ type: "reply", data: { id: event.message_id } }, ...reply] });
    else await this.connection.call("send_private_msg", { user_id: idParam(event.user_id), message: reply });
  }

  /** What homed says first, to a QQ id or a group. */
  async deliver(peer: string, answer: string): Promise<boolean> {
    const message = answerSegments(answer);
    if (message.length === 0) return false;
    const group = GROUP_PEER.exec(peer)?.[1];
    try {
      if (group) await this.connection.call("send_group_msg", { group_id: idParam(group), message });
      else await this.connection.call("send_private_msg", { user_id: idParam(peer), message });
      return true;
    } catch (error) {
      this.homed.report(`delivering to ${peer} failed: ${(error as Error).message}`);
      return false;
    }
  }
}

export const qqChannel = defineChannel({
  name: "qq",
  version: "1.0.0",
  description: "Talk to homed from QQ through a OneBot 11 implementation (NapCat, LLOneBot, Lagrange).",
  config: QQPluginConfigSchema,
  open({ config, homed, lifecycle }) {
    const bot = new QQBot(config, homed);
    // It keeps reconnecting on its own until homed stops it.
    bot.connection.start();
    lifecycle.onClose(() => bot.connection.stop());
    return { deliver: (delivery) => bot.deliver(delivery.peer, delivery.text) };
  },
});

export { QQConfigSchema, QQPluginConfigSchema, type QQConfig, type QQPluginConfig } from "./config.ts";
