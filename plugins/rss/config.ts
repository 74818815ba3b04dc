/** The rss plugin's settings (homed.json's `plugins.rss`), apart from the plugin so its tools can take their type without importing the plugin's entry. */
import { z } from "../sdk/index.ts";

export const ConfigSchema = z.object({
  dir: z.string().min(1),
  timeoutMs: z.number().int().positive().default(15_000),
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
  /** Items kept per feed, newest first; older ones are forgotten. */
  maxItemsPerFeed: z.number().int().positive().default(200),
  maxFeeds: z.number().int().positive().default(200),
  /** How often feeds with push on are checked for new items. */
  pollSeconds: z.number().positive().default(1800),
});
export type Config = z.infer<typeof ConfigSchema>;
