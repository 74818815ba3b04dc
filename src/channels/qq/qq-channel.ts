/**
 * QQ through OneBot 11: homed connects to the implementation's forward WebSocket (NapCat,
 * LLOneBot, Lagrange), answers private messages, and in groups answers when @-mentioned or named
 * (`groups.reply`: mention, always, never). Each message is a kernel turn in the session (qq,
 * partner): a private chat's partner is `partners[<QQ id>]` when homed.json names one — the same
 * name as on another channel shares that partner's memory — else `qq_<id>`; a group is partner
 * `group_<id>` and declares its scene `chan:qq/peer:group_<id>`. Images come in as image parts
 * (downloaded, up to 8 MiB each) and markdown images in the answer go out as image segments.
 *
 * A module of the daemon rather than a plugin process, for now: its only contact with the kernel
 * is `kernel.turn`, so it can move onto the channel-plugin role (src/channels/plugin-channels.ts,
 * docs/channel-plugins.md) as Telegram did.
 */
import { z } from "zod";
import type { Kernel } from "../../kernel/index.ts";
import type { Logger } from "../../log/index.ts";
import { declareScene } from "../../memory/index.ts";
import { downloadImages } from "../images.ts";
import { OneBotConnection } from "./connection.ts";
import { imageUrls, MessageEventSchema, mentions, messageText, segmentsOf, text, type MessageEvent, type Segment } from "./onebot.ts";

export const QQ_CHANNEL = "qq";

export const QQConfigSchema = z
  .object({
    enabled: z.boolean().default(false),
    /** The implementation's forward WebSocket (NapCat: a "WebSocket server" network config). */
    url: z
      .string()
      .regex(/^wss?:\/\//, "a ws:// or wss:// address")
      .optional(),
    /** The implementation's access token, when it has one. */
    accessToken: z.string().min(1).optional(),
    groups: z
      .object({
        /** When homed answers in a group: @-mentioned or named (default), every message, or never. */
        reply: z.enum(["mention", "always", "never"]).default("mention"),
        /** Names that count as addressing homed in a group, matched case-insensitively in the text. */
        names: z.array(z.string().min(1)).default(["homed"]),
      })
      .prefault({}),
    /** QQ ids → partner names, so a person is one partner across channels. */
    partners: z.record(z.string().regex(/^\d+$/, "a QQ id"), z.string().min(1).max(200)).default({}),
    /** The longest wait between reconnection attempts. */
    maxBackoffMs: z.number().int().min(1000).max(600_000).default(30_000),
  })
  .refine((c) => !c.enabled || c.url, { message: "url is needed when qq is enabled", path: ["url"] });
export type QQConfig = z.output<typeof QQConfigSchema>;

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

export class QQChannel {
  private readonly connection: OneBotConnection;
  private readonly declared = new Set<string>();

  constructor(
    private readonly kernel: Kernel,
    private readonly config: QQConfig,
    private readonly log: Pick<Logger, "info" | "warn">,
  ) {
    this.connection = new OneBotConnection({
      url: config.url!,
      accessToken: config.accessToken,
      maxBackoffMs: config.maxBackoffMs,
      log: (level, line) => log[level](line),
      onEvent: (event) => void this.receive(event),
    });
  }

  start(): void {
    this.connection.start();
  }

  stop(): void {
    this.connection.stop();
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
      this.log.warn(`qq: answering message ${event.message_id} failed: ${(error as Error).message}`);
    }
  }

  private async answer(event: MessageEvent, segments: Segment[]): Promise<void> {
    const group = event.message_type === "group" ? event.group_id : undefined;
    const partner = group ? `group_${group}` : (this.config.partners[event.user_id] ?? `qq_${event.user_id}`);
    const said = messageText(segments, event.self_id);
    const images = await downloadImages(imageUrls(segments), (line) => this.log.warn(`qq: ${line}`));
    if (!said && images.length === 0) return;
    const session = await this.kernel.sessions.open(QQ_CHANNEL, partner);
    if (group && !this.declared.has(partner)) {
      await declareScene(this.kernel.client, `chan:${QQ_CHANNEL}/peer:${partner}`);
      this.declared.add(partner);
    }
    // In a group several people speak: the model is told who.
    const speaker = event.sender?.card || event.sender?.nickname || event.user_id;
    const input = group ? `${speaker}: ${said}` : said;
    let reply: Segment[];
    try {
      const result = await this.kernel.turn({ session, input, ...(images.length ? { images } : {}) });
      reply = answerSegments(result.text);
    } catch (error) {
      const code = (error as { code?: string }).code ?? "internal";
      this.log.warn(`qq: turn for ${partner} failed: ${(error as Error).message}`);
      reply = [text(`homed could not answer (${code}).`)];
    }
    if (reply.length === 0) return;
    if (group) await this.connection.call("send_group_msg", { group_id: idParam(group), message: [{ type: "reply", data: { id: event.message_id } }, ...reply] });
    else await this.connection.call("send_private_msg", { user_id: idParam(event.user_id), message: reply });
  }
}
