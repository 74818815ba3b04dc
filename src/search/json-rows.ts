/**
 * A query's rows as one JSON value. libSQL's client builds every row it returns as an object with
 * a property defined per column and per index (about a microsecond a row); a search reads a few
 * hundred rows a query — postings records of new terms, candidates checked against the filter —
 * and as the one row of `json_group_array(json_array(…))` they cost one JSON.parse instead: an
 * exact lookup's BM25 at 100k open-vocabulary messages, 2.75 → 2.23 ms p50 (bench/openvocab's
 * kept store, profiled in-process). Blobs travel as `hex(…)`, read back by `fromHex`.
 */
import type { Client, InValue, Transaction } from "@libsql/client";

/**
 * The rows of `sql`, a statement whose one column is `json_group_array(json_array(…))`: one tuple
 * a row, in the order of the json_array's arguments (an empty result is `[]`).
 */
export async function jsonRows<T extends unknown[]>(db: Client | Transaction, sql: string, args: InValue[]): Promise<T[]> {
  const result = await db.execute({ sql, args });
  const json = result.rows[0]?.[0];
  return json === undefined || json === null ? [] : (JSON.parse(String(json)) as T[]);
}

/** A blob read as `hex(…)`: its bytes, in an array of their own (no shared pool behind them). */
export function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length >>> 1);
  Buffer.from(bytes.buffer).write(hex, "hex");
  return bytes;
}
