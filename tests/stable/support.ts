/** Cold events on a real libSQL file, and a scripted distilling model. */
import { join } from "node:path";
import { ChatClient } from "../../src/llm/index.ts";
import { askWithChat, importHistory, type Ask, type ColdMessage } from "../../src/memory/index.ts";
import { openStore, type Store } from "../../src/store/index.ts";
import { testDir } from "../support/temp-dir.ts";

export async function storeWith(messages: ColdMessage[], importedAt = 0): Promise<{ store: Store; url: string }> {
  const url = `file:${join(testDir("homed-stable-"), "homed.db")}`;
  const store = await openStore({ url });
  await importHistory(store.client, messages, { now: importedAt });
  return { store, url };
}

export const message = (i: number, text: string, over: Partial<ColdMessage> = {}): ColdMessage => ({
  conversation: "conv-a",
  session: "s1",
  time: Date.UTC(2025, 0, 1) + i * 60_000,
  speaker: "Mia",
  role: "user",
  text,
  sourceId: `m${i}`,
  ...over,
});

export function askProvider(url: string): Ask {
  const chat = new ChatClient({ baseUrl: url, retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 }, timeoutMs: 2000 });
  return askWithChat((r) => chat.complete(r), "distiller");
}

/** The text of the message a distillation request is about. */
export const distilledText = (body: any) => String(body.messages[1].content).replace(/^\[[^\]]*\] [^:]*: /, "");

export const DAY = 24 * 3600_000;
