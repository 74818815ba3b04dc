/**
 * `channels.qq` in homed.json: whether the QQ channel runs, how it reaches the OneBot 11
 * implementation, and which QQ ids are which partners. The daemon passes everything but `enabled`
 * and `partners` to the plugin (QQPluginConfigSchema); `partners` goes to the plugin's spec, since
 * who is who is the host's to decide (src/channels/plugin-channels.ts).
 */
import { z } from "../sdk/index.ts";

export const QQPluginConfigSchema = z.object({
  /** The implementation's forward WebSocket (NapCat: a "WebSocket server" network config). */
  url: z.string().regex(/^wss?:\/\//, "a ws:// or wss:// address"),
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
  /** The longest wait between reconnection attempts. */
  maxBackoffMs: z.number().int().min(1000).max(600_000).default(30_000),
});
export type QQPluginConfig = z.output<typeof QQPluginConfigSchema>;

export const QQConfigSchema = QQPluginConfigSchema.extend({
  enabled: z.boolean().default(false),
  url: QQPluginConfigSchema.shape.url.optional(),
  /** QQ ids → partner names, so a person is one partner across channels. */
  partners: z.record(z.string().regex(/^\d+$/, "a QQ id"), z.string().min(1).max(200)).default({}),
}).refine((c) => !c.enabled || c.url, { message: "url is needed when qq is enabled", path: ["url"] });
export type QQConfig = z.output<typeof QQConfigSchema>;
