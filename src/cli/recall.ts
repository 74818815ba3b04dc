/**
 * `homed recall [-data DIR] [--conversation C] [-k N] [--explain] [--json] "query"` and the batch
 * form `--queries FILE.jsonl` (`{"id","query","conversation"?}` per line, one JSON line out per
 * query, one database open for all). Recall here only peeks: nothing moves between layers.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { configSection, readConfigFile, UsageError, type ParsedArgs, type Settings } from "../config/index.ts";
import { vectorEmbedder, type ActiveEmbedder } from "../embed/index.ts";
import {
  CHANNELS,
  coldcontextQuery,
  configureFusion,
  FUSION_METHODS,
  FusionConfigSchema,
  type FusionMethod,
  openDataEmbedder,
  openDataStore,
  type Candidate,
  type Channel,
  type CommandIo,
  type QueryOptions,
} from "../memory/index.ts";
import { expectArguments, InputError, stringFlag } from "./command.ts";

const USAGE = 'homed recall [-data DIR] [--conversation C] [-k N] [--explain] [--json] "query" | --queries FILE.jsonl';

const QueryLineSchema = z.strictObject({
  id: z.union([z.string().min(1), z.number()]),
  query: z.string().min(1),
  conversation: z.string().min(1).optional(),
});

/**
 * Said when -channels asks for vectors and the fallback embedder is active: nothing is stored
 * for the vector channel to search (see `vectorEmbedder`), and recall should not silently
 * answer with fewer channels than asked for.
 */
const NO_VECTORS_NOTE = "note: the vector channel needs an embedding model (Chinese-CLIP in -models, or -embed-url); the fallback embedder stores no vectors, so recall ran without it\n";

/**
 * The query options and whether the vector channel was asked for but cannot run. Without
 * -channels all channels run whose data exists. The fallback's vectors would not be worth it
 * even if stored: they are character n-gram hashes the grams channel already ranks, with the
 * IDF weighting the hash lacks, so fusing both counts the same evidence twice and pushes answers
 * down (LoCoMo dev R@5 .620 → .535).
 */
function parseOptions(args: ParsedArgs, active: ActiveEmbedder): { options: QueryOptions; vectorsMissing: boolean } {
  const k = Number(stringFlag(args, "k") ?? "10");
  if (!Number.isInteger(k) || k < 1 || k > 1000) throw new UsageError("invalid -k: expected a whole number from 1 to 1000");
  const asked = stringFlag(args, "channels")
    ?.split(",")
    .map((c) => c.trim());
  for (const c of asked ?? []) {
    if (!(CHANNELS as readonly string[]).includes(c)) throw new UsageError(`invalid -channels: "${c}" is not one of ${CHANNELS.join(", ")}`);
  }
  const time = (name: string) => {
    const raw = stringFlag(args, name);
    if (raw === undefined) return undefined;
    const ms = Date.parse(raw);
    if (Number.isNaN(ms)) throw new UsageError(`invalid -${name}: expected an ISO 8601 date or time, e.g. 2024-05-01`);
    return ms;
  };
  const embedder = vectorEmbedder(active);
  const channels = ((asked ?? CHANNELS) as Channel[]).filter((c) => c !== "vector" || embedder);
  const options = { k, channels, conversation: stringFlag(args, "conversation"), since: time("since"), until: time("until"), embedder };
  return { options, vectorsMissing: !embedder && (asked ?? []).includes("vector") };
}

/**
 * A channel score, to three places — or to two significant digits when smaller: BM25 gives a
 * term found in most memories a weight of about a millionth, and "0.000" hid which ranked higher.
 */
const channelScore = (score: number) => (score !== 0 && Math.abs(score) < 0.001 ? score.toPrecision(2) : score.toFixed(3));

