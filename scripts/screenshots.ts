/**
 * The console's screenshots for the docs: `bun scripts/screenshots.ts` starts a real daemon in
 * a temporary folder with a scripted model (tests/support/scripted-provider.ts, on 127.0.0.1),
 * imports a little history, notes a few facts, chats twice, and photographs the Chat, Memory and
 * Providers pages in Debian's Chromium at 1280 px, in English and in Chinese (each language with
 * its own daemon and words), and the chat once on a phone (390 px). It writes
 * docs/screenshots/{chat,memory,providers}-{en,zh-CN}.png and chat-phone-en.png, and says each
 * file's size: each is kept under 200 KB (a shot over it fails the run).
 *
 * The Chinese shots need a Chinese font, which a bare Debian has not: install one
 * (`apt-get install fonts-wqy-microhei`), or give a folder holding one as
 * HOMED_SCREENSHOT_FONTS=DIR (Chromium then finds it through a fontconfig file of this run's own,
 * nothing installed). Without either the run stops before drawing boxes for characters.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "../tests/support/process.ts";
import type { ReceivedRequest, Step } from "../tests/support/scripted-provider.ts";
import { logIn, openConsole, PHONE } from "../tests/browser/support.ts";
import { tempDir } from "../tests/support/temp-dir.ts";

const OUT = join(ROOT, "docs/screenshots");
const MAX_BYTES = 200 * 1024;

type Language = "en" | "zh-CN";

/** What each language's run says: its history, facts, questions and the scripted model's answers. */
const WORDS: Record<
  Language,
  {
    history: { speaker: string; role: "user" | "assistant"; text: string }[];
    facts: { subject: string; predicate: string; object: string; kind: string }[];
    turns: { ask: string; answer: string }[];
    title: string;
  }
> = {
  en: {
    history: [
      { speaker: "user", role: "user", text: "Parked at the airport: level 3, row F, near the lifts." },
      { speaker: "assistant", role: "assistant", text: "Noted: level 3, row F, by the lifts." },
      { speaker: "user", role: "user", text: "My sister Ines lands from Lisbon on the 14th at 18:20." },
    ],
    facts: [
      { subject: "I", predicate: "am allergic to", object: "peanuts", kind: "entity" },
      { subject: "I", predicate: "prefer", object: "short answers with the command first", kind: "preference" },
      { subject: "I", predicate: "ride", object: "a gravel bike with 40 mm tyres", kind: "entity" },
    ],
    turns: [
      {
        ask: "Where did I park at the airport?",
        answer: "On **level 3, row F**, near the lifts — you noted it when you parked. Ines lands on the 14th at 18:20, so that spot works for picking her up.",
      },
      {
        ask: "How do I count the lines in all my notes?",
        answer:
          "One command:\n\n```sh\nfind ~/notes -name '*.md' -print0 | xargs -0 wc -l | tail -n 1\n```\n\n| Part | What it does |\n|:--|:--|\n| `find … -print0` | every note, safely named |\n| `wc -l` | lines per file and a total |",
      },
    ],
    title: "Airport parking and notes",
  },
  "zh-CN": {
    history: [
      { speaker: "user", role: "user", text: "车停在机场停车楼三层 F 排，电梯旁边。" },
      { speaker: "assistant", role: "assistant", text: "记下了：三层 F 排，电梯旁。" },
      { speaker: "user", role: "user", text: "我妹妹小雨 14 号 18:20 从成都飞回来。" },
    ],
    facts: [
      { subject: "我", predicate: "不能吃", object: "花生（过敏）", kind: "entity" },
      { subject: "我", predicate: "喜欢", object: "简短的回答，先给命令", kind: "preference" },
      { subject: "我", predicate: "骑", object: "一辆 40 毫米胎的砾石车", kind: "entity" },
    ],
    turns: [
      { ask: "我上次把车停在机场哪里了？", answer: "在**停车楼三层 F 排**，电梯旁边——是你停车时记下的。小雨 14 号 18:20 落地，从那里去接她正方便。" },
      {
        ask: "怎么统计我所有笔记的行数？",
        answer:
          "一条命令：\n\n```sh\nfind ~/notes -name '*.md' -print0 | xargs -0 wc -l | tail -n 1\n```\n\n| 部分 | 作用 |\n|:--|:--|\n| `find … -print0` | 找出所有笔记 |\n| `wc -l` | 每个文件的行数和总数 |",
      },
    ],
    title: "机场停车与笔记",
  },
};

