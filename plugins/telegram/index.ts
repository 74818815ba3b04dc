/**
 * Telegram as a channel plugin: a bot that long-polls the Bot API (getUpdates with `offset` and
 * `timeout`), hands each message homed should answer to homed (its chat is the peer, so each chat
 * is a session and, unless plugin.json's `partners` names it, a partner `telegram_<chat id>`),
 * shows "typing…" while the turn runs, and sends the answer back with sendMessage as a reply —
 * split at 4096 characters, the Bot API's limit. Private chats are always answered; in groups,
 * only messages that @-mention the bot or reply to it (`groups: "never"` turns groups off).
 * Photos go to homed as images. What homed says first (a reminder) is sent to the session's chat.
 */
import { defineChannel, z, type ChannelHost, type ChannelImage } from "../sdk/index.ts";
import { BotApi, MAX_MESSAGE_CHARS, TelegramError, type TelegramMessage } from "./bot-api.ts";

export const TelegramConfigSchema = z.object({
  /** The bot's token from @BotFather; else the TELEGRAM_BOT_TOKEN variable (plugin.json `inheritEnv`). */
  token: z.string().min(1).optional(),
  /** The Bot API's address (a local Bot API server, or a stand-in in tests). */
  apiBase: z.url({ protocol: /^https?$/ }).default("https://api.telegram.org"),
  /** How long one getUpdates waits for a message, in seconds (Telegram holds the request open). */
  pollTimeoutSeconds: z.number().int().min(0).max(50).default(25),
  /** In groups: answer when @-mentioned or replied to (default), or never. */
  groups: z.enum(["mention", "never"]).default("mention"),
});

/** A photo larger than this is left out (a model request has its own limits). */
const MAX_PHOTO_BYTES = 8 * 1024 * 1024;
/** "typing…" lasts 5 s on the client: renewed this often while the turn runs. */
const TYPING_EVERY_MS = 4500;
/** The longest wait between polls after failures. */
const MAX_BACKOFF_MS = 30_000;

/** The answer in pieces Telegram takes, cut at line ends where it can. */
export function messageChunks(text: string, max = MAX_MESSAGE_CHARS): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const cut = rest.lastIndexOf("\n", max);
    const at = cut > max / 2 ? cut : max;
    chunks.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n/, "");
  }
  if (rest.trim()) chunks.push(rest);
  return chunks;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

class TelegramBot {
  private me?: { id: number; username?: string | undefined };

  constructor(
    private readonly api: BotApi,
    private readonly homed: ChannelHost,
    private readonly config: z.infer<typeof TelegramConfigSchema>,
    private readonly log: (line: string) => void,
  ) {}

  /** Polls until `signal` aborts; every failure is logged and retried with a growing wait. */
  async run(signal: AbortSignal): Promise<void> {
    let offset: number | undefined;
    let failures = 0;
    while (!signal.aborted) {
      try {
        this.me ??= await this.api.getMe();
        const updates = await this.api.getUpdates(offset, this.config.pollTimeoutSeconds, signal);
        failures = 0;
        for (const update of updates) {
          // The next poll's offset confirms this update: Telegram sends it no more.
          offset = update.update_id + 1;
          if (update.message) void this.answer(update.message);
        }
      } catch (error) {
        if (signal.aborted) return;
        failures++;
        const wait = error instanceof TelegramError && error.retryAfter ? error.retryAfter * 1000 : Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1));
        this.log(`polling failed (${(error as Error).message}); again in ${wait} ms`);
        await sleep(wait, signal);
      }
    }
  }

  /** Whether the bot answers this message: always in a private chat; in a group when addressed. */
  private addressed(message: TelegramMessage): boolean {
    if (message.chat.type === "private") return true;
    if (this.config.groups === "never" || message.chat.type === "channel") return false;
    const said = message.text ?? message.caption ?? "";
    return (this.me?.username !== undefined && said.includes(`@${this.me.username}`)) || message.reply_to_message?.from?.id === this.me?.id;
  }

  private async answer(message: TelegramMessage): Promise<void> {
    if (message.from?.is_bot || !this.addressed(message)) return;
    const chat = message.chat.id;
    const typing = setInterval(() => void this.api.sendChatAction(chat, "typing").catch(() => {}), TYPING_EVERY_MS);
    try {
      void this.api.sendChatAction(chat, "typing").catch(() => {});
      const images = await this.photos(message);
      const said = message.text ?? message.caption ?? "";
      const mention = this.me?.username ? `@${this.me.username}` : undefined;
      const text = (mention ? said.replaceAll(mention, "") : said).trim();
      if (!text && images.length === 0) return;
      const reply = message.reply_to_message;
      const answer = await this.homed.send({
        peer: String(chat),
        chat: message.chat.type === "private" ? "direct" : "group",
        ...(message.from ? { sender: { id: String(message.from.id), name: message.from.first_name } } : {}),
        text,
        images,
        ...(reply ? { replyTo: { id: String(reply.message_id), ...(reply.text ? { text: reply.text.slice(0, 4000) } : {}) } } : {}),
        messageId: String(message.message_id),
      });
      let replyTo: number | undefined = message.message_id;
      for (const chunk of messageChunks(answer.text)) {
        await this.api.sendMessage(chat, chunk, replyTo);
        replyTo = undefined;
      }
    } catch (error) {
      this.log(`answering message ${message.message_id} in chat ${chat} failed: ${(error as Error).message}`);
    } finally {
      clearInterval(typing);
    }
  }

  /** The largest size of a photo, as bytes for homed (its URL would carry the bot's token). */
  private async photos(message: TelegramMessage): Promise<ChannelImage[]> {
    const largest = message.photo?.at(-1);
    if (!largest) return [];
    try {
      const { data, type } = await this.api.download(largest.file_id, MAX_PHOTO_BYTES);
      return [{ data: Buffer.from(data).toString("base64"), mimeType: type }];
    } catch (error) {
      this.log(`photo of message ${message.message_id} left out: ${(error as Error).message}`);
      return [];
    }
  }

  /** Sends what homed says first; false when Telegram refused it. */
  async deliver(peer: string, text: string): Promise<boolean> {
    try {
      for (const chunk of messageChunks(text)) await this.api.sendMessage(peer, chunk);
      return true;
    } catch (error) {
      this.log(`delivering to chat ${peer} failed: ${(error as Error).message}`);
      return false;
    }
  }
}

export const telegramChannel = defineChannel({
  name: "telegram",
  version: "1.0.0",
  description: "Talk to homed from Telegram: a bot that long-polls the Bot API.",
  config: TelegramConfigSchema,
  open({ config, homed, lifecycle }) {
    const token = config.token ?? process.env.TELEGRAM_BOT_TOKEN;
    if (!token) throw new Error('Cannot open the Telegram channel: give "token" in its config or TELEGRAM_BOT_TOKEN');
    const bot = new TelegramBot(new BotApi(config.apiBase, token), homed, config, (line) => homed.report(line));
    const stop = new AbortController();
    const polling = bot.run(stop.signal);
    lifecycle.onClose(async () => {
      stop.abort();
      await polling;
    });
    return { deliver: (delivery) => bot.deliver(delivery.peer, delivery.text) };
  },
});
