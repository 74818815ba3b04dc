/**
 * A tool's image as an image block (issue 18 item 4, issue 19's browser_screenshot): the real
 * browser plugin takes a screenshot of a page served on loopback inside a real turn; the model
 * (a scripted OpenAI-compatible server recording requests) gets it as an image part in the next
 * call and in later turns' history, the store keeps it as an image block embedded by the image
 * model (tiny CLIP), and a text-only provider gets `[image]` in its place.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decode } from "fast-png";
import { builtinSpec } from "../../plugins/index.ts";
import { findChromium } from "../../plugins/browser/chromium.ts";
import { cosine, createClipEmbedder, readClipFolder, type ClipEmbedder } from "../../src/embed/index.ts";
import { pluginTools } from "../../src/kernel/index.ts";
import { createPluginHost, type PluginHost } from "../../src/plugins/index.ts";
import { SOURCE_HOMED } from "../support/process.ts";
import { tinyClipCopy } from "../embed/tiny-clip.ts";
import { kernelHarness, type Harness } from "./support.ts";

const PAGE = `<!doctype html><html><head><title>Banner</title><style>body{margin:0;background:#fff} #b{width:640px;height:400px;background:#ff0000}</style></head><body><div id="b"></div></body></html>`;

const imageParts = (body: any) => body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content.filter((p: any) => p.type === "image_url") : []));

describe("a tool's image in a real turn", { skip: findChromium() ? false : "no Chromium on this machine" }, () => {
  let server: Server;
  let host: PluginHost;
  let h: Harness;
  let clip: ClipEmbedder;
  before(async () => {
    server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(PAGE));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    host = createPluginHost([builtinSpec("browser", SOURCE_HOMED, { timeoutMs: 5000, width: 640, height: 400 })], { graceMs: 2000 });
    clip = await createClipEmbedder(readClipFolder(tinyClipCopy("fp32")));
    await host.start();
    h = await kernelHarness(
      [
        { toolCalls: [{ id: "c1", name: "browser_open", arguments: JSON.stringify({ url }) }] },
        { toolCalls: [{ id: "c2", name: "browser_screenshot", arguments: "{}" }] },
        { content: "a red banner" },
        { content: "it was red" },
        { content: "text only" },
      ],
      { embedder: clip },
      { overHttp: true },
    );
    h.kernel.tools.addSource(pluginTools(host));
  });
  after(async () => {
    await h?.close();
    await host?.stopAll();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  test("the screenshot reaches the model as an image part, is stored as an embedded image block, and stays in history", async () => {
    const session = await h.kernel.sessions.open("chat", "ann");
    const events: any[] = [];
    const result = await h.kernel.turn({ session, input: "what colour is the banner?", onEvent: (e) => events.push(e) });
    assert.equal(result.text, "a red banner");

    const third = h.provider.requests[2]!.body;
    const tool = third.messages.find((m: any) => m.role === "tool" && m.tool_call_id === "c2");
    assert.match(tool.content, /^\[image image\/png, \d+ bytes: shown after the tool results\]/);
    const last = third.messages.at(-1);
    assert.equal(last.role, "user");
    assert.equal(last.content[0].text, "[Images returned by the tool calls above, not sent by the user — browser_screenshot (call c2): 1 image]");
    const [part] = imageParts(third);
    const url: string = part.image_url.url;
    assert.ok(url.startsWith("data:image/png;base64,"));
    const png = Buffer.from(url.slice("data:image/png;base64,".length), "base64");
    const pixels = decode(png);
    assert.deepEqual([pixels.width, pixels.height], [640, 400]);
    assert.deepEqual([...pixels.data.slice(0, 3)], [255, 0, 0], "the page's red banner, not a placeholder");
    assert.deepEqual(
      events.filter((e) => e.type === "tool_result").map((e) => e.images),
      [undefined, 1],
    );

    const blocks = await h.store.client.execute("SELECT content, embed_model, embedding FROM blocks WHERE kind = 'image'");
    assert.equal(blocks.rows.length, 1);
    assert.equal(blocks.rows[0]!.content, url);
    assert.equal(blocks.rows[0]!.embed_model, clip.modelId);
    const stored = new Float32Array(new Uint8Array(blocks.rows[0]!.embedding as ArrayBuffer).slice().buffer);
    const [expected] = await clip.embedImages!([new Uint8Array(png)]);
    assert.ok(cosine(stored, expected!) > 0.999, "embedded by the image model, in the text space recall searches");

    await h.kernel.turn({ session, input: "and what was it?" });
    assert.deepEqual(imageParts(h.provider.requests[3]!.body), [part], "the next turn's history still shows it");
  });

  test("a provider marked text-only gets [image] in the image's place", async () => {
    const textOnly = await h.kernel.providers.save({ name: "text-only", baseUrl: h.provider.url, model: "scripted-model", vision: false });
    const session = await h.kernel.sessions.open("chat", "ann");
    await h.kernel.turn({ session, input: "anything else?", provider: textOnly.id });
    const body = h.provider.requests[4]!.body;
    assert.deepEqual(imageParts(body), []);
    const shown = body.messages.find((m: any) => Array.isArray(m.content) && m.content[0]?.text?.startsWith("[Images returned"));
    assert.deepEqual(shown.content[1], { type: "text", text: "[image]" });
  });
});
