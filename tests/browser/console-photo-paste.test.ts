/**
 * A photo pasted into the console (issue 30's "done when"), in Chromium against a daemon whose
 * models folder holds a tiny Chinese-CLIP in the real export's layout (the files `homed model
 * pull chinese-clip-vit-b16` installs): the paste shows a thumbnail, Send carries the photo with
 * the text to the model as an image part, and the photo gets a CLIP vector — recall then finds
 * the turn by 猫, a word it never carried, through CLIP's space. A text paste stays text.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pngFile } from "../embed/images.ts";
import { TINY } from "../embed/tiny-clip-mirror.ts";
import { testDir } from "../support/temp-dir.ts";
import { addScriptedProvider, axeSerious, chromiumMissing, logIn, openConsole, type Console } from "./support.ts";

/** The tiny model as the pull leaves it, with an image tower that puts a red photo along "猫". */
function modelsFolder(): string {
  const dir = testDir("homed-paste-models-");
  mkdirSync(join(dir, "chinese-clip-vit-b16-onnx"));
  for (const [name, bytes] of Object.entries(TINY)) writeFileSync(join(dir, "chinese-clip-vit-b16-onnx", name), bytes);
  return dir;
}

const RED_PHOTO = Buffer.from(pngFile(64, 48, () => [250, 120, 100])).toString("base64");

describe("console: a pasted photo", { skip: chromiumMissing && "no /usr/bin/chromium" }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(() => ({ content: "noted" }), { env: { HOMED_MODELS: modelsFolder() } });
    await logIn(c);
    await addScriptedProvider(c);
  });
  after(async () => {
    await c?.close();
  });

  test("is shown, sent with the text as an image part, embedded by Chinese-CLIP and recalled by a word it never carried", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByLabel("New conversation with").fill("photos");
    await page.getByRole("button", { name: "Start", exact: true }).click();
    await page.getByRole("heading", { name: /^photos · photos · console$/, level: 2 }).waitFor();
    const box = page.getByLabel("Message");
    // A text paste is left to the box.
    await box.evaluate((el) => {
      const data = new DataTransfer();
      data.setData("text/plain", "typed");
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    assert.equal(await page.locator("ul.pasted").count(), 0);
    await box.evaluate((el, png) => {
      const bytes = Uint8Array.from(atob(png), (ch) => ch.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "cat.png", { type: "image/png" }));
      el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    }, RED_PHOTO);
    await page.getByRole("img", { name: "Pasted photo 1" }).waitFor();
    assert.deepEqual(await axeSerious(page), []);
    await box.fill("看这张");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("log").getByText("noted").waitFor();
    await page.getByRole("log").getByText("看这张 [image]").waitFor();
    assert.equal(await page.locator("ul.pasted").count(), 0, "the thumbnails go once sent");

    // The model got the text and the photo (re-encoded as JPEG) as one user message: the turn's
    // request, the first (a request naming the conversation may follow it).
    const sent = c.provider.requests[0]!.body.messages.at(-1) as { role: string; content: { type: string; text?: string; image_url?: { url: string } }[] };
    assert.equal(sent.role, "user");
    assert.deepEqual(
      sent.content.map((p) => p.type),
      ["text", "image_url"],
    );
    assert.match(sent.content[1]!.image_url!.url, /^data:image\/jpeg;base64,/);

    const headers = { authorization: `Bearer ${c.token}`, "content-type": "application/json" };
    const { embedder } = (await (await fetch(`${c.daemon.url}/api/memory/stats`, { headers })).json()) as { embedder: { modelId: string } };
    assert.equal(embedder.modelId, "chinese-clip-vit-b16@512");
    // The conversation deleted, its turns are cold memory, where recall searches.
    const { sessions } = (await (await fetch(`${c.daemon.url}/api/sessions`, { headers })).json()) as { sessions: { id: string; partner: string }[] };
    const id = sessions.find((s) => s.partner === "photos")!.id;
    assert.equal((await fetch(`${c.daemon.url}/api/sessions/${id}`, { method: "DELETE", headers })).status, 200);
    const recalled = (await (await fetch(`${c.daemon.url}/api/memory/tools/memory_recall`, { method: "POST", headers, body: JSON.stringify({ query: "猫", layers: ["L2"] }) })).json()) as {
      results: { text: string }[];
    };
    assert.match(recalled.results[0]?.text ?? "", /看这张/, JSON.stringify(recalled));
  });

  test("the message route takes only image data URLs, and a message needs text or a photo", async () => {
    const headers = { authorization: `Bearer ${c.token}`, "content-type": "application/json" };
    const { id } = (await (await fetch(`${c.daemon.url}/api/sessions`, { method: "POST", headers, body: JSON.stringify({ partner: "checks" }) })).json()) as { id: string };
    const send = (body: object) => fetch(`${c.daemon.url}/api/sessions/${id}/messages`, { method: "POST", headers, body: JSON.stringify(body) });
    const notImage = await send({ content: "x", images: [{ url: "data:text/plain;base64,AAAA" }] });
    assert.equal(notImage.status, 400);
    assert.match(((await notImage.json()) as { message: string }).message, /expected a data:image\/\(png\|jpeg\|webp\|gif\);base64 URL/);
    const empty = await send({ content: "" });
    assert.deepEqual([empty.status, ((await empty.json()) as { message: string }).message], [400, "content: content is empty (send some text, or images)"]);
  });
});