function explainLine(c: Candidate, ran: readonly Channel[]): string {
  const parts = CHANNELS.map((ch) => {
    const hit = c.channels[ch];
    if (!c.channels[ch] && !ran.includes(ch)) return `${ch} off`;
    if (!hit) return `${ch} —`;
    const covers = hit.coverage === undefined ? "" : `, covers ${Math.min(1, hit.coverage).toFixed(2)}`;
    return `${ch} #${hit.rank} (${channelScore(hit.score)}${covers}) +${hit.contribution.toFixed(4)}`;
  });
  return `     ${parts.join(" · ")}`;
}

function jsonResult(c: Candidate, explain: boolean) {
  return {
    memory: c.id,
    layer: c.layer,
    score: Number(c.score.toFixed(6)),
    text: c.text,
    time: new Date(c.time).toISOString(),
    sources: c.sources,
    ...(explain ? { conversation: c.conversation, speaker: c.speaker, channels: c.channels } : {}),
  };
}

function readQueries(file: string) {
  let content: string;
  try {
    content = readFileSync(file, "utf8");
  } catch (error) {
    throw new InputError(`Cannot read queries ${file}: ${(error as Error).message}`, { cause: error });
  }
  return content.split("\n").flatMap((raw, i) => {
    if (raw.trim() === "") return [];
    let parsed: ReturnType<typeof QueryLineSchema.safeParse>;
    try {
      parsed = QueryLineSchema.safeParse(JSON.parse(raw));
    } catch (error) {
      throw new InputError(`Cannot read queries ${file}: line ${i + 1}: not JSON (${(error as Error).message})`);
    }
    if (!parsed.success) throw new InputError(`Cannot read queries ${file}: line ${i + 1}: ${parsed.error.issues[0]!.message}`);
    return [parsed.data];
  });
}

export async function runRecallCommand(rest: readonly string[], args: ParsedArgs, settings: Settings, io: CommandIo): Promise<number> {
  const batchFile = stringFlag(args, "queries");
  expectArguments(rest, batchFile === undefined ? 1 : 0, USAGE);
  const explain = args.flags.has("explain");
  const queries = batchFile === undefined ? undefined : readQueries(batchFile);
  // The same fusion weights as the daemon's recall (homed.json "fusion").
  const fusion = configSection(readConfigFile(settings.dataDir), "fusion", FusionConfigSchema);
  const method = stringFlag(args, "fusion");
  if (method !== undefined && !(FUSION_METHODS as readonly string[]).includes(method)) throw new InputError(`-fusion ${method}: give ${FUSION_METHODS.join(", ")}`);
  configureFusion({ ...fusion, ...(method ? { method: method as FusionMethod } : {}) });
  const active = await openDataEmbedder(settings);
  const { embedder } = active;
  const { options, vectorsMissing } = parseOptions(args, active);
  if (vectorsMissing) io.stderr(NO_VECTORS_NOTE);
  const store = await openDataStore(settings);
  try {
    if (queries) {
      for (const q of queries) {
        const scope = q.conversation ?? options.conversation;
        const results = await coldcontextQuery(store.client, q.query, { ...options, conversation: scope });
        io.stdout(`${JSON.stringify({ id: q.id, results: results.map((r) => jsonResult(r, explain)) })}\n`);
      }
      return 0;
    }
    const query = rest[0]!;
    const results = await coldcontextQuery(store.client, query, options);
    if (args.flags.has("json")) {
      io.stdout(`${JSON.stringify({ query, results: results.map((r) => jsonResult(r, explain)) })}\n`);
      return 0;
    }
    if (results.length === 0) io.stdout("no memories found\n");
    results.forEach((r, i) => {
      const who = r.speaker ? `${r.speaker}: ` : "";
      io.stdout(`${String(i + 1).padStart(3)}. ${new Date(r.time).toISOString().slice(0, 16)} ${who}${r.text.replace(/\s+/g, " ")}\n`);
      io.stdout(`     ${r.conversation} · sources ${r.sources.join(", ") || "—"} · score ${r.score.toFixed(4)} · ${r.id}\n`);
      if (explain) io.stdout(`${explainLine(r, options.channels ?? CHANNELS)}\n`);
    });
    return 0;
  } finally {
    await embedder.close?.();
    store.close();
  }
}
