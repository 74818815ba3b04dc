/**
 * A feed's bytes to one shape for every format: feedsmith parses RSS 2.0 (and 0.9x), Atom,
 * RDF and JSON Feed; this file only picks the fields the model reads (title, link, date, a
 * short plain-text summary) and gives every item a stable id to tell new from seen.
 */
import { createHash } from "node:crypto";
import { DetectError, parseFeed } from "feedsmith";
import { parseHTML } from "linkedom";

export type FeedItem = { id: string; title: string; link: string; published: string | null; summary: string };
export type ParsedFeed = { format: string; title: string; items: FeedItem[] };

export class FeedParseFailure extends Error {
  constructor(
    readonly code: "not_a_feed" | "malformed_feed",
    message: string,
  ) {
    super(message);
    this.name = "FeedParseFailure";
  }
}

/** Characters of summary kept per item: enough to judge an item, not to read it. */
const SUMMARY_CHARS = 600;

type Loose = Record<string, unknown>;

export function parseFeedText(text: string, url: string): ParsedFeed {
  let parsed: { format: string; feed: Loose };
  try {
    parsed = parseFeed(text) as unknown as { format: string; feed: Loose };
  } catch (error) {
    if (error instanceof DetectError) throw new FeedParseFailure("not_a_feed", `Cannot read ${url}: not an RSS, Atom, RDF or JSON feed`);
    throw new FeedParseFailure("malformed_feed", `Cannot read ${url}: the feed is malformed (${(error as Error).message})`);
  }
  const { format, feed } = parsed;
  const raw = (format === "atom" ? feed.entries : feed.items) as Loose[] | undefined;
  const items = (raw ?? []).map((item) => (format === "atom" ? atomItem(item) : format === "json" ? jsonItem(item) : rssItem(item)));
  return { format, title: plain(feed.title), items };
}

function rssItem(item: Loose): FeedItem {
  const link = plain(item.link);
  const guid = plain(item.guid);
  const content = (item.content as Loose | undefined)?.encoded;
  return finish({ key: guid || link, title: plain(item.title), link, date: item.pubDate ?? (item.dc as Loose | undefined)?.date, summary: item.description ?? content });
}

function atomItem(item: Loose): FeedItem {
  const links = (item.links as Loose[] | undefined) ?? [];
  const link = plain((links.find((l) => !l.rel || l.rel === "alternate") ?? links[0])?.href);
  return finish({ key: plain(item.id) || link, title: plain(item.title), link, date: item.published ?? item.updated, summary: item.summary ?? item.content });
}

function jsonItem(item: Loose): FeedItem {
  return finish({
    key: plain(item.id) || plain(item.url),
    title: plain(item.title),
    link: plain(item.url),
    date: item.date_published ?? item.date_modified,
    summary: item.summary ?? item.content_text ?? item.content_html,
  });
}

function finish(item: { key: string; title: string; link: string; date: unknown; summary: unknown }): FeedItem {
  const summary = textOf(plain(item.summary));
  const when = Date.parse(plain(item.date));
  const published = Number.isNaN(when) ? null : new Date(when).toISOString();
  // An item with neither id nor link is known by its title and date.
  const id =
    item.key ||
    createHash("sha256")
      .update(`${item.title}\n${plain(item.date)}`)
      .digest("hex")
      .slice(0, 16);
  return { id, title: item.title.trim(), link: item.link.trim(), published, summary: summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS)}…` : summary };
}

/** Text fields come as strings or as `{ value }` (Atom's typed text, RSS's guid). */
function plain(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (value && typeof value === "object" && "value" in value) return plain((value as Loose).value);
  return "";
}

/** Summaries are often HTML: the model gets their text. */
function textOf(html: string): string {
  if (!/[<&]/.test(html)) return html.replace(/\s+/g, " ").trim();
  const { document } = parseHTML(`<html><body>${html}</body></html>`);
  return (document.body?.textContent ?? "").replace(/\s+/g, " ").trim();
}
