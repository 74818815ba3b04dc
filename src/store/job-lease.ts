/**
 * A lease in the database on a background job, so that daemons sharing one libSQL server run it
 * once between them (two daemons cooling the same events would each pay the model for them; the
 * second's commit would then find the event gone). The flock on a data folder cannot do this:
 * it is per machine, and each daemon has its own folder.
 *
 * One statement takes or renews a lease: it is free, expired, or already this holder's. A holder
 * that dies simply stops renewing; another takes over once the lease expires.
 */
import type { Client } from "@libsql/client";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";

/** Names this process as a lease holder: readable in the table, unique per process. */
export const leaseHolderId = () => `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** True when `holder` now holds the lease on `job` until `now + ttlMs`. */
export async function takeLease(client: Client, job: string, holder: string, ttlMs: number, now = Date.now()): Promise<boolean> {
  const taken = await client.execute({
    sql: `INSERT INTO job_leases (job, holder, expires_at) VALUES (?, ?, ?)
          ON CONFLICT (job) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
          WHERE job_leases.holder = excluded.holder OR job_leases.expires_at <= ?
          RETURNING holder`,
    args: [job, holder, now + ttlMs, now],
  });
  return taken.rows.length === 1;
}

/** Gives the lease up (if `holder` has it), so another daemon need not wait for it to expire. */
export async function releaseLease(client: Client, job: string, holder: string): Promise<void> {
  await client.execute({ sql: "DELETE FROM job_leases WHERE job = ? AND holder = ?", args: [job, holder] });
}
