/**
 * rss: subscribe to feeds (RSS 2.0, Atom, RDF, JSON Feed), list them, read their items. Every
 * fetch is a conditional GET (the feed's ETag and Last-Modified), so an unchanged feed costs a
 * 304 and no parsing. New items are pushed as ring events on a schedule only for feeds
 * subscribed with `push: true`.
 */
import { definePlugin } from "../sdk/index.ts";
import { ConfigSchema, type Config } from "./config.ts";

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
