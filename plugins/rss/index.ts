/**
 * rss: subscribe to feeds (RSS 2.0, Atom, RDF, JSON Feed), list them, read their items. Every
 * fetch is a conditional GET (the feed's ETag and Last-Modified), so an unchanged feed costs a
 * 304 and no parsing. New items are pushed as ring events on a schedule only for feeds
 * subscribed with `push: true`.
 */
import { definePlugin, z } from "../sdk/index.ts";

const ConfigSchema = z.object({
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

export const rssPlugin = definePlugin({
  name: "rss",
  version: "1.0.0",
  description: "Follow RSS, Atom and JSON feeds: subscribe, list, read new items.",
  provides: ["rss"],
  // New items are pushed through the segment's ring.
  sharedMemory: true,
  config: ConfigSchema,
  // The tools (and their libraries) load in this plugin's process only, when it starts.
  tools: async (config: Config, lifecycle) => (await import("./tools.ts")).rssTools(config, lifecycle),
});
