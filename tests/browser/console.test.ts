/**
 * The console in real headless Chromium against a daemon from source and a scripted provider:
 * first run and login, providers, streaming chat with tool steps and the recall line (a stopped
 * answer says so after a reload too), memory
 * search and delete, the context inspector, audit, doctor, plugins, charts; every page at
 * 1280×800 and at a phone width, reachable by keyboard, and nothing loaded from elsewhere.
 */
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { writeFact } from "../../src/memory/index.ts";
import { openStore } from "../../src/store/index.ts";
import type { Script } from "../support/scripted-provider.ts";
import { chromiumMissing, logIn, openConsole, PHONE, DESKTOP, screenshot, type Console } from "./support.ts";

const SECRET_KEY = "sk-browser-test-secret-4242";

const script: Script = ({ body }) => {
  if (body.model === "bad-model") {
    return { status: 401, body: JSON.stringify({ error: { message: "Incorrect API key provided: sk-wr***", type: "invalid_request_error" } }) };
  }
  if (!body.stream) return { content: "ok" };
  const last = body.messages.at(-1);
  if (last.role === "tool") return { content: "Your boat is blue, as you told me before.", delayMs: 400 };
  if (/long story/.test(String(last.content))) return { content: "Once upon a time, far away, there was a boat.", delayMs: 1500 };
  if (/boat/.test(String(last.content))) return { toolCalls: [{ id: "call_1", name: "lookup", arguments: JSON.stringify({ q: "boat" }) }] };
  return { content: "Hello." };
};

const history = [
  { conversation: "alice", session: "old-1", time: "2026-01-05T10:00:00Z", speaker: "alice", role: "user", text: "My harbour boat is painted blue.", id: "m1" },
  { conversation: "alice", session: "old-1", time: "2026-01-05T10:01:00Z", speaker: "homed", role: "assistant", text: "Noted, a blue harbour boat.", id: "m2" },
];

const ROUTES = ["chat", "providers", "memory", "context", "scenes", "audit", "plugins", "doctor"];

/** Tabs through the page and returns the names of everything that took focus. */
async function tabStops(page: Page, max = 60): Promise<string[]> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    seen.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return (el?.getAttribute("aria-label") || el?.textContent || el?.id || "").trim();
      }),
    );
  }
  return seen;
}

