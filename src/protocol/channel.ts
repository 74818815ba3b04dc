/**
 * The channel role of the plugin protocol: a plugin that brings a way to talk to homed (a chat
 * network, a mail box, a webhook). It says so in its manifest (`channel: true`); its channel's
 * name is the plugin's own name, which the person gives it (plugin.json, the folder), so a plugin
 * can never speak as another channel. Three methods, all namespaced so a plain MCP server never
 * sees them:
 *
 * - `homed/channel/open` (host → plugin, request): homed is ready to take turns; the plugin starts
 *   listening to its network now (and again after every restart).
 * - `homed/channel/message` (plugin → host, request): one inbound message. The host runs it as a
 *   turn of the session (channel, partner) — the partner taken from `peer` by the host's mapping,
 *   never named by the plugin — and answers with the turn's text. With `stream`, the answer's text
 *   also comes as it is written, in `homed/channel/delta` notifications carrying `messageId`.
 * - `homed/channel/deliver` (host → plugin, request): a message homed sends first (a reminder's
 *   answer) to one of the channel's peers.
 * - `homed/channel/report` (plugin → host, notification): a line for the daemon log, for what the
 *   person running homed should see (an answer the network refused), prefixed with the channel.
 */
import { z } from "zod";

export const CHANNEL_METHODS = {
  open: "homed/channel/open",
  message: "homed/channel/message",
  delta: "homed/channel/delta",
  deliver: "homed/channel/deliver",
  report: "homed/channel/report",
} as const;

/**
 * A chat as its channel names it (a Telegram chat id, a QQ user id). No `/`: partners nest by `/`
 * (`app2/alice` sees what is private to `app2`, src/memory/scope.ts), and a peer must never make
 * a partner inside another.
 */
export const PeerIdSchema = z.string().regex(/^[A-Za-z0-9_.:@+=-]{1,128}$/, "a peer id is 1 to 128 letters, digits or _.:@+=- (no / or spaces)");

/** An image with a message: a URL the host downloads (http/https), or the bytes in base64. */
export const ChannelImageSchema = z.union([
  z.strictObject({ url: z.url({ protocol: /^https?$/ }) }),
  z.strictObject({ data: z.base64().max(12 * 1024 * 1024), mimeType: z.string().regex(/^image\/[a-z0-9.+-]+$/, "an image/* type") }),
]);
export type ChannelImage = z.infer<typeof ChannelImageSchema>;

/**
 * A voice message with a message: a URL the host downloads (http/https; at most 8 MiB, as every
 * voice message, kernel/voice.ts), or the bytes in base64. homed hears it through a provider's
 * transcription model and keeps it as an audio block.
 */
export const ChannelAudioSchema = z.union([
  z.strictObject({ url: z.url({ protocol: /^https?$/ }) }),
  z.strictObject({ data: z.base64().max(12 * 1024 * 1024), mimeType: z.string().regex(/^audio\/[a-z0-9.+-]+$/, "an audio/* type") }),
]);
export type ChannelAudio = z.infer<typeof ChannelAudioSchema>;

/**
 * One inbound message. Strict: a field the host does not read (a `partner`, a `session`) is refused
 * rather than ignored, so a plugin's author learns at once that the partner is not the plugin's to name.
 */
export const InboundMessageSchema = z.strictObject({
  /** The chat the message came from: decides the session (one per peer) and the partner. */
  peer: PeerIdSchema,
  /**
   * A chat of one person with homed (`direct`), or of several (`group`): in a group the model is
   * told who spoke (`sender`), and the group is a declared scene `chan:<channel>/peer:<peer>`.
   */
  chat: z.enum(["direct", "group"]).default("direct"),
  /** Who wrote it: in a group, named to the model before the text. */
  sender: z.strictObject({ id: z.string().min(1).max(128), name: z.string().max(200).optional() }).optional(),
  text: z.string().max(100_000).default(""),
  images: z.array(ChannelImageSchema).max(8).default([]),
  /** Voice messages (a QQ `record` segment): heard as the turn's input, kept as audio blocks. */
  audio: z.array(ChannelAudioSchema).max(4).default([]),
  /** The message this one answers, as the network quotes it. */
  replyTo: z.strictObject({ id: z.string().max(128).optional(), text: z.string().max(4000).optional() }).optional(),
  /** The network's id of the message; deltas of a streamed answer carry it. */
  messageId: z.string().min(1).max(128).optional(),
  /** Send the answer's text as it is written too (`homed/channel/delta`); needs `messageId`. */
  stream: z.boolean().default(false),
});
export type InboundMessage = z.input<typeof InboundMessageSchema>;

/** The host's answer to `homed/channel/message`: the turn's text (empty when there is nothing to say). */
export const InboundAnswerSchema = z.object({
  text: z.string(),
  sessionId: z.string(),
  /** How the turn ended (`no_tool_calls`, …), or `failed` when it did not run; the text then says so. */
  stopReason: z.string(),
});
export type InboundAnswer = z.infer<typeof InboundAnswerSchema>;

/** Text of a streamed answer, as the model writes it. */
export const AnswerDeltaSchema = z.object({ messageId: z.string(), text: z.string() });
export type AnswerDelta = z.infer<typeof AnswerDeltaSchema>;

/** What homed sends first, to one peer. */
export const DeliverySchema = z.object({
  peer: PeerIdSchema,
  text: z.string(),
  /** Why homed speaks (`reminder`, `feed`, `terminal`, `plugin`) and which plugin woke it. */
  source: z.object({ kind: z.string(), plugin: z.string() }),
  sessionId: z.string(),
});
export type Delivery = z.infer<typeof DeliverySchema>;

/** A line for the daemon log. */
export const ChannelReportSchema = z.object({ text: z.string().min(1).max(2000) });

/** The plugin's answer to `homed/channel/deliver`: whether it reached the peer. */
export const DeliveredSchema = z.object({ delivered: z.boolean() });
