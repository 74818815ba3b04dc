import { Mutex } from "async-mutex";
import { defineTool, ToolFailure, z, type Lifecycle, type ToolDefinition } from "../sdk/index.ts";
import { FetchFailure, fetchLimited } from "../web-fetch/fetch-limited.ts";
import { FeedParseFailure, parseFeedText, type ParsedFeed } from "./parse.ts";
import { FeedStore, type Feed, type StoredItem } from "./store.ts";
import type { Config } from "./config.ts";

/** Items in one pushed event at most; the rest wait, unread, for rss_read. */
const PUSH_ITEMS = 20;

const FeedId = z.string().min(1).describe("id from rss_subscribe or rss_list");

/** The rss plugin's tools, loaded only in its own process (its libraries stay out of the others'). */
export function rssTools(config: Config, lifecycle: Lifecycle): ToolDefinition[] {
  const store = new FeedStore(config.dir);
  // One change at a time: a scheduled check and a tool call must not both merge a feed.
  const lock = new Mutex();
  const gone = (id: string) => new ToolFailure("feed_not_found", `No subscription ${id}`, { feed: id, next_action: "call rss_list to see the ids" });

  const download = async (url: string, validators: { etag?: string; lastModified?: string }, signal?: AbortSignal) => {
    const headers: Record<string, string> = { accept: "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, */*;q=0.5" };
    if (validators.etag) headers["if-none-match"] = validators.etag;
    if (validators.lastModified) headers["if-modified-since"] = validators.lastModified;
    const page = await fetchLimited(url, { timeoutMs: config.timeoutMs, maxBytes: config.maxBytes, headers, ...(signal ? { signal } : {}) }).catch((error: unknown) => {
      if (error instanceof FetchFailure) throw new ToolFailure(error.code, error.message, { url });
      throw error;
    });
    const etag = page.headers.get("etag") ?? validators.etag;
    const lastModified = page.headers.get("last-modified") ?? validators.lastModified;
    const kept = { ...(etag ? { etag } : {}), ...(lastModified ? { lastModified } : {}) };
    if (page.status === 304) return { unchanged: true as const, ...kept };
    if (page.status >= 400) throw new ToolFailure("http_status", `Cannot read ${url}: the server answered ${page.status}`, { url, status: page.status });
    // A cut feed is a broken document: better refused than half-read as if complete.
    if (page.truncated) throw new ToolFailure("too_large", `Cannot read ${url}: the feed is over ${config.maxBytes} bytes`, { url });
    try {
      return { unchanged: false as const, parsed: parseFeedText(decodeFeed(page.body, page.contentType), url), ...kept };
    } catch (error) {
      if (error instanceof FeedParseFailure) throw new ToolFailure(error.code, error.message, { url });
      throw error;
    }
  };

  /** Fetches one feed and merges what is new; returns the new items (oldest stored ones are dropped past the cap). */
  const refresh = async (feed: Feed, signal?: AbortSignal): Promise<StoredItem[]> => {
    const got = await download(feed.url, feed, signal);
    const checkedAt = new Date().toISOString();
    const validators = { ...(got.etag ? { etag: got.etag } : {}), ...(got.lastModified ? { lastModified: got.lastModified } : {}) };
    return lock.runExclusive(() => {
      const current = store.get(feed.id);
      if (!current) return [];
      if (got.unchanged) {
        store.put({ ...current, ...validators, checkedAt });
        return [];
      }
      const known = new Set(current.items.map((i) => i.id));
      const fresh = newest(got.parsed.items.filter((i) => !known.has(i.id)).map((i) => ({ ...i, read: false, told: false })));
      store.put({ ...current, ...validators, title: got.parsed.title || current.title, format: got.parsed.format, checkedAt, items: [...fresh, ...current.items].slice(0, config.maxItemsPerFeed) });
      return fresh;
    });
  };

  /**
   * One event per followed feed and check, with every item not yet told (nor read): the kernel
   * wakes one turn for it. Told items are marked so in the store, so a restart does not re-tell.
   */
  const poll = async () => {
    for (const feed of store.all().filter((f) => f.push)) {
      try {
        await refresh(feed);
        if (!lifecycle.shared.attached) continue;
        await lock.runExclusive(() => {
          const current = store.get(feed.id);
          const untold = current?.items.filter((i) => !i.told && !i.read) ?? [];
          if (!current || untold.length === 0) return;
          const pushed = lifecycle.shared.pushEvent({
            type: "rss_items",
            ...(current.session ? { session: current.session } : {}),
            urgent: true,
            feed: current.id,
            title: current.title,
            items: untold.slice(0, PUSH_ITEMS).map(({ id, title, link, published }) => ({ id, title, link, published })),
            more: Math.max(0, untold.length - PUSH_ITEMS),
          });
          // A full ring: told at the next check instead.
          if (pushed) store.put({ ...current, items: current.items.map((i) => (i.told ? i : { ...i, told: true })) });
        });
      } catch {
        // A feed that is down now is tried again at the next tick; rss_read reports why.
      }
    }
  };
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return; // a slow check must not overlap the next
    polling = true;
    void poll().finally(() => (polling = false));
  }, config.pollSeconds * 1000);
  lifecycle.onClose(() => clearInterval(timer));

  const summary = (feed: Feed) => ({
    id: feed.id,
    url: feed.url,
    title: feed.title,
    format: feed.format,
    push: feed.push,
    items: feed.items.length,
    unread: feed.items.filter((i) => !i.read).length,
    checkedAt: feed.checkedAt ?? null,
  });

  return [
    defineTool({
      name: "rss_subscribe",
      description:
        "Subscribe to a feed by its http(s) URL (RSS, Atom, RDF or JSON Feed). push: true also tells you new items when they appear (they wake this conversation). Subscribing again to the same URL only changes push.",
      input: z.object({ url: z.string().min(1), push: z.boolean().default(false) }),
      run: async ({ url, push }, { signal, session }) => {
        const existing = store.all().find((f) => f.url === url);
        if (existing) {
          const changed = { ...existing, push, ...(session ? { session } : {}) };
          await lock.runExclusive(() => store.put(changed));
          return { feed: summary(changed), already: true };
        }
        if (store.all().length >= config.maxFeeds) throw new ToolFailure("too_many_feeds", `Cannot subscribe: ${config.maxFeeds} feeds already; unsubscribe one first`);
        const got = await download(url, {}, signal);
        if (got.unchanged) throw new ToolFailure("http_status", `Cannot read ${url}: the server answered 304 to a first request`, { url });
        const parsed: ParsedFeed = got.parsed;
        const feed = await lock.runExclusive(() =>
          store.add({
            url,
            title: parsed.title,
            format: parsed.format,
            push,
            ...(session ? { session } : {}),
            ...(got.etag ? { etag: got.etag } : {}),
            ...(got.lastModified ? { lastModified: got.lastModified } : {}),
            checkedAt: new Date().toISOString(),
            // What the feed holds when subscribed is not news: only later items are told.
            items: newest(parsed.items.map((i) => ({ ...i, read: false, told: true }))).slice(0, config.maxItemsPerFeed),
          }),
        );
        return { feed: summary(feed), already: false };
      },
    }),
    defineTool({
      name: "rss_list",
      description: "List the subscriptions with their unread counts.",
      input: z.object({}),
      run: () => ({ feeds: store.all().map(summary) }),
    }),
    defineTool({
      name: "rss_read",
      description: "Check one feed (or all) for new items, then return items newest first and mark them read. unreadOnly: false includes items already read.",
      input: z.object({
        feed: FeedId.optional(),
        unreadOnly: z.boolean().default(true),
        limit: z.number().int().positive().max(200).default(20),
        refresh: z.boolean().default(true).describe("fetch the feeds first (a conditional GET)"),
      }),
      run: async ({ feed: only, unreadOnly, limit, refresh: check }, { signal }) => {
        const feeds = only ? [store.get(only) ?? throwIt(gone(only))] : store.all();
        const problems: Record<string, unknown>[] = [];
        if (check) {
          for (const feed of feeds) {
            try {
              await refresh(feed, signal);
            } catch (error) {
              if (!(error instanceof ToolFailure)) throw error;
              problems.push({ feed: feed.id, error: error.code, message: error.message });
            }
          }
        }
        return lock.runExclusive(() => {
          const current = feeds.map((f) => store.get(f.id)).filter((f): f is Feed => f !== undefined);
          const picked = newest(current.flatMap((f) => f.items.filter((i) => !unreadOnly || !i.read).map((i) => ({ ...i, feed: f.id, feedTitle: f.title })))).slice(0, limit);
          for (const feed of current) {
            const shown = new Set(picked.filter((p) => p.feed === feed.id).map((p) => p.id));
            if (shown.size) store.put({ ...feed, items: feed.items.map((i) => (shown.has(i.id) ? { ...i, read: true } : i)) });
          }
          const unreadLeft = feeds.reduce((n, f) => n + (store.get(f.id)?.items.filter((i) => !i.read).length ?? 0), 0);
          return { items: picked.map(({ read, told: _told, ...item }) => ({ ...item, wasRead: read })), unreadLeft, problems };
        });
      },
    }),
    defineTool({
      name: "rss_unsubscribe",
      description: "Stop following a feed and forget its items.",
      input: z.object({ feed: FeedId }),
      run: ({ feed }) =>
        lock.runExclusive(() => {
          if (!store.remove(feed)) throw gone(feed);
          return { unsubscribed: feed };
        }),
    }),
  ];
}

/** Newest first by date; undated items keep their feed order after the dated ones. */
function newest<T extends { published: string | null }>(items: T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (b.item.published ?? "").localeCompare(a.item.published ?? "") || a.index - b.index)
    .map(({ item }) => item);
}

/**
 * A feed's text: the charset from Content-Type, else the XML declaration's encoding (read from
 * the first bytes, which are ASCII in every encoding a feed uses), else UTF-8.
 */
function decodeFeed(bytes: Uint8Array, contentType: string): string {
  const declared = /charset=["']?([^;"'\s]+)/i.exec(contentType)?.[1] ?? /^<\?xml[^>]*encoding=["']([^"']+)["']/.exec(new TextDecoder("latin1").decode(bytes.subarray(0, 200)))?.[1];
  try {
    return new TextDecoder(declared ?? "utf-8").decode(bytes);
  } catch (error) {
    // An unknown label: UTF-8 is the best guess, as web_fetch does.
    if (error instanceof RangeError) return new TextDecoder().decode(bytes);
    throw error;
  }
}

function throwIt(error: Error): never {
  throw error;
}
