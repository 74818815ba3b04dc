/**
 * History import: validated messages become L2 events in one write transaction. Messages
 * already present (same conversation and id) are skipped, so re-importing a file adds nothing;
 * any failure rolls the whole import back.
 */
import type { Client, Transaction } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import { mergeInserts } from "../store/index.ts";
import { coldEventStatements, coldSessionId, type ColdMessage } from "./cold-event.ts";

export type ImportProgress = (done: number, total: number) => void;

export type ImportResult = { added: number; present: number };

/** Messages per embedding call and per batch of statements. */
const CHUNK = 256;

/**
 * Neighbours on each side whose text is indexed with a message (see `searchText`). Measured on
 * LoCoMo dev (words+grams, R@5/10/25/50): one each side .611/.704/.798/.847, two .620/.712/.809/.861.
 */
const CONTEXT_WINDOW = 2;

/**
 * Neighbours further apart in time than this are not one exchange: a diary of events a day
 * apart stored as one session must not lend each entry the words of the next (on MADial that
 * mixing halves recall). 30 minutes is the usual idle gap that ends a chat session.
 */
const CONTEXT_GAP_MS = 30 * 60_000;

/** Each message's neighbours' text within its session and exchange, in file order (present messages included). */
function neighbourTexts(messages: readonly ColdMessage[]): Map<ColdMessage, string> {
  const sessions = new Map<string, ColdMessage[]>();
  for (const m of messages) {
    const key = coldSessionId(m.conversation, m.session);
    const list = sessions.get(key) ?? [];
    list.push(m);
    sessions.set(key, list);
  }
  const context = new Map<ColdMessage, string>();
  for (const list of sessions.values()) {
    list.forEach((m, i) => {
      const around = [...list.slice(Math.max(0, i - CONTEXT_WINDOW), i), ...list.slice(i + 1, i + 1 + CONTEXT_WINDOW)].filter(
        (n) => Math.abs(n.time - m.time) <= CONTEXT_GAP_MS,
      );
      context.set(m, around.map((n) => n.text).join("\n"));
    });
  }
  return context;
}

async function presentIds(client: Transaction, messages: readonly ColdMessage[]): Promise<Set<string>> {
  const present = new Set<string>();
  for (const conversation of new Set(messages.map((m) => m.conversation))) {
    const rows = await client.execute({
      sql: "SELECT source_id FROM events WHERE conversation = ? AND source_id IS NOT NULL",
      args: [conversation],
    });
    for (const r of rows.rows) present.add(`${conversation}\u0000${String(r.source_id)}`);
  }
  return present;
}

/** Next free `seq` of each session, so imported messages follow what the session holds. */
async function nextSeqs(client: Transaction, messages: readonly ColdMessage[]): Promise<Map<string, number>> {
  const next = new Map<string, number>();
  for (const session of new Set(messages.map((m) => coldSessionId(m.conversation, m.session)))) {
    const rows = await client.execute({ sql: "SELECT max(seq) AS s FROM events WHERE session_id = ?", args: [session] });
    const max = rows.rows[0]?.s;
    next.set(session, max === null || max === undefined ? 0 : Number(max) + 1);
  }
  return next;
}

export async function importHistory(
  client: Client,
  messages: readonly ColdMessage[],
  options: { embedder?: Embedder; onProgress?: ImportProgress; now?: number } = {},
): Promise<ImportResult> {
  const now = options.now ?? Date.now();
  const context = neighbourTexts(messages);
  const tx = await client.transaction("write");
  let added = 0;
  try {
    // Read inside the write transaction: a concurrent import cannot slip the same ids in between.
    const present = await presentIds(tx, messages);
    const fresh = messages.filter((m) => !present.has(`${m.conversation}\u0000${m.sourceId}`));
    const seqs = await nextSeqs(tx, fresh);
    for (let start = 0; start < fresh.length; start += CHUNK) {
      const chunk = fresh.slice(start, start + CHUNK);
      const vectors = options.embedder ? await options.embedder.embedTexts(chunk.map((m) => m.text), { purpose: "write" }) : [];
      const statements = [];
      for (const [i, m] of chunk.entries()) {
        const session = coldSessionId(m.conversation, m.session);
        const seq = seqs.get(session)!;
        seqs.set(session, seq + 1);
        const vector = vectors[i] && options.embedder ? { modelId: options.embedder.modelId, vector: vectors[i] } : undefined;
        statements.push(...(await coldEventStatements(m, seq, vector, now, context.get(m))));
      }
      await tx.batch(mergeInserts(statements));
      options.onProgress?.(start + chunk.length, fresh.length);
    }
    await tx.commit();
    added = fresh.length;
  } finally {
    tx.close();
  }
  return { added, present: messages.length - added };
}