describe("web console in Chromium", { skip: chromiumMissing ? "no /usr/bin/chromium" : false }, () => {
  let c: Console;
  before(async () => {
    c = await openConsole(script, { history });
  });
  after(async () => {
    await c?.close();
  });

  test("first run: the page says where the token is; a wrong token is refused; the right one logs in", async () => {
    const { page } = c;
    const first = await page.goto(c.daemon.url);
    assert.match(first!.headers()["content-security-policy"] ?? "", /default-src 'self'/);
    await page.getByText(join(c.dataDir, "admin.token")).first().waitFor();
    await page.getByText("homed token reset -data DIR").waitFor();
    await screenshot(page, "login");
    await page.getByLabel("Admin token").fill("not-the-token");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.getByRole("alert").getByText("That is not the admin token").waitFor();
    await logIn(c);
    const cookies = await c.context.cookies();
    const session = cookies.find((k) => k.name === "homed_session")!;
    assert.equal(session.httpOnly, true);
    assert.equal(session.sameSite, "Strict");
    assert.equal(await page.evaluate(() => document.cookie), "", "scripts cannot read the session cookie");
  });

  test("a mutating request without the console's header is refused even with the cookie", async () => {
    const status = await c.page.evaluate(async () => {
      const r = await fetch("/api/sessions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ partner: "mallory" }) });
      return r.status;
    });
    assert.equal(status, 403);
  });

  test("providers: add from the form with a write-only key; test connection shows latency, or the error verbatim", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/providers`);
    await page.getByLabel("Preset").selectOption("ollama");
    assert.equal(await page.getByLabel("Base URL").inputValue(), "http://127.0.0.1:11434/v1");
    await page.getByLabel("Name").fill("Scripted");
    await page.getByLabel("Base URL").fill(c.provider.url);
    await page.getByLabel("Model").fill("bad-model");
    await page.getByLabel("API key").fill(SECRET_KEY);
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByText("Incorrect API key provided: sk-wr***").first().waitFor();
    await page.getByText(/Failed after \d+ ms: HTTP 401/).waitFor();
    await page.getByLabel("Model").fill("scripted-model");
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByText(/Connected in \d+ ms — scripted-model replied: "ok"/).waitFor();
    // The scripted provider's model list gives no window, and the table does not know the model.
    await page.getByText(/Context window: unknown — recall injects its standard amount/).waitFor();
    await page.getByLabel("Context window in tokens (optional)").fill("65536");
    await page.getByRole("button", { name: "Add provider" }).click();
    const row = page.locator("tr[data-provider=Scripted]");
    await row.getByText("active").waitFor();
    assert.match(await row.innerText(), /set/);
    assert.ok(!(await page.content()).includes(SECRET_KEY), "the key never comes back to the page");
    const stored = (await (await fetch(`${c.daemon.url}/api/providers`, { headers: { authorization: `Bearer ${c.token}` } })).json()) as { providers: { name: string; contextWindow?: number }[] };
    assert.equal(stored.providers.find((p) => p.name === "Scripted")?.contextWindow, 65_536, "the window is stored as a number");
    await row.getByRole("button", { name: "Edit" }).click();
    assert.equal(await page.getByLabel("API key").inputValue(), "");
    assert.equal(await page.getByLabel("Context window in tokens (optional)").inputValue(), "65536");
    await page.getByRole("button", { name: "Test connection" }).click();
    await page.getByText(/Connected in \d+ ms/).waitFor();
    await page.getByText("Context window: 65,536 tokens, as set here.").waitFor();
    assert.equal(c.provider.requests.at(-1)!.headers.authorization, `Bearer ${SECRET_KEY}`, "a saved provider is tested with its stored key");
    await screenshot(page, "providers");
  });

  test("chat: the answer streams in, the tool call is a collapsible step, the recall line expands to query and ids", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByLabel("New conversation with").fill("alice");
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByLabel("Message").waitFor();
    await page.getByLabel("Message").fill("What colour is my boat?");
    await page.getByLabel("Message").press("Control+Enter");
    // Mid-stream: part of the answer is on screen while the turn is still running.
    await page.locator(".msg.streaming .answer").filter({ hasText: /\S/ }).waitFor();
    await page.locator(".msg.assistant:not(.streaming) .answer").getByText("Your boat is blue, as you told me before.").waitFor();
    const step = page.locator("details.step.tool");
    assert.match(await step.locator("summary").innerText(), /tool · lookup/);
    assert.equal(await step.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await step.locator("summary").click();
    assert.match(await step.locator(".args").innerText(), /"q":"boat"/);
    assert.match(await step.locator(".result").innerText(), /unknown_tool/);

    const recall = page.locator("details.recall");
    assert.match(await recall.locator("summary").innerText(), /^remembered [1-9]\d* things? \([1-9][\d,]* characters\)$/);
    await recall.locator("summary").press("Enter");
    assert.match(await recall.innerText(), /looked for: .*What colour is my boat\?/);
    assert.match(await recall.locator(".lines").innerText(), /\(id:\w+\) .*My harbour boat is painted blue\./);
    await screenshot(page, "chat");
    // After a reload the turn keeps its recall line, in its place after the question, ids one click away.
    const ids = await recall.locator(".ids").innerText();
    await page.reload();
    const kept = page.locator(".log details.recall");
    await kept.waitFor();
    assert.equal(await kept.evaluate((d) => d.previousElementSibling?.querySelector("p")?.textContent), "What colour is my boat?");
    assert.match(await kept.locator("summary").innerText(), /^remembered [1-9]\d* things? \([1-9][\d,]* characters\)$/);
    await kept.locator("summary").click();
    assert.match(await kept.innerText(), /looked for: .*What colour is my boat\?/);
    assert.equal(await kept.locator(".ids").innerText(), ids);
    // A second turn in the same situation makes it a scene.
    await page.getByLabel("Message").fill("Thanks!");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".msg.assistant:not(.streaming) .answer").getByText("Hello.").waitFor();
  });

  test("chat: Stop cancels a streaming answer and keeps what was said", async () => {
    const { page } = c;
    await page.getByLabel("Message").fill("Tell me a long story");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".msg.streaming .answer").filter({ hasText: /\S/ }).waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    const box = page.locator(".msg.assistant").last();
    await box.getByText("(stopped)").waitFor();
    const said = await box.locator(".answer").innerText();
    assert.ok(said.length > 0 && "Once upon a time, far away, there was a boat.".startsWith(said) && said.length < 45, said);
    assert.equal(await page.getByRole("button", { name: "Stop" }).isHidden(), true);
  });

  test("chat: a stopped answer still says (stopped) after a reload", async () => {
    const { page } = c;
    const said = await page.locator(".msg.assistant").last().locator(".answer").innerText();
    // The daemon writes what was said once it sees the client go: reloaded until it has.
    for (let i = 0; i < 20; i++) {
      await page.reload();
      await page.locator(".msg.user").getByText("Tell me a long story").waitFor();
      if ((await page.locator(".msg.assistant").getByText("(stopped)").count()) > 0) break;
      await page.waitForTimeout(250);
    }
    const box = page.locator(".msg.assistant").last();
    await box.getByText("(stopped)").waitFor({ timeout: 1000 });
    assert.equal(await box.locator(".answer").innerText(), said);
    assert.equal(await page.locator(".msg.assistant").getByText("(stopped)").count(), 1, "only the stopped answer says so");
  });

  test("memory: totals, search across layers, delete is confirmed, immediate and audited; history import shows progress", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/memory`);
    await page.locator("[data-stat='L2 cold'] strong").getByText("2").waitFor();
    await page.locator("[data-stat=Embedder]").waitFor();
    await page.locator("[data-stat=Storage]").getByText(/KB|MB/).waitFor();
    await page.getByRole("searchbox", { name: "Search" }).fill("painted");
    await page.getByLabel("Layer").selectOption("L2");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    // Ranked results carry a score; the unranked list shown on load does not.
    const record = page
      .locator("li.record")
      .filter({ hasText: "My harbour boat is painted blue." })
      .filter({ hasText: /score \d/ });
    await record.waitFor();
    assert.match(await record.innerText(), /source message m1/);
    assert.match(await record.innerText(), /score \d/);
    await screenshot(page, "memory");
    const id = await record.getAttribute("data-id");
    let asked = "";
    page.once("dialog", (d) => ((asked = d.message()), void d.accept()));
    await record.getByRole("button", { name: /Delete memory/ }).click();
    await page
      .getByText(`Deleted ${id}.`)
      .or(page.getByText(`Cannot delete ${id}`))
      .waitFor();
    assert.equal(await page.getByText(`Deleted ${id}.`).count(), 1, await page.locator("main").innerText());
    assert.match(asked, /Delete this memory for good\?/);
    await Promise.all([page.waitForResponse((r) => r.url().includes("/api/memory/search")), page.getByRole("button", { name: "Search", exact: true }).click()]);
    // The new results replace the list (and the "Deleted" notice in it).
    await page.getByText(`Deleted ${id}.`).waitFor({ state: "detached" });
    assert.equal(await page.locator(`li.record[data-id="${id}"]`).count(), 0);
    await page.locator("[data-stat='L2 cold'] strong").getByText("1").waitFor();
    const logs = readdirSync(join(c.dataDir, "logs"))
      .map((f) => readFileSync(join(c.dataDir, "logs", f), "utf8"))
      .join("");
    assert.match(logs, new RegExp(`audit: console deleted memory ${id}`));

    const lines = [
      { conversation: "bob", session: "b1", time: "2026-03-01T08:00:00Z", speaker: "bob", role: "user", text: "The allotment key hangs by the door.", id: "b1" },
      { conversation: "bob", session: "b1", time: "2026-03-01T08:01:00Z", speaker: "bob", role: "user", text: "Water the tomatoes on Sundays.", id: "b2" },
    ];
    await page
      .getByLabel("History file (JSON Lines, ChatGPT or Claude export)")
      .setInputFiles({ name: "bob.jsonl", mimeType: "application/x-ndjson", buffer: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n")) });
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page.getByText("Imported bob.jsonl: 2 added, 0 already present, 0 invalid skipped.").waitFor();
    assert.equal(await page.getByRole("progressbar", { name: "Import progress" }).evaluate((p: HTMLProgressElement) => p.value === p.max && p.max === 2), true);
    await page.locator("[data-stat='L2 cold'] strong").getByText("3").waitFor();
  });

  test("memory: a fact shows its verified evidence and its revision history as a diff", async () => {
    const { page } = c;
    const store = await openStore({ url: `file:${join(c.dataDir, "homed.db")}` });
    try {
      const source = (await store.client.execute("SELECT id, session_id, text FROM events WHERE source_id = 'm2'")).rows[0]!;
      const write = async (object: string, kind: "preference" | "correction") => {
        const tx = await store.client.transaction("write");
        await writeFact(tx, {
          subject: "alice",
          predicate: "boat colour",
          object,
          kind,
          scope: "alice",
          confidence: 0.9,
          importance: 0.5,
          evidence: "verbatim",
          source: { session: String(source.session_id), turn: 1, eventId: String(source.id), text: String(source.text) },
        });
        await tx.commit();
      };
      await write("blue", "preference");
      await write("green", "correction");
    } finally {
      store.close();
    }
    await page.goto(`${c.daemon.url}/#/memory`);
    await page.reload(); // the page may already be showing #/memory from before the facts existed
    await page.locator("[data-stat='L3 facts'] strong").getByText("1").waitFor();
    await page.getByRole("searchbox", { name: "Search" }).fill("boat colour");
    await page.getByLabel("Layer").selectOption("L3");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const fact = page.locator("li.record[data-layer=L3]").filter({ hasText: "alice boat colour green" });
    await fact.waitFor();
    assert.match(await fact.innerText(), /evidence verbatim · confidence 0\.9 · revision 2/);
    await fact.getByText("evidence and history").click();
    await fact.locator(".evidence-check").getByText("evidence check: verified").waitFor();
    const diff = await fact.locator("li[data-revision='1']").innerText();
    assert.match(diff, /object: "blue" → "green"/);
    assert.match(diff, /kind: "preference" → "correction"/);
    await screenshot(page, "memory-fact");
  });

  test("context inspector: budget bar, each live event with tokens, score and pin; charts render", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/context`);
    await page.getByRole("meter", { name: "Budget use" }).waitFor();
    // Numbers are written the reader's way: 1,588 in English.
    assert.match(await page.locator(".tool-tokens").innerText(), /Tool definitions take [1-9][\d,]* tokens of every request/);
    const rows = page.locator("table.events tbody tr");
    assert.ok((await rows.count()) >= 3);
    assert.match(await rows.first().innerText(), /\d+\s+\d\.\d{3}\s+pinned/);
    await page.getByText(/Relevance to the latest message|Scores: relevance/).waitFor();
    await page.locator("figure.chart canvas").first().waitFor();
    const inked = await page
      .locator("figure.chart canvas")
      .first()
      .evaluate((canvas: HTMLCanvasElement) => {
        const data = canvas.getContext("2d")!.getImageData(0, 0, canvas.width, canvas.height).data;
        let n = 0;
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
        return n;
      });
    assert.ok(inked > 100, `the chart drew ${inked} pixels`);
    await screenshot(page, "context");
  });

  test("recall audit lists the turn; doctor runs the deep check; plugins page answers", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/audit`);
    await page.getByRole("cell", { name: "What colour is my boat?" }).first().waitFor();
    await page.locator("figure.chart canvas").waitFor();
    await page.getByRole("button", { name: "Measure recall latency" }).click();
    await page
      .locator(".latency-stats")
      .getByText(/\d+ queries · p50 [\d.]+ ms · p95 [\d.]+ ms/)
      .waitFor();
    // Charts draw on the next animation frame: wait for the latency chart's canvas, don't count too early.
    await page.locator("figure.chart canvas").nth(1).waitFor();
    await screenshot(page, "audit");
    await page.goto(`${c.daemon.url}/#/doctor`);
    await page.getByText(/The daemon answers and its store responds — homed \d+\.\d+/).waitFor();
    await page.getByRole("button", { name: "Run deep check" }).click();
    await page.locator(".checks li").first().waitFor({ timeout: 60_000 });
    assert.ok((await page.locator(".checks li.ok").count()) >= 3);
    await screenshot(page, "doctor");
    await page.goto(`${c.daemon.url}/#/plugins`);
    await page.locator("main h1", { hasText: "Plugins" }).waitFor();
    await page.locator("main .notice, main li.plugin").first().waitFor();
    await screenshot(page, "plugins");
  });

  test("scenes: the recurring situation is listed with its strength, and the fade is drawn", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/scenes`);
    const row = page.locator("tr[data-scene]").first();
    await row.waitFor();
    assert.match(await row.innerText(), /recognised\s+2\s+\d+\.\d\d/);
    // Named in words as written (the newest turn, "Thanks!"), not stems ("thank") or its id; the id is one click away.
    assert.equal(await row.locator(".scene-name").innerText(), "alice · console · Thanks");
    await row.getByText("id", { exact: true }).click();
    assert.match(await row.locator(".scene-id code").innerText(), /^fp:[0-9a-f-]{36}$/);
    await page.locator("figure.chart canvas").waitFor();
    await screenshot(page, "scenes");
  });

  test("keyboard reaches every main action", async () => {
    const { page } = c;
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.getByLabel("Message").waitFor();
    const chat = await tabStops(page);
    for (const name of ["Chat", "Providers", "Memory", "Context", "Scenes", "Recall audit", "Plugins", "Doctor", "Log out", "Start", "Send"]) {
      assert.ok(chat.includes(name), `Tab never reaches "${name}" on the chat page: ${JSON.stringify(chat)}`);
    }
    await page.goto(`${c.daemon.url}/#/providers`);
    await page.getByRole("button", { name: "Add provider" }).waitFor();
    const providers = await tabStops(page);
    for (const name of ["Edit", "Add provider", "Test connection"]) assert.ok(providers.includes(name), `providers: "${name}" unreachable`);
    await page.goto(`${c.daemon.url}/#/memory`);
    await page.locator("li.record").first().waitFor();
    const memory = await tabStops(page, 40);
    assert.ok(memory.includes("Search"), "memory: Search unreachable");
    assert.ok(
      memory.some((n) => n.startsWith("Delete memory")),
      "memory: Delete unreachable",
    );
  });

  test("every page fits a phone and 1280×800 without sideways scrolling", async () => {
    const { page } = c;
    for (const [label, size] of [
      ["phone", PHONE],
      ["desktop", DESKTOP],
    ] as const) {
      await page.setViewportSize(size);
      for (const route of ROUTES) {
        await page.goto(`${c.daemon.url}/#/${route}`);
        await page.locator("main h1").first().waitFor();
        await page.waitForLoadState("networkidle");
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `${route} at ${label} width scrolls sideways by ${overflow}px`);
        await screenshot(page, `${route}-${label}`);
      }
    }
  });

  test("nothing was requested from anywhere but the daemon", () => {
    assert.ok(c.requests.length > 20);
    const outside = c.requests.filter((u) => !u.startsWith(`${c.daemon.url}/`) && !/^(data|blob):/.test(u));
    assert.deepEqual(outside, []);
  });

  test("neither the API key nor the admin token ever reached the daemon's log", () => {
    const logs =
      readdirSync(join(c.dataDir, "logs"))
        .map((f) => readFileSync(join(c.dataDir, "logs", f), "utf8"))
        .join("") + c.daemon.stderr();
    assert.ok(logs.includes("listening on"), "the log was read");
    assert.ok(!logs.includes(SECRET_KEY), "the provider key is in the log");
    assert.ok(!logs.includes(c.token), "the admin token is in the log");
  });
});
