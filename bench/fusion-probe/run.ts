/**
 * Fusions compared on the same channel rankings (words, grams; no vector model): LoCoMo dev,
 * MADial dev, and exact lookups on a small open-vocabulary corpus (corpus.ts; seed 1 the dev
 * split, seed 2 held out; each asked within its conversation and across all). The rankings come
 * from homed itself (rankings.ts); each fusion re-ranks them offline, so every row sees the same
 * inputs. FUSION_CACHE=FILE keeps the rankings for a second run.
 *
 *   nice -n 10 node_modules/.bin/bun bench/fusion-probe/run.ts
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { Fused } from "../../src/memory/fusion.ts";
import { evidenceRecall, formatRow } from "../evidence.ts";
import { convertLocomo } from "../locomo/convert.ts";
import { convertMadial } from "../madial/convert.ts";
import { CANDIDATES } from "./candidates.ts";
import { probeCorpus } from "./corpus.ts";
import { channelRankings, type QueryRankings, type SetRankings } from "./rankings.ts";

type EvalSet = { name: string; ks: readonly number[]; metric: string; gold: { id: string; gold: string[] }[]; rankings: SetRankings };

const LOCOMO = process.env.LOCOMO_FILE ?? "/work/shared/data/locomo/locomo-dev.json";
const MADIAL = process.env.MADIAL_DIR ?? "/work/shared/data/madial";
const CACHE = process.env.FUSION_CACHE;

function measureSets(): EvalSet[] {
  const sets: EvalSet[] = [];
  const locomo = convertLocomo(LOCOMO);
  const l = channelRankings(
    locomo.lines,
    locomo.questions.map((q) => ({ id: q.id, query: q.query, conversation: q.conversation })),
  );
  console.log(`LoCoMo dev: ${l.summary}`);
  sets.push({ name: "LoCoMo dev (R)", ks: [5, 10, 25, 50], metric: "R", gold: locomo.questions.map((q) => ({ id: q.id, gold: q.evidence })), rankings: l.rankings });
  const madial = convertMadial(MADIAL);
  const m = channelRankings(
    madial.lines,
    madial.queries.map((q) => ({ id: q.id, query: q.query, conversation: q.conversation })),
  );
  console.log(`MADial dev: ${m.summary}`);
  sets.push({ name: "MADial dev (R)", ks: [1, 3, 5, 10], metric: "R", gold: madial.queries, rankings: m.rankings });
  for (const [seed, split] of [
    [1, "dev"],
    [2, "held-out"],
  ] as const) {
    const probe = probeCorpus(seed);
    // The same lookups twice: within the message's conversation, and across all of them.
    const asked = [...probe.queries.map((q) => ({ id: `in:${q.id}`, query: q.query, conversation: q.conversation })), ...probe.queries.map((q) => ({ id: `all:${q.id}`, query: q.query }))];
    const p = channelRankings(probe.lines, asked);
    console.log(`open-vocab probe seed ${seed}: ${p.summary}`);
    for (const scope of ["in", "all"] as const) {
      sets.push({
        name: `probe ${split}, ${scope === "in" ? "in conversation" : "all"} (hit)`,
        ks: [1, 10],
        metric: "hit",
        gold: probe.queries.map((q) => ({ id: `${scope}:${q.id}`, gold: q.gold })),
        rankings: p.rankings,
      });
    }
  }
  return sets;
}

let sets: EvalSet[];
if (CACHE && existsSync(CACHE)) {
  const raw = JSON.parse(readFileSync(CACHE, "utf8")) as (Omit<EvalSet, "rankings"> & { rankings: [string, QueryRankings][] })[];
  sets = raw.map((s) => ({ ...s, rankings: new Map(s.rankings) }));
  console.log(`rankings from ${CACHE}`);
} else {
  sets = measureSets();
  if (CACHE) writeFileSync(CACHE, JSON.stringify(sets.map((s) => ({ ...s, rankings: [...s.rankings] }))));
}

const only = process.env.FUSIONS?.split(",");
for (const set of sets) {
  console.log(`\n${set.name}`);
  for (const [name, fusion] of Object.entries(CANDIDATES)) {
    if (only && !only.includes(name)) continue;
    const ranked = new Map<string, string[][]>();
    for (const [id, rankings] of set.rankings)
      ranked.set(
        id,
        fusion(rankings)
          .slice(0, 50)
          .map((f: Fused) => [f.id]),
      );
    console.log(
      formatRow(
        `  ${name}`,
        set.ks,
        evidenceRecall(set.gold, (id) => ranked.get(id) ?? [], set.ks),
        34,
        set.metric,
      ),
    );
  }
}
