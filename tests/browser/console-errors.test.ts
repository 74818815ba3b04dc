/**
 * The daemon's errors in the reader's language, in Chromium against a daemon from source: the
 * API answers {error: CODE, message}; the console says a known code in Chinese (or English),
 * keeps the daemon's words after it where they carry the details, and says a code it does not
 * know as a general sentence in Chinese, the daemon's words one click away. The unknown code and the missing conversation are answered by
 * page.route (a newer daemon's code; a conversation gone between list and rename), the
 * duplicate key by the daemon itself.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chromiumMissing, openConsole, type Console } from "./support.ts";

describe("daemon errors in the reader's language in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(() => ({ content: "ok" }), { locale: "zh-CN" });
    const { page } = c;
    await page.goto(c.daemon.url);
    await page.getByLabel("管理员令牌").fill(c.token);
    await page.getByRole("button", { name: "登录" }).click();
    await page.getByRole("navigation", { name: "控制台" }).waitFor();
  });
  after(async () => {
    await c?.close();
  });

  const made = (name: string) =>
    fetch(`${c.daemon.url}/api/keys`, { method: "POST", headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" }, body: JSON.stringify({ name }) });

  test("a known code is said in Chinese, with the daemon's details after it", async () => {
    const { page } = c;
    assert.equal((await made("dup")).status, 201);
    await page.goto(`${c.daemon.url}/#/keys`);
    await page.getByLabel("名称").fill("dup");
    await page.getByRole("button", { name: "创建", exact: true }).click();
    const alert = page.getByRole("alert");
    await alert.getByText("已有同名的密钥：").waitFor();
    assert.match(await alert.innerText(), /^已有同名的密钥：Cannot create the key 'dup': a key with that name exists/);
  });

  test("a code whose message adds nothing is said in Chinese alone", async () => {
    const { page } = c;
    const { id } = (await (
      await fetch(`${c.daemon.url}/api/sessions`, { method: "POST", headers: { authorization: `Bearer ${c.token}`, "content-type": "application/json" }, body: JSON.stringify({ partner: "alice" }) })
    ).json()) as { id: string };
    await page.route(`**/api/sessions/${id}`, (route) =>
      route.request().method() === "PATCH"
        ? route.fulfill({ status: 404, contentType: "application/json", body: JSON.stringify({ error: "session_not_found", message: `No session with id ${id}` }) })
        : route.fallback(),
    );
    await page.goto(`${c.daemon.url}/#/chat/${id}`);
    await page.getByRole("button", { name: "重命名" }).click();
    await page.getByLabel("名称").fill("x");
    await page.getByRole("button", { name: "保存" }).click();
    assert.equal(await page.getByRole("alert").innerText(), "这个对话已不存在");
    await page.unroute(`**/api/sessions/${id}`);
  });

  test("a code the console does not know is a sentence in the reader's language, the daemon's words one click away", async () => {
    const { page } = c;
    await page.route("**/api/keys", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ error: "brand_new", message: "A newer daemon's reason" }) })
        : route.fallback(),
    );
    await page.goto(`${c.daemon.url}/#/keys`);
    await page.getByLabel("名称").fill("other");
    await page.getByRole("button", { name: "创建", exact: true }).click();
    const alert = page.getByRole("alert");
    assert.equal(await alert.locator("p").innerText(), "homed 没能完成这一步。");
    await alert.locator("summary").click();
    assert.equal(await alert.locator("code").innerText(), "A newer daemon's reason");
    await page.unroute("**/api/keys");
  });
});
