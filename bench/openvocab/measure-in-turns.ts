/**
 * How the open-vocabulary bench asks its systems: every lookup of each query variant through every
 * system, the systems taking turns query by query (A answers query i, then B, then C, then query
 * i + 1), so a busy moment of this shared machine falls on all of them alike. Each system runs in a
 * process of its own and times its own search (`./system-process.ts`); here only the ranks are
 * judged and the times gathered: hit@1, hit@10, wall p50 / p95 and CPU p50 of the queries a system
 * could ask.
 */
import type { ExactLookup } from "./corpus.ts";
import { type Answer, K, type Question } from "./system-protocol.ts";

/** The query variants: exact over all memory, exact within the target's conversation, one typo over all memory. */
export const VARIANTS = [
  { name: "exact, all memory", text: (q: ExactLookup) => q.query, scoped: false },
  { name: "exact, own conversation", text: (q: ExactLookup) => q.query, scoped: true },
  { name: "one typo, all memory", text: (q: ExactLookup) => q.typo, scoped: false },
] as const;

/** A system as the turns see it: a name and a way to ask it (a child process, or a stand-in in a test). */
export type Asked = { name: string; ask(question: Question): Promise<Pick<Answer, "ids" | "ms" | "cpuMs">> };

/** One system's figures for one variant, as the bench prints them. */
export type TurnResult = { system: string; variant: string; line: string };

export const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * Each system first answers `warmUp` untimed, in turns (other lookups than the measured ones:
 * homed loads jieba, and each child's code is compiled by the JIT — with one warm-up query, the
 * first of homed's children paid that on the measured ones and showed 1.5–2.5× the others'
 * p50), then all lookups in turns. Results come grouped by system, in the systems' order, then by
 * variant.
 */
export async function measureInTurns(systems: readonly Asked[], lookups: readonly ExactLookup[], warmUp: readonly ExactLookup[] = lookups.slice(0, 1)): Promise<TurnResult[]> {
  for (const q of warmUp) for (const system of systems) await system.ask({ text: q.query });
  const results = new Map<string, TurnResult[]>(systems.map((s) => [s.name, []]));
  for (const variant of VARIANTS) {
    const tallies = systems.map(() => ({ at1: 0, at10: 0, ms: [] as number[], cpu: [] as number[] }));
    for (const q of lookups) {
      const question: Question = variant.scoped ? { text: variant.text(q), conversation: q.conversation } : { text: variant.text(q) };
      for (const [i, system] of systems.entries()) {
        const answer = await system.ask(question);
        if (answer.ids === null) continue;
        const tally = tallies[i]!;
        tally.ms.push(answer.ms);
        tally.cpu.push(answer.cpuMs);
        const rank = answer.ids.indexOf(q.target);
        if (rank === 0) tally.at1++;
        if (rank >= 0 && rank < K) tally.at10++;
      }
    }
    for (const [i, system] of systems.entries()) {
      const { at1, at10, ms, cpu } = tallies[i]!;
      ms.sort((x, y) => x - y);
      cpu.sort((x, y) => x - y);
      const asked = ms.length === lookups.length ? "" : ` (${lookups.length - ms.length} unaskable, counted as misses)`;
      // CPU time besides wall time: on a shared machine a query's wall time is mostly waiting for a core.
      const latency = ms.length === 0 ? "—" : `p50 ${percentile(ms, 50).toFixed(2)} ms  p95 ${percentile(ms, 95).toFixed(1)} ms  cpu p50 ${percentile(cpu, 50).toFixed(2)} ms`;
      results
        .get(system.name)!
        .push({ system: system.name, variant: variant.name, line: `hit@1 ${(at1 / lookups.length).toFixed(3)}  hit@10 ${(at10 / lookups.length).toFixed(3)}  ${latency}${asked}` });
    }
  }
  return [...results.values()].flat();
}
