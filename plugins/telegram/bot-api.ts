/**
 * The few Telegram Bot API methods the channel uses (https://core.telegram.org/bots/api): getMe,
 * getUpdates (long polling), sendMessage, sendChatAction, getFile and the file download. Every
 * answer is checked with zod; a refusal (`ok: false`) is a TelegramError with its `error_code`,
 * `description` and, for flood control, `retry_after` seconds.
 */
import { z } from "../sdk/index.ts";

const UserSchema = z.looseObject({ id: z.number(), is_bot: z.boolean(), first_name: z.string(), username: z.string().optional() });
const ChatSchema = z.looseObject({ id: z.number(), type: z.string(), title: z.string().optional(), username: z.string().optional(), first_name: z.string().optional() });
const PhotoSizeSchema = z.looseObject({ file_id: z.string(), width: z.number(), height: z.number(), file_size: z.number().optional() });
const BaseMessageSchema = z.looseObject({
  message_id: z.number(),
  from: UserSchema.optional(),
  chat: ChatSchema,
  date: z.number(),
  text: z.string().optional(),
  caption: z.string().optional(),
  photo: z.array(PhotoSizeSchema).optional(),
});
export const MessageSchema = BaseMessageSchema.extend({ reply_to_message: BaseMessageSchema.optional() });
export type TelegramMessage = z.infer<typeof MessageSchema>;
export const UpdateSchema = z.looseObject({ update_id: z.number().int(), message: MessageSchema.optional() });
export type Update = z.infer<typeof UpdateSchema>;
const FileSchema = z.looseObject({ file_id: z.string(), file_path: z.string().optional(), file_size: z.number().optional() });

const ReplySchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({ ok: z.literal(false), error_code: z.number(), description: z.string(), parameters: z.looseObject({ retry_after: z.number().optional() }).optional() }),
]);

export class TelegramError extends Error {
  constructor(
    readonly method: string,
    readonly errorCode: number,
    description: string,
    /** Seconds to wait before the next request (429, flood control). */
    readonly retryAfter?: number,
  ) {
    super(`${method} failed: ${errorCode} ${description}`);
    this.name = "TelegramError";
  }
}

/** A message's text is at most this long (Bot API: sendMessage, 1-4096 characters). */
export const MAX_MESSAGE_CHARS = 4096;

export class BotApi {
  constructor(
    /** `https://api.telegram.org` or a stand-in's base. */
    private readonly base: string,
    private readonly token: string,
  ) {}

  /** Calls a method with a JSON body; resolves with its `result`, checked by `schema`. */
  async call<S extends z.ZodType>(method: string, params: Record<string, unknown>, schema: S, signal?: AbortSignal): Promise<z.infer<S>> {
    const response = await fetch(`${this.base}/bot${this.token}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
      ...(signal ? { signal } : {}),
    });
    const reply = ReplySchema.safeParse(await response.json().catch(() => null));
    if (!reply.success) throw new TelegramError(method, response.status, `an answer that is not the Bot API's (HTTP ${response.status})`);
    if (!reply.data.ok) throw new TelegramError(method, reply.data.error_code, reply.data.description, reply.data.parameters?.retry_after);
    return schema.parse(reply.data.result);
  }

  getMe() {
    return this.call("getMe", {}, UserSchema);
  }

  /** Updates after `offset` (which confirms every earlier one), waiting up to `timeout` seconds for one. */
  getUpdates(offset: number | undefined, timeout: number, signal: AbortSignal) {
    return this.call("getUpdates", { ...(offset !== undefined ? { offset } : {}), timeout, allowed_updates: ["message"] }, z.array(UpdateSchema), signal);
  }

  sendMessage(chatId: number | string, text: string, replyTo?: number) {
    return this.call("sendMessage", { chat_id: chatId, text, ...(replyTo !== undefined ? { reply_parameters: { message_id: replyTo, allow_sending_without_reply: true } } : {}) }, MessageSchema);
  }

  sendChatAction(chatId: number | string, action: "typing") {
    return this.call("sendChatAction", { chat_id: chatId, action }, z.boolean());
  }

  /** A file's bytes (a photo someone sent), by its file_id: getFile, then the download URL it names. */
  async download(fileId: string, maxBytes: number): Promise<{ data: Uint8Array; type: string }> {
    const file = await this.call("getFile", { file_id: fileId }, FileSchema);
    if (!file.file_path) throw new Error(`getFile named no file_path for ${fileId}`);
    if ((file.file_size ?? 0) > maxBytes) throw new Error(`${file.file_size} bytes, over ${maxBytes}`);
    const response = await fetch(`${this.base}/file/bot${this.token}/${file.file_path}`);
    if (!response.ok) throw new Error(`downloading ${file.file_path}: HTTP ${response.status}`);
    const data = new Uint8Array(await response.arrayBuffer());
    if (data.length > maxBytes) throw new Error(`${data.length} bytes, over ${maxBytes}`);
    // Telegram serves files as application/octet-stream; the photos it makes are JPEG.
    const type = response.headers.get("content-type")?.split(";")[0] ?? "";
    return { data, type: type.startsWith("image/") ? type : "image/jpeg" };
  }
}
