/**
 * Proactive turns end to end (issue 29): a real daemon from source with the calendar and rss
 * plugins, its model a scripted provider, QQ through the scripted OneBot 11 peer. A reminder due
 * in 2 s, set from a QQ private chat, wakes a turn whose answer reaches that person as a private
 * message; a followed feed (served on loopback) with 3 new items wakes ONE turn that sees all
 * three, streamed to /api/proactive/events; a check with nothing new wakes none, nor does a
 * restart (what was told is remembered); a muted source wakes nothing.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSse } from "../../src/cli/sse.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { ScriptedOneBot, textOf, TOKEN } from "../support/onebot-peer.ts";
import { until } from "../support/process.ts";
import { startScriptedProvider, type ReceivedRequest, type ScriptedProvider, type Step } from "../support/scripted-provider.ts";
import { tempDir, type TempDir } from "../support/temp-dir.ts";

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const userText = (r: ReceivedRequest): string => {
  const content = [...r.body.messages].reverse().find((m: any) => m.role === "user")?.content;
  return typeof content === "string" ? content : (content ?? []).map((p: any) => p.text ?? "").join("");
};
const woken = (r: ReceivedRequest) => userText(r).startsWith("[homed: woken");
const system = (r: ReceivedRequest) => String(r.body.messages[0]?.content ?? "");

/** "TOOL <name> <json>": the model calls that tool; a woken turn says what woke it. */
function script(r: ReceivedRequest, n: number): Step {
  const last = r.body.messages.at(-1);
  if (last?.role === "tool") return { content: `tool said: ${last.content}` };
  if (woken(r)) {
    const reminder = /"type":"calendar_reminder".*?"summary":"([^"]+)"/.exec(system(r));
    if (reminder) return { content: `Time to ${reminder[1]}!` };
    const titles = [...system(r).matchAll(/"title":"(Item \d+)"/g)].map((m) => m[1]);
    return { content: `News: ${titles.join(", ")}` };
  }
  const asked = /TOOL (\S+) (\{.*\})/s.exec(userText(r));
  if (asked) return { toolCalls: [{ id: `call_${n}`, name: asked[1]!, arguments: asked[2]! }] };
  return { content: `echo: ${userText(r)}` };
}

/** An RSS 2.0 feed whose items the test sets. */
function rss(items: number[]): string {
  const entries = items.map(
    (i) => `<item><title>Item ${i}</title><link>http://127.0.0.1/item/${i}</link><guid>item-${i}</guid><pubDate>${new Date(Date.UTC(2026, 0, i)).toUTCString()}</pubDate></item>`,
  );
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Loopback News</title><link>http://127.0.0.1/</link><description>t</description>${entries.join("")}</channel></rss>`;
}

