/**
 * Cooling (L2 → L3): a cold event with few accesses that has been idle long enough is distilled
 * into facts, and its blocks move to L3 (holder changes, ids stay); the event row stays, marked
 * L3, as the provenance its facts point to.
 *
 * Crash-safe and exactly once: the model call happens outside any transaction; then one
 * transaction moves the event (`UPDATE … WHERE layer = 'L2'` must change exactly one row) and
 * writes its facts. A crash before the commit leaves the event in L2 to be distilled again on
 * the next run; after it, the event is no longer a candidate. Two workers can never both commit.
 */
import type { Client } from "@libsql/client";
import { z } from "zod";
import { distillEvent, type Ask, type ColdEventRow } from "./distill.ts";
import type { PrivateScope } from "./scope.ts";
import type { Embedder } from "../embed/index.ts";
import { factText, maskFactSecrets, writeFact } from "./stable-facts.ts";
import { describeMasked } from "../text/index.ts";
import { coolingCandidateRows, moveEventToL3, releaseLease, takeLease } from "../store/index.ts";

export const CoolingConfigSchema = z.object({
  /** At most this many accesses. Prevents: distilling (and losing the verbatim turn of) a memory still in use. */
  maxAccesses: z.number().int().min(0).max(1000).default(2),
  /** Idle at least this long. Prevents: cooling what was touched recently and may be needed verbatim soon. */
  idleMs: z
    .number()
    .int()
    .min(60_000)
    .default(72 * 3600_000),
  /** Events per run. Prevents: one run holding the model (or the writer) for long. */
  batch: z.number().int().min(1).max(1000).default(20),
  /** Minutes between runs. */
  intervalMs: z
    .number()
    .int()
    .min(10_000)
    .default(10 * 60_000),
});

export type CoolingConfig = z.output<typeof CoolingConfigSchema>;

export const DEFAULT_COOLING: CoolingConfig = CoolingConfigSchema.parse({});

export type CoolingOptions = Partial<Omit<CoolingConfig, "intervalMs">> & {
  client: Client;
  ask?: Ask;
  /** Gives facts dense vectors for recall's vector channel (off with the fallback embedder). */
  embedder?: Embedder;
  now?: () => number;
  log?: (line: string) => void;
  /** Asked before each event; false ends the run (the job's lease went to another daemon). */
  keepGoing?: () => Promise<boolean>;
};

export type CoolingRun = { distilled: number; facts: number; fallbacks: number; skipped: number };

export async function coolingCandidates(client: Client, config: CoolingConfig, now: number): Promise<ColdEventRow[]> {
  const rows = await coolingCandidateRows(client, { maxAccesses: config.maxAccesses, idleBefore: now - config.idleMs, limit: config.batch });
  // private_to holds only what privateToOf wrote (a PrivateScope) or null.
  return rows.map((r) => ({ ...r, privateTo: r.privateTo as PrivateScope | null }));
}

/** One pass over the current candidates. */
export async function coolOnce(options: CoolingOptions): Promise<CoolingRun> {
  const config = { ...DEFAULT_COOLING, ...options };
  const now = options.now ?? Date.now;
  const run: CoolingRun = { distilled: 0, facts: 0, fallbacks: 0, skipped: 0 };
  for (const event of await coolingCandidates(options.client, config, now())) {
    if (options.keepGoing && !(await options.keepGoing())) break;
    const distilled = await distillEvent(event, options.ask);
    // Secrets are masked before the facts are embedded (writeFact masks again as the guard).
    const maskings = distilled.facts.map(maskFactSecrets);
    const distillation = { ...distilled, facts: maskings.map((m) => m.fact) };
    if (distillation.method === "fallback") {
      run.fallbacks++;
      options.log?.(`cooling ${event.id}: deterministic distillation (${distillation.reason})`);
    }
    const vectors = options.embedder ? await options.embedder.embedTexts(distillation.facts.map(factText), { purpose: "write" }) : [];
    const tx = await options.client.transaction("write");
    try {
      if (!(await moveEventToL3(tx, event.id, config.maxAccesses))) {
        // Recalled into L1, touched, or distilled by another worker since it was picked.
        await tx.rollback();
        run.skipped++;
        continue;
      }
      const maskLines: string[] = [];
      for (const [i, fact] of distillation.facts.entries()) {
        const vector = vectors[i] && options.embedder ? { modelId: options.embedder.modelId, vector: vectors[i] } : undefined;
        const written = await writeFact(tx, fact, now(), vector);
        const masked = maskings[i]!.masked;
        if (masked.length > 0) maskLines.push(`cooling ${event.id} -> ${written.id}: secrets masked (${describeMasked(masked)})`);
      }
      await tx.commit();
      for (const line of maskLines) options.log?.(line);
      run.distilled++;
      run.facts += distillation.facts.length;
    } finally {
      tx.close();
    }
  }
  return run;
}

/**
 * Runs `coolOnce` every `intervalMs` until stopped; a failed run is logged, the next one retries.
 * `stop` waits at most `stopWaitMs` for a run in progress: a run waiting on a slow model must
 * not hold up shutdown, and abandoning it is safe (its transaction never commits).
 */
/** The lease's name in `job_leases` (see src/store/job-lease.ts). */
export const COOLING_JOB = "cooling";

/**
 * Runs cooling every `intervalMs`. With `lease`, only while this holder has the cooling lease
 * (held for 3 intervals, renewed before each event): daemons sharing one database run it once
 * between them.
 */
export function startCoolingJob(options: CoolingOptions & { intervalMs: number; stopWaitMs?: number; lease?: { holder: string } }): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const lease = options.lease;
  let busy = false;
  const tick = () => {
    // A run longer than the interval (a slow model) is not joined by a second over the same events.
    if (stopped || busy) return;
    busy = true;
    running = (async () => {
      // Renewed before each event too: a run may outlast the lease (20 events at a slow model).
      const holdLease = () => takeLease(options.client, COOLING_JOB, lease!.holder, 3 * options.intervalMs);
      if (lease && !(await holdLease())) return;
      const r = await coolOnce(lease ? { ...options, keepGoing: holdLease } : options);
      if (r.distilled) options.log?.(`cooling: distilled ${r.distilled} events into ${r.facts} facts (${r.fallbacks} deterministic)`);
    })()
      .catch((error) => options.log?.(`cooling run failed, will retry: ${(error as Error).message}`))
      .finally(() => (busy = false));
  };
  const timer = setInterval(tick, options.intervalMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      let wait: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([running, new Promise((resolve) => (wait = setTimeout(resolve, options.stopWaitMs ?? 1000)))]);
      clearTimeout(wait);
      // Another daemon need not wait out the lease.
      if (lease) await releaseLease(options.client, COOLING_JOB, lease.holder).catch(() => {});
    },
  };
}
