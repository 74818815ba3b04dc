/** Shared by the memory tests: a real libSQL file in a temp folder, messages, a phrase embedder. */
import { join } from "node:path";
import type { Embedder } from "../../src/embed/index.ts";
import { importHistory, type ColdMessage } from "../../src/memory/index.ts";
import { openStore, VECTOR_DIM, type Store } from "../../src/store/index.ts";
import { tempDir } from "../support/temp-dir.ts";

export type TempStore = Store & { dir: string; [Symbol.asyncDispose](): Promise<void> };

export async function openTempStore(): Promise<TempStore> {
  const dir = tempDir("homed-memory-");
  const store = await openStore({ url: `file:${join(dir.path, "homed.db")}` });
  return Object.assign(store, {
    dir: dir.path,
    async [Symbol.asyncDispose]() {
      store.close();
      dir.remove();
    },
  });
}

let clock = Date.UTC(2024, 0, 1);

/**
 * A message with sensible defaults; each call is one minute after the previous one. Each is
 * alone in its own session unless `session` is given, so neighbours' words (indexed with a
 * message) only meet where a test means them to.
 */
export function message(text: string, over: Partial<ColdMessage> = {}): ColdMessage {
  clock += 60_000;
  return {
    conversation: "conv-a",
    session: `s${clock}`,
    time: clock,
    speaker: "Ann",
    role: "user",
    text,
    sourceId: `m${clock}`,
    ...over,
  };
}

export async function seed(store: Store, messages: ColdMessage[], embedder?: Embedder): Promise<void> {
  await importHistory(store.client, messages, { embedder });
}

/**
 * A test embedder that puts chosen phrases at chosen axes, so two texts that share no word or
 * character can still be neighbours — what a real model does for a paraphrase.
 */
export function phraseEmbedder(axes: Record<string, number>, modelId = "test-phrases@512"): Embedder {
  return {
    modelId,
    dimension: VECTOR_DIM,
    embedTexts: async (texts) =>
      texts.map((text) => {
        const v = new Float32Array(VECTOR_DIM);
        const axis = Object.entries(axes).find(([phrase]) => text.includes(phrase))?.[1];
        v[axis ?? VECTOR_DIM - 1] = 1;
        return v;
      }),
  };
}

export async function count(store: Store, sql: string, args: (string | number)[] = []): Promise<number> {
  const rows = await store.client.execute({ sql, args });
  return Number(rows.rows[0]?.[0] ?? 0);
}