/** The scripted model: each question's answer (streamed), and a title when asked for one. */
function script(words: (typeof WORDS)[Language]) {
  return ({ body }: ReceivedRequest): Step => {
    const messages = body.messages as { role: string; content: unknown }[];
    if (!body.stream && /Name this conversation/.test(String(messages[0]?.content ?? ""))) return { content: words.title };
    const asked = String(messages.findLast((m) => m.role === "user")?.content ?? "");
    const turn = words.turns.find((t) => asked.includes(t.ask)) ?? words.turns[0]!;
    return { content: turn.answer };
  };
}

async function shoot(page: Page, name: string): Promise<void> {
  const path = join(OUT, `${name}.png`);
  // Animations and the caret would make each run's picture differ.
  await page.screenshot({ path, fullPage: false, animations: "disabled", caret: "hide" });
  const bytes = statSync(path).size;
  console.log(`${path.slice(ROOT.length)}: ${(bytes / 1024).toFixed(0)} KB`);
  if (bytes > MAX_BYTES) throw new Error(`${name}.png is ${bytes} bytes, over ${MAX_BYTES}`);
}

async function photograph(lang: Language): Promise<void> {
  const words = WORDS[lang];
  const history = words.history.map((m, i) => ({ conversation: "phone-notes", session: "2026-03", time: `2026-03-0${i + 1}T08:15:00Z`, id: `n${i + 1}`, ...m }));
  const c = await openConsole(script(words), { history, locale: "en-US" });
  try {
    const { page } = c;
    await logIn(c);
    await page.evaluate(
      async ({ baseUrl, facts }) => {
        const headers = { "content-type": "application/json", "x-homed-request": "1" };
        const post = async (path: string, body: unknown) => {
          const r = await fetch(path, { method: "POST", headers, body: JSON.stringify(body) });
          if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
        };
        await post("/api/providers", { name: "Scripted", baseUrl, model: "scripted-model" });
        await post("/api/providers", { name: "Ollama", preset: "ollama", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen2.5:7b" });
        for (const f of facts) await post("/api/memory/tools/memory_note", f);
      },
      { baseUrl: c.provider.url, facts: words.facts },
    );
    await page.evaluate((id) => localStorage.setItem("homed.lang", id), lang);
    await page.goto(`${c.daemon.url}/#/chat`);
    await page.reload();
    await page.locator("aside.sessions form.inline button[type=submit], .chat button:not(.quiet)").first().click();
    await page.waitForURL((url) => /#\/chat\/.+/.test(url.hash));
    const message = page.locator("#message");
    for (const turn of words.turns) {
      await message.fill(turn.ask);
      await message.press("Enter");
      await page.locator(".log").getByText(turn.ask).first().waitFor();
      await page.locator(".composer button[type=submit]:not([disabled])").waitFor();
    }
    // The model's name for the conversation reaches the list.
    await page.locator("aside.sessions").getByText(words.title).waitFor();
    await page.locator(".recall-cards, .recall").first().waitFor();
    await shoot(page, `chat-${lang}`);
    if (lang === "en") {
      await page.setViewportSize(PHONE);
      await page.reload();
      await page.locator("#message").waitFor();
      await shoot(page, "chat-phone-en");
      await page.setViewportSize({ width: 1280, height: 800 });
    }

    await page.goto(`${c.daemon.url}/#/memory`);
    await page.locator("li.record").first().waitFor();
    await shoot(page, `memory-${lang}`);

    await page.goto(`${c.daemon.url}/#/providers`);
    await page.locator("tr[data-provider=Ollama]").waitFor();
    await shoot(page, `providers-${lang}`);
  } finally {
    await c.close();
  }
}

/** Points Chromium (through fontconfig) at HOMED_SCREENSHOT_FONTS besides the system's fonts; refuses to go on without a Chinese font. */
function chineseFonts(): { remove(): void } {
  const extra = process.env.HOMED_SCREENSHOT_FONTS;
  const folder = tempDir("homed-fonts-");
  if (extra) {
    const conf = join(folder.path, "fonts.conf");
    writeFileSync(
      conf,
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n  <dir>${extra}</dir>\n  <cachedir>${folder.path}</cachedir>\n</fontconfig>\n`,
    );
    process.env.FONTCONFIG_FILE = conf;
  }
  const found = execFileSync("fc-list", [":lang=zh", "family"], { encoding: "utf8", env: process.env }).trim();
  if (!found) throw new Error("No Chinese font: apt-get install fonts-wqy-microhei, or set HOMED_SCREENSHOT_FONTS to a folder holding one");
  console.log(`Chinese font: ${found.split("\n")[0]}`);
  return folder;
}

mkdirSync(OUT, { recursive: true });
const fonts = chineseFonts();
try {
  for (const lang of ["en", "zh-CN"] as const) await photograph(lang);
} finally {
  fonts.remove();
}