describe("proactive turns in the daemon: reminders over QQ, batched feeds, mutes", () => {
  let dir: TempDir;
  let provider: ScriptedProvider;
  let bot: ScriptedOneBot;
  let daemon: ApiDaemon;
  let feed: Server;
  let items = [1, 2];
  const wokenRequests = () => provider.requests.filter(woken);

  before(async () => {
    dir = tempDir("homed-proactive-");
    provider = await startScriptedProvider(script);
    bot = await ScriptedOneBot.start();
    feed = createServer((_, res) => res.writeHead(200, { "content-type": "application/rss+xml" }).end(rss(items)));
    await new Promise<void>((r) => feed.listen(0, "127.0.0.1", r));
    const qq = { enabled: true, url: bot.url, accessToken: TOKEN, partners: { "12345": "alice" }, maxBackoffMs: 1000 };
    writeFileSync(join(dir.path, "homed.json"), JSON.stringify({ channels: { qq }, plugins: { enabled: ["calendar", "rss"] }, proactive: { feedIntervalSeconds: 1 } }));
    daemon = await startApiDaemon(dir.path, provider.url);
    await until(() => bot.connections.length > 0, "homed's QQ connection");
    await until(() => /plugins: .*calendar running.*rss running|plugins: .*rss running.*calendar running/.test(daemon.stderr()), "the plugins");
  });
  after(async () => {
    await daemon?.stop();
    await bot?.close();
    await provider?.close();
    await new Promise((r) => feed?.close(r));
    dir?.remove();
  });

  test("a reminder due in 2 s, set in a QQ private chat, wakes a turn whose answer comes as a private message", async () => {
    const start = new Date(Date.now() + 2000).toISOString().replace(/\.\d+Z$/, "Z");
    const since = bot.actions.length;
    const args = JSON.stringify({ summary: "stretch", start, durationMinutes: 5, remindMinutesBefore: 0 });
    bot.message({ message_type: "private", user_id: 12345, message: [{ type: "text", data: { text: `remind me: TOOL calendar_create ${args}` } }] });
    const confirmed = await bot.nextAction(since);
    assert.match(textOf(confirmed.params.message), /tool said: .*"remindMinutesBefore":0/);
    const reminder = await bot.nextAction(since + 1, 20_000);
    assert.equal(reminder.action, "send_private_msg");
    assert.equal(reminder.params.user_id, 12345, "to the person whose chat set it (partners maps 12345 to alice)");
    assert.equal(textOf(reminder.params.message), "Time to stretch!");
    assert.ok(Date.now() >= Date.parse(start), "not before its time");
    await until(() => /woken answer delivered to qq/.test(daemon.stderr()), "the delivery in the log", 10_000);
  });

  test("a followed feed's 3 new items wake ONE turn, streamed to an open console; no new items, no turn, even after a restart", async () => {
    const session = await daemon.openSession("reader");
    assert.equal((await fetch(`${daemon.url}/api/proactive/events`)).status, 401, "authenticated like the rest of /api");
    const listening = new AbortController();
    const stream = await fetch(`${daemon.url}/api/proactive/events`, { headers: daemon.headers, signal: listening.signal });
    assert.equal(stream.status, 200);
    assert.match(stream.headers.get("content-type") ?? "", /text\/event-stream/);
    const seen: any[] = [];
    void (async () => {
      for await (const { event, data } of readSse(stream.body!)) if (event === "woken") seen.push(JSON.parse(data));
    })().catch(() => {});
    await daemon.send(session, `TOOL rss_subscribe {"url":"http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.xml","push":true}`);
    await settle(2500);
    assert.equal(wokenRequests().filter((r) => system(r).includes("rss_items")).length, 0, "what the feed held when subscribed is not news");
    items = [1, 2, 3, 4, 5];
    await until(() => seen.length > 0, "the woken answer on the stream", 20_000);
    await settle(6500); // more checks (one a second) with nothing new, past the 5 s wake interval
    const turns = wokenRequests().filter((r) => system(r).includes("rss_items"));
    assert.equal(turns.length, 1, "one batched turn");
    for (const title of ["Item 3", "Item 4", "Item 5"]) assert.ok(system(turns[0]!).includes(title), `${title} in the turn`);
    assert.equal(seen.length, 1);
    assert.deepEqual([seen[0].sessionId, seen[0].text, seen[0].source], [session, "News: Item 5, Item 4, Item 3", { kind: "feed", plugin: "rss" }]);
    assert.equal(seen[0].session.partner, "reader");
    // An open stream does not hold the stop (it ends with it, not after the 4 s grace).
    const stop = await daemon.stop();
    listening.abort();
    assert.equal(stop.code, 0);
    assert.ok(stop.ms < 3000, `stopped in ${stop.ms} ms with a stream open`);
    daemon = await startApiDaemon(dir.path, provider.url);
    await until(() => /rss running/.test(daemon.stderr()), "the rss plugin after the restart");
    await settle(3000);
    assert.equal(wokenRequests().filter((r) => system(r).includes("rss_items")).length, 1, "a restart does not tell the items again");
  });

  test("a muted source wakes nothing; its items wait for the session's next turn", async () => {
    const put = (body: object) => fetch(`${daemon.url}/api/proactive/mutes`, { method: "PUT", headers: daemon.headers, body: JSON.stringify(body) });
    const muted = await put({ kind: "source", name: "rss", muted: true });
    assert.deepEqual(await muted.json(), { sources: ["rss"], sessions: [] });
    const before = wokenRequests().length;
    items = [1, 2, 3, 4, 5, 6, 7];
    await until(() => /plugin rss pushed rss_items .*: plugin rss is muted/.test(daemon.stderr()), "the muted push", 20_000);
    await settle(1500);
    assert.equal(wokenRequests().length, before, "no turn woken");
    assert.equal((await put({ kind: "session", name: "no-such-session", muted: true })).status, 404);
    assert.deepEqual(await (await fetch(`${daemon.url}/api/proactive/mutes`, { headers: daemon.headers })).json(), { sources: ["rss"], sessions: [] });
  });
});
