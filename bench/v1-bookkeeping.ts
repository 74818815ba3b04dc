/**
 * What issue 17's bookkeeping costs a request, on a real libSQL file: the paused-turn check every
 * turn now makes (a primary-key read of paused_turns; a write only when a round is waiting), and an
 * app key's last-used time (a write at most once a minute, against a write on every request).
 * Baselines in the same run: the session read every /v1 request already makes, and the key lookup
 * alone. Prints numbers; never pass/fail. Run: bun bench/v1-bookkeeping.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppKeys } from "../src/server/app-keys.ts";
import { appKeyByHash, hasPausedTurn, markAppKeyUsed, openSession, openStore, sessionById } from "../src/store/index.ts";

const dir = mkdtempSync(join(tmpdir(), "homed-bench-v1-"));
const store = await openStore({ url: `file:${join(dir, "homed.db")}` });
const client = store.client;
const sessions = await Promise.all(Array.from({ length: 200 }, (_, i) => openSession(client, "openai", `partner-${i}`)));
const keys = new AppKeys(client);
const { key } = await keys.create({ name: "bench" });
const hash = new Bun.CryptoHasher("sha256").update(key).digest("hex");
const N = 2000;

async function time(what: string, run: (i: number) => Promise<unknown>) {
  const started = performance.now();
  for (let i = 0; i < N; i++) await run(i);
  const us = ((performance.now() - started) * 1000) / N;
  console.log(`  ${what}: ${us.toFixed(1)} µs each (${N})`);
}

for (let round = 1; round <= 3; round++) {
  console.log(`round ${round}`);
  await time("baseline: the session read a /v1 request makes", (i) => sessionById(client, sessions[i % sessions.length]!.id));
  await time("paused-turn check (no round waiting)", (i) => hasPausedTurn(client, sessions[i % sessions.length]!.id));
  await time("baseline: key lookup alone", () => appKeyByHash(client, hash));
  const t0 = Date.now();
  await time("verify with last-used, within the minute (as shipped)", () => keys.verify(key, t0));
  await time("verify writing last-used every request (no throttle)", () => appKeyByHash(client, hash).then(() => markAppKeyUsed(client, hash, Date.now())));
}
store.close();
rmSync(dir, { recursive: true, force: true });
