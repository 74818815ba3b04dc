/**
 * Applies the embedded migrations. Idempotent: each applied migration is recorded in
 * `homed_migrations` with the sha256 of its SQL. A database that records a migration this
 * binary does not know (written by a newer homed) or a different SQL under the same index is
 * refused before anything is written.
 */
import { createHash } from "node:crypto";
import type { Client, Transaction } from "@libsql/client";
import { MIGRATIONS } from "./migrations/index.ts";
import { HomedError } from "../errors/index.ts";

export type Migration = { idx: number; tag: string; sql: string };

export class SchemaMismatchError extends HomedError {
  constructor(message: string) {
    super("schema_mismatch", message);
    this.name = "SchemaMismatchError";
  }
}

const hashOf = (sql: string) => createHash("sha256").update(sql).digest("hex");

/** Splits a drizzle-kit migration file into statements. */
function statementsOf(sql: string): string[] {
  return sql
    .split("--> statement-breakpoint")
    .map((s) => s.trim())
    .filter((s) => s.replace(/^--.*$/gm, "").trim().length > 0);
}

type AppliedRow = { idx: number; tag: string; hash: string };

async function appliedMigrations(client: Client | Transaction): Promise<AppliedRow[]> {
  const table = await client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'homed_migrations'");
  if (table.rows.length === 0) return [];
  const rows = await client.execute("SELECT idx, tag, hash FROM homed_migrations ORDER BY idx");
  return rows.rows.map((r) => ({ idx: Number(r.idx), tag: String(r.tag), hash: String(r.hash) }));
}

export type MigrationStatus = { applied: number; pending: number; known: number };

/** Throws SchemaMismatchError when the database was written by a schema this binary does not know. */
async function checkCompatible(client: Client | Transaction, migrations: readonly Migration[]): Promise<AppliedRow[]> {
  const applied = await appliedMigrations(client);
  const known = new Map(migrations.map((m) => [m.idx, m]));
  for (const row of applied) {
    const ours = known.get(row.idx);
    if (!ours) {
      const newest = migrations.at(-1)?.tag ?? "none";
      throw new SchemaMismatchError(`Cannot open database: it was written by a newer homed (schema ${row.tag}; this binary knows up to ${newest}). Upgrade homed; the database was not modified.`);
    }
    if (ours.tag !== row.tag || hashOf(ours.sql) !== row.hash) {
      throw new SchemaMismatchError(
        `Cannot open database: migration ${row.idx} (${row.tag}) differs from this binary's (${ours.tag}); it was written by another build of homed. The database was not modified.`,
      );
    }
  }
  return applied;
}

export async function migrationStatus(client: Client, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationStatus> {
  const applied = await checkCompatible(client, migrations);
  return { applied: applied.length, pending: migrations.length - applied.length, known: migrations.length };
}

/**
 * Brings the database up to date in one write transaction, which also reads what is applied: two
 * processes starting at once (two daemons on one libSQL server, a daemon and `homed import` on
 * a fresh file) take turns, and the second finds the migrations done. Read outside the
 * transaction, both would apply migration 0 and the second would fail (measured with two daemons
 * on one sqld: "UNIQUE constraint failed: homed_migrations.idx").
 */
export async function migrate(client: Client, migrations: readonly Migration[] = MIGRATIONS): Promise<number> {
  // Refused before anything is written (and before waiting for a write turn).
  await checkCompatible(client, migrations);
  const tx = await client.transaction("write");
  try {
    const applied = await checkCompatible(tx, migrations);
    const done = new Set(applied.map((a) => a.idx));
    await tx.execute("CREATE TABLE IF NOT EXISTS homed_migrations (idx INTEGER PRIMARY KEY, tag TEXT NOT NULL, hash TEXT NOT NULL, applied_at INTEGER NOT NULL)");
    let count = 0;
    for (const m of migrations) {
      if (done.has(m.idx)) continue;
      for (const statement of statementsOf(m.sql)) await tx.execute(statement);
      await tx.execute({ sql: "INSERT INTO homed_migrations (idx, tag, hash, applied_at) VALUES (?, ?, ?, ?)", args: [m.idx, m.tag, hashOf(m.sql), Date.now()] });
      count++;
    }
    await tx.commit();
    return count;
  } finally {
    tx.close();
  }
}
