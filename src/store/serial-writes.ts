/**
 * The one write path. Every write through a store's client — a write transaction, a batch, a
 * statement that changes something — goes through here; reads go straight to the pool.
 *
 * Writers take turns, first come first served: in this process through a queue, across homed
 * processes through a lock file (see write-lock.ts), and only then reach SQLite, where nobody
 * else is writing. Before this, libSQL's pool let writers meet inside SQLite: a second writer
 * waited in SQLite's busy handler, which sleeps on the JS thread, so the writer holding the lock
 * could not reach its COMMIT until the wait ran out in SQLITE_BUSY (measured: 9–60 of 60
 * concurrent turns failed that way).
 *
 * A process that is not homed (a `sqlite3` shell) can still hold SQLite's lock. SQLite then waits
 * up to `BUSY_TIMEOUT_MS` (the busy timeout of every pooled connection); past that, the pool is
 * reopened — the failed statement stays "in progress" on its connection, which would fail every
 * later COMMIT there — and the step is tried again, up to `maxWaitMs`. Only a step that did
 * nothing when it failed is tried again: the BEGIN of a transaction, a whole batch (it rolls
 * back), one statement. A deferred transaction is begun as a write one, so it can never fail
 * half-way when its first write meets another process's commit since its first read.
 *
 * Rule for callers: inside a write transaction, write through that transaction only; a write
 * through the client would wait for the transaction that is waiting for it.
 */
import type { Client, InArgs, InStatement, Replicated, ResultSet, Transaction, TransactionMode } from "@libsql/client";
import { Mutex } from "async-mutex";
import { WriteWaitError, type WriteLock } from "./write-lock.ts";

/** SQLite's own wait for a lock held by a process that is not homed (it blocks the JS thread). */
export const BUSY_TIMEOUT_MS = 5000;

export type WriteWaitOptions = {
  /** Told (at most every 10 s) when a write waits for another process. */
  onWait?: (message: string) => void;
  /** Longest wait for another process's write before giving up (default 2 minutes). */
  maxWaitMs?: number;
};

export const DEFAULT_MAX_WAIT_MS = 120_000;
const NOTICE_EVERY_MS = 10_000;
const RETRY_PAUSE_MS = 10;

type BatchStatement = InStatement | [string, InArgs?];

const sqlOf = (stmt: BatchStatement): string => (typeof stmt === "string" ? stmt : Array.isArray(stmt) ? stmt[0] : stmt.sql);

/**
 * Whether a statement only reads. Conservative: what is not plainly a query is a write, and a
 * query wrongly taken for a write only waits its turn.
 */
export function isReadOnly(sql: string): boolean {
  const text = sql.replace(/^(\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)+/, "");
  const keyword = /^[A-Za-z]+/.exec(text)?.[0].toUpperCase();
  if (keyword === "SELECT" || keyword === "VALUES") return true;
  if (keyword === "WITH" || keyword === "EXPLAIN") return !/\b(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER)\b/i.test(text);
  return false;
}

const isBusy = (error: unknown) => (error as { code?: unknown })?.code === "SQLITE_BUSY";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The client with every write on the one write path; `client` must not be used beside it.
 * `lock`: the cross-process lock of an embedded database (closed with the client).
 */
export function serialWrites(client: Client, options: WriteWaitOptions & { lock?: WriteLock } = {}): Client {
  return new SerialWriteClient(client, options);
}

class SerialWriteClient implements Client {
  private readonly turn = new Mutex();
  private lastNotice = -Infinity;

  constructor(
    private readonly inner: Client,
    private readonly options: WriteWaitOptions & { lock?: WriteLock },
  ) {}

  get closed(): boolean {
    return this.inner.closed;
  }

  get protocol(): string {
    return this.inner.protocol;
  }

  execute(stmt: InStatement): Promise<ResultSet>;
  execute(sql: string, args?: InArgs): Promise<ResultSet>;
  execute(stmtOrSql: InStatement, args?: InArgs): Promise<ResultSet> {
    const stmt: InStatement = typeof stmtOrSql === "string" && args !== undefined ? { sql: stmtOrSql, args } : stmtOrSql;
    if (isReadOnly(sqlOf(stmt))) return this.inner.execute(stmt);
    return this.inTurn(() => this.patiently(() => this.inner.execute(stmt)));
  }

  batch(stmts: BatchStatement[], mode: TransactionMode = "deferred"): Promise<ResultSet[]> {
    if (mode === "read") return this.inner.batch(stmts, mode);
    return this.inTurn(() => this.patiently(() => this.inner.batch(stmts, "write")));
  }

  migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.inTurn(() => this.patiently(() => this.inner.migrate(stmts)));
  }

  /** Not tried again after a busy error: statements before it may have been applied. */
  executeMultiple(sql: string): Promise<void> {
    return this.inTurn(() => this.inner.executeMultiple(sql));
  }

  async transaction(mode: TransactionMode = "write"): Promise<Transaction> {
    if (mode === "read") return this.inner.transaction(mode);
    const release = await this.takeTurn();
    try {
      return new TurnTransaction(await this.patiently(() => this.inner.transaction("write")), release);
    } catch (error) {
      release();
      throw error;
    }
  }

  sync(): Promise<Replicated> {
    return this.inner.sync();
  }

  close(): void {
    this.inner.close();
    this.options.lock?.close();
  }

  reconnect(): void {
    this.inner.reconnect();
  }

  /** Waits for this process's queue, then for the other processes; the result gives the turn back. */
  private async takeTurn(): Promise<() => void> {
    const releaseQueue = await this.turn.acquire();
    const lock = this.options.lock;
    if (!lock) return releaseQueue;
    try {
      await lock.acquire(() => this.notice());
    } catch (error) {
      releaseQueue();
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      try {
        lock.release();
      } finally {
        releaseQueue();
      }
    };
  }

  private async inTurn<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.takeTurn();
    try {
      return await work();
    } finally {
      release();
    }
  }

  /** Runs `attempt`, trying again while another process holds the write lock. */
  private async patiently<T>(attempt: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const maxWaitMs = this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    for (;;) {
      try {
        return await attempt();
      } catch (error) {
        const waited = performance.now() - started;
        if (!isBusy(error)) throw error;
        if (waited >= maxWaitMs) throw new WriteWaitError("the database's write lock", waited, { cause: error });
        // The busy statement stays in progress on its pooled connection: drop them all.
        if (this.options.lock) this.inner.reconnect();
        this.notice();
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }

  private notice(): void {
    const now = performance.now();
    if (!this.options.onWait || now - this.lastNotice < NOTICE_EVERY_MS) return;
    this.lastNotice = now;
    this.options.onWait("waiting for another process to finish writing to the database");
  }
}

/** A write transaction that gives the turn back when it ends, however it ends. */
class TurnTransaction implements Transaction {
  constructor(
    private readonly inner: Transaction,
    private readonly release: () => void,
  ) {}

  get closed(): boolean {
    return this.inner.closed;
  }

  execute(stmt: InStatement): Promise<ResultSet> {
    return this.inner.execute(stmt);
  }

  batch(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.inner.batch(stmts);
  }

  executeMultiple(sql: string): Promise<void> {
    return this.inner.executeMultiple(sql);
  }

  async rollback(): Promise<void> {
    try {
      await this.inner.rollback();
    } finally {
      this.release();
    }
  }

  async commit(): Promise<void> {
    try {
      await this.inner.commit();
    } finally {
      this.release();
    }
  }

  close(): void {
    try {
      this.inner.close();
    } finally {
      this.release();
    }
  }
}
