/**
 * The subscriptions, in one JSON file replaced atomically (a temporary file, then rename): each
 * feed's URL, its validators for conditional GET (ETag, Last-Modified), whether new items are
 * pushed (and the session that asked, whose turn they wake), and the items seen so far (newest
 * first, capped), each marked read or not and told or not (pushed to the agent already: a restart
 * never tells an item twice).
 */
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { JsonListFile } from "../sdk/index.ts";

const StoredItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  link: z.string(),
  published: z.string().nullable(),
  summary: z.string(),
  read: z.boolean(),
  /** Pushed to the agent (or there when the feed was subscribed); files from before this field: told. */
  told: z.boolean().default(true),
});
export type StoredItem = z.infer<typeof StoredItemSchema>;

const FeedSchema = z.object({
  id: z.string(),
  url: z.string(),
  title: z.string(),
  format: z.string(),
  push: z.boolean(),
  /** The session whose tool call subscribed (or last changed push): its turn is woken for new items. */
  session: z.string().optional(),
  etag: z.string().optional(),
  lastModified: z.string().optional(),
  checkedAt: z.string().optional(),
  items: z.array(StoredItemSchema),
});
export type Feed = z.infer<typeof FeedSchema>;

export class FeedStore {
  private readonly list: JsonListFile<Feed>;

  constructor(dir: string) {
    this.list = new JsonListFile(dir, "feeds.json", "feeds", FeedSchema);
  }

  all(): Feed[] {
    return this.list.read();
  }

  get(id: string): Feed | undefined {
    return this.all().find((f) => f.id === id);
  }

  add(feed: Omit<Feed, "id">): Feed {
    const stored = { id: `f_${randomUUID().slice(0, 8)}`, ...feed };
    this.save([...this.all(), stored]);
    return stored;
  }

  /** Replaces a feed by id; false when it was unsubscribed meanwhile. */
  put(feed: Feed): boolean {
    const feeds = this.all();
    const index = feeds.findIndex((f) => f.id === feed.id);
    if (index === -1) return false;
    feeds[index] = feed;
    this.save(feeds);
    return true;
  }

  remove(id: string): boolean {
    const feeds = this.all();
    const kept = feeds.filter((f) => f.id !== id);
    if (kept.length === feeds.length) return false;
    this.save(kept);
    return true;
  }

  private save(feeds: Feed[]): void {
    this.list.write(feeds);
  }
}
