/**
 * Each channel's own scored ranking per query, as homed's fusion receives them: `homed recall
 * --queries FILE --channels C -k 100 --explain` (one channel alone ranks as it does inside the
 * fusion, to the fusion's depth of 100 for k ≤ 50), keyed by the memory's source id. Fusions are
 * then compared offline on the same rankings (bench/fusion-probe/run.ts).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Channel, Ranked } from "../../src/memory/channels.ts";
import { importInto, tempDir, writeJsonl } from "../evidence.ts";

const MAIN = fileURLToPath(new URL("../../src/main.ts", import.meta.url));

export type QueryRankings = Partial<Record<Channel, Ranked>>;
export type SetRankings = Map<string, QueryRankings>;

type ExplainLine = { id: string; results: { sources: string[]; channels: Partial<Record<Channel, { score: number; coverage?: number }>> }[] };

/** One recall per channel over `queries`; `rows` imported first into a fresh folder. */
export function channelRankings(
  rows: readonly unknown[],
  queries: readonly { id: string; query: string; conversation?: string }[],
  channels: readonly Channel[] = ["words", "grams"],
): { rankings: SetRankings; summary: string } {
  const dir = tempDir("homed-fusion-probe-");
  writeJsonl(join(dir, "history.jsonl"), rows);
  writeJsonl(join(dir, "queries.jsonl"), queries);
  const { summary } = importInto(join(dir, "data"), join(dir, "history.jsonl"));
  const rankings: SetRankings = new Map(queries.map((q) => [q.id, {}]));
  for (const channel of channels) {
    const args = [MAIN, "recall", "-data", join(dir, "data"), "--queries", join(dir, "queries.jsonl"), "-k", "100", "--channels", channel, "--explain"];
    const run = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 30 });
    if (run.status !== 0) throw new Error(`homed recall --channels ${channel} failed (${run.status}): ${run.stderr}`);
    for (const line of run.stdout.split("\n")) {
      if (!line.trim()) continue;
      const parsed = JSON.parse(line) as ExplainLine;
      rankings.get(String(parsed.id))![channel] = parsed.results.map((r) => ({ id: r.sources[0]!, score: r.channels[channel]!.score, coverage: r.channels[channel]!.coverage }));
    }
  }
  return { rankings, summary };
}
