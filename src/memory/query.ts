/**
 * `coldcontext_query`: peek into cold context. Runs the enabled channels, fuses them (fusion.ts) and
 * returns the top k with their text and provenance. It only reads: no access count, no layer,
 * no holder changes — moving is `coldcontextRecall`'s job, after the caller confirms.
 */
import type { Client } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import { bm25Channels, CHANNELS, type Channel, type Ranked } from "./channels.ts";
import { fuse, type ChannelHit } from "./fusion.ts";
import { asRecallQuery, type RecallQuery } from "./recall-query.ts";
import type { RecallScope } from "./scope.ts";
import { vectorChannel } from "./vector-channel.ts";
import { coldCandidateRows, idsInConversation } from "../store/index.ts";

export type QueryOptions = RecallScope & {
  k: number;
  /** Channels to run (default all three). */
  channels?: readonly Channel[];
  /** The vector channel's embedder; without one the vector channel is skipped. */
  embedder?: Embedder;
  /** Events in scope up to which vectors are compared exactly instead of through the index. */
  exactScanLimit?: number;
  /**
   * A chat's own conversation: its memories' fused scores are multiplied by 1 + `boost`, so they
   * rank above equally matching ones from elsewhere (DESIGN §3 Scopes) while a much stronger
   * match from another conversation still wins.
   */
  prefer?: Prefer;
};

export type Candidate = {
  id: string;
  layer: "L2";
  /** Fused score (the fusion in force). */
  score: number;
  text: string;
  time: number;
  conversation: string;
  session: string;
  speaker: string | null;
  /** Ids of the messages this memory came from (provenance). */
  sources: string[];
  channels: Partial<Record<Channel, ChannelHit>>;
};

/**
 * How deep each channel ranks before fusion. RRF rewards agreement, so a result ranked 40th by
 * words and 3rd by grams must be in both lists: a depth of k alone would cut it from the first.
 */
export const channelDepth = (k: number) => Math.max(2 * k, 100);

/** A chat's own conversation and the weight its memories gain (see `QueryOptions.prefer`). */
export type Prefer = { conversation: string; boost: number };

/**
 * The fused list with the preferred conversation's members boosted and re-sorted: events by
 * their conversation, facts (`triples`) by their scope.
 */
export async function preferOwn<T extends { id: string; score: number }>(client: Client, table: "events" | "triples", fused: T[], prefer: Prefer | undefined): Promise<T[]> {
  if (!prefer || prefer.boost === 0 || fused.length === 0) return fused;
  const ids = await idsInConversation(
    client,
    table,
    prefer.conversation,
    fused.map((f) => f.id),
  );
  if (ids.size === 0) return fused;
  return fused.map((f) => (ids.has(f.id) ? { ...f, score: f.score * (1 + prefer.boost) } : f)).sort((a, b) => b.score - a.score);
}

export async function coldcontextQuery(client: Client, text: string | RecallQuery, options: QueryOptions): Promise<Candidate[]> {
  const query = asRecallQuery(text);
  const wanted = new Set(options.channels ?? CHANNELS);
  const depth = channelDepth(options.k);
  const runs: Partial<Record<Channel, Promise<Ranked>>> = {};
  // The vector channel embeds the query as it is: a model reads the whole text, tags and all.
  if (wanted.has("vector") && options.embedder) runs.vector = vectorChannel(client, options.embedder, query, options, depth, options.exactScanLimit);
  if (wanted.has("words") || wanted.has("grams")) {
    const terms = await query.terms();
    const asked = { words: wanted.has("words") ? terms.words : [], trigrams: wanted.has("grams") ? terms.trigrams : [], bigrams: wanted.has("grams") ? terms.bigrams : [] };
    const both = bm25Channels(client, asked, options, depth);
    if (wanted.has("words")) runs.words = both.then((b) => b.words);
    if (wanted.has("grams")) runs.grams = both.then((b) => b.grams);
  }
  const rankings: Partial<Record<Channel, Ranked>> = {};
  for (const [channel, run] of Object.entries(runs) as [Channel, Promise<Ranked>][]) rankings[channel] = await run;
  const top = (await preferOwn(client, "events", fuse(rankings), options.prefer)).slice(0, options.k);
  if (top.length === 0) return [];
  const rows = await coldCandidateRows(
    client,
    top.map((t) => t.id),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  // An event recalled into L1 between the ranking and this read is simply no longer a candidate.
  return top.flatMap((t): Candidate[] => {
    const row = byId.get(t.id);
    if (!row) return [];
    return [
      {
        id: t.id,
        layer: "L2",
        score: t.score,
        text: row.text,
        time: row.time,
        conversation: row.conversation,
        session: row.sessionId,
        speaker: row.speaker,
        sources: row.sourceId === null ? [] : [row.sourceId],
        channels: t.channels,
      },
    ];
  });
}
