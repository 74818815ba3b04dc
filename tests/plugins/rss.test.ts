/**
 * rss as a real plugin process against feeds served on 127.0.0.1: RSS 2.0, Atom and JSON Feed
 * read to one shape; conditional GET (a 304 costs nothing and loses nothing); a malformed feed
 * and a web page refused as data; new items pushed through the ring only when asked.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import { builtinSpec } from "../../plugins/index.ts";
import { createPluginHost, type CallToolResult, type PluginHost } from "../../src/plugins/index.ts";
import { SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

const rssItem = (n: number, day: number) =>
  `<item><title>Otter news ${n}</title><link>http://example.test/otters/${n}</link><guid>otter-${n}</guid><pubDate>${new Date(Date.UTC(2026, 10, day, 9)).toUTCString()}</pubDate><description>&lt;p&gt;Otters &lt;b&gt;hold&lt;/b&gt; hands, part ${n}.&lt;/p&gt;</description></item>`;
const rss = (items: number[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Otter Daily</title><link>http://example.test/</link>${items.map((n) => rssItem(n, n)).join("")}</channel></rss>`;
const ATOM = `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title type="text">Beaver Weekly</title><id>urn:beaver</id><updated>2026-11-20T00:00:00Z</updated>
<entry><title>Dams explained</title><id>urn:beaver:1</id><link rel="alternate" href="http://example.test/beaver/1"/><updated>2026-11-20T08:00:00Z</updated><summary>Beavers build dams.</summary></entry></feed>`;
const JSON_FEED = JSON.stringify({
  version: "https://jsonfeed.org/version/1.1",
  title: "Heron Notes",
  items: [{ id: "h1", url: "http://example.test/heron/1", title: "Herons wait", content_text: "Herons stand very still.", date_published: "2026-11-25T12:00:00Z" }],
});

describe("rss plugin", () => {
  const dir = tempDir("homed-rss-").path;
  let server: Server;
  let base = "";
  let host: PluginHost;
  let items = [1, 2];
  const requests: { url: string; ifNoneMatch?: string; status: number }[] = [];
  const events: { type: string; feed: string; items: { title: string }[] }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      const answer = (status: number, headers: Record<string, string>, body: string | Buffer = "") => {
        requests.push({ url: req.url ?? "", ...(req.headers["if-none-match"] ? { ifNoneMatch: String(req.headers["if-none-match"]) } : {}), status });
        res.writeHead(status, headers).end(body);
      };
      if (req.url === "/otters.xml") {
        const etag = `"v${items.join("-")}"`;
        if (req.headers["if-none-match"] === etag) return answer(304, { etag });
        return answer(200, { "content-type": "application/rss+xml", etag }, rss(items));
      }
      if (req.url === "/beaver.atom") return answer(200, { "content-type": "application/atom+xml", "last-modified": "Fri, 20 Nov 2026 08:00:00 GMT" }, ATOM);
      if (req.url === "/heron.json") return answer(200, { "content-type": "application/feed+json" }, JSON_FEED);
      if (req.url === "/broken.xml") return answer(200, { "content-type": "application/rss+xml" }, `<?xml version="1.0"?><rss version="2.0"><channel><title>Broken</title><item><title>cut off`);
      if (req.url === "/latin1.xml")
        return answer(
          200,
          { "content-type": "application/xml" },
          Buffer.from(
            `<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Caf\u00e9 news</title><item><title>Cr\u00e8me br\u00fbl\u00e9e</title><guid>c1</guid></item></channel></rss>`,
            "latin1",
          ),
        );
      if (req.url === "/page.html") return answer(200, { "content-type": "text/html" }, "<html><body><p>not a feed</p></body></html>");
      answer(404, {}, "no");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    host = createPluginHost([builtinSpec("rss", SOURCE_HOMED, { dir, timeoutMs: 2000, pollSeconds: 0.1 })], { graceMs: 1000 });
    host.onEvent((_plugin, event) => events.push(event as (typeof events)[number]));
    await host.start();
  });
  after(async () => {
    await host?.stopAll();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const result: CallToolResult = await host.callTool("rss", tool, args);
    return { isError: result.isError ?? false, ...(result.structuredContent as Record<string, any>) } as Record<string, any>;
  };

  test("RSS 2.0, Atom and JSON Feed subscribe and read to the same shape, newest first, HTML summaries as text", async () => {
    const otters = await call("rss_subscribe", { url: `${base}/otters.xml` });
    assert.equal(otters.isError, false, JSON.stringify(otters));
    assert.deepEqual([otters.feed.title, otters.feed.format, otters.feed.unread], ["Otter Daily", "rss", 2]);
    const beaver = await call("rss_subscribe", { url: `${base}/beaver.atom` });
    assert.deepEqual([beaver.feed.title, beaver.feed.format], ["Beaver Weekly", "atom"]);
    const heron = await call("rss_subscribe", { url: `${base}/heron.json` });
    assert.deepEqual([heron.feed.title, heron.feed.format], ["Heron Notes", "json"]);

    const read = await call("rss_read", { refresh: false });
    assert.deepEqual(
      read.items.map((i: { title: string }) => i.title),
      ["Herons wait", "Dams explained", "Otter news 2", "Otter news 1"],
    );
    const otter = read.items.find((i: { id: string }) => i.id === "otter-2");
    assert.deepEqual(otter, {
      id: "otter-2",
      title: "Otter news 2",
      link: "http://example.test/otters/2",
      published: "2026-11-02T09:00:00.000Z",
      summary: "Otters hold hands, part 2.",
      feed: otters.feed.id,
      feedTitle: "Otter Daily",
      wasRead: false,
    });
    assert.equal(read.unreadLeft, 0);
    assert.deepEqual((await call("rss_read", { refresh: false })).items, [], "items once read are not unread again");
    assert.equal((await call("rss_read", { refresh: false, unreadOnly: false })).items.length, 4);
    const listed = await call("rss_list");
    assert.deepEqual(
      listed.feeds.map((f: { title: string; unread: number }) => [f.title, f.unread]),
      [
        ["Otter Daily", 0],
        ["Beaver Weekly", 0],
        ["Heron Notes", 0],
      ],
    );
  });

  test("conditional GET: an unchanged feed answers 304 and keeps its items; a changed one brings only the new item", async () => {
    const { feeds } = await call("rss_list");
    const otters = feeds.find((f: { title: string }) => f.title === "Otter Daily").id;
    requests.length = 0;
    const same = await call("rss_read", { feed: otters });
    assert.deepEqual(same.items, []);
    assert.deepEqual(requests, [{ url: "/otters.xml", ifNoneMatch: '"v1-2"', status: 304 }]);
    items = [1, 2, 3];
    const changed = await call("rss_read", { feed: otters });
    assert.deepEqual(
      changed.items.map((i: { title: string }) => i.title),
      ["Otter news 3"],
    );
    assert.equal(requests.at(-1)!.status, 200);
    assert.equal((await call("rss_list")).feeds.find((f: { id: string }) => f.id === otters).items, 3);
  });

  test("a malformed feed, a web page, a 404 and a non-http URL are refused as data, and nothing is subscribed", async () => {
    assert.equal((await call("rss_subscribe", { url: `${base}/broken.xml` })).error, "malformed_feed");
    assert.equal((await call("rss_subscribe", { url: `${base}/page.html` })).error, "not_a_feed");
    assert.deepEqual(await call("rss_subscribe", { url: `${base}/gone.xml` }).then((r) => [r.error, r.status]), ["http_status", 404]);
    assert.equal((await call("rss_subscribe", { url: "file:///etc/passwd" })).error, "bad_url");
    assert.equal((await call("rss_read", { feed: "f_nope" })).error, "feed_not_found");
    assert.equal((await call("rss_subscribe", { push: true })).error, "invalid_arguments");
    assert.equal((await call("rss_list")).feeds.length, 3);
  });

  test("nothing is pushed unless asked; with push on, a new item arrives as a ring event on the schedule", async () => {
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(events.length, 0, "no feed has push on yet");
    const otters = await call("rss_subscribe", { url: `${base}/otters.xml`, push: true });
    assert.equal(otters.already, true);
    assert.equal(otters.feed.push, true);
    items = [1, 2, 3, 4];
    const until = Date.now() + 5000;
    while (events.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.equal(events.length, 1);
    assert.deepEqual([events[0]!.type, events[0]!.feed, events[0]!.items.map((i) => i.title)], ["rss_items", otters.feed.id, ["Otter news 4"]]);
    const read = await call("rss_read", { feed: otters.feed.id, refresh: false });
    assert.deepEqual(
      read.items.map((i: { title: string }) => i.title),
      ["Otter news 4"],
      "a pushed item stays unread until read",
    );
  });

  test("a feed in ISO-8859-1 (declared in its XML prolog) reads as the same text", async () => {
    const latin = await call("rss_subscribe", { url: `${base}/latin1.xml` });
    assert.equal(latin.feed.title, "Café news");
    assert.deepEqual(
      (await call("rss_read", { feed: latin.feed.id, refresh: false })).items.map((i: { title: string }) => i.title),
      ["Crème brûlée"],
    );
    assert.deepEqual(await call("rss_unsubscribe", { feed: latin.feed.id }), { isError: false, unsubscribed: latin.feed.id });
  });

  test("unsubscribing forgets the feed", async () => {
    const { feeds } = await call("rss_list");
    assert.deepEqual(await call("rss_unsubscribe", { feed: feeds[1].id }), { isError: false, unsubscribed: feeds[1].id });
    assert.equal((await call("rss_unsubscribe", { feed: feeds[1].id })).error, "feed_not_found");
    assert.equal((await call("rss_list")).feeds.length, 2);
  });
});
