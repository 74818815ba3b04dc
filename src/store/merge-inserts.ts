/**
 * Bulk writes as multi-row INSERTs: statements with the same `INSERT INTO t (…) VALUES (…)` text
 * become one `VALUES (…), (…), …` statement. Why: the libSQL client keeps native memory in
 * proportion to what it is given to run and gives it back late, so a 100k-message import of
 * single-row INSERTs grew to 4.0 GB (1M: 17 GB, until the machine ran out); merged, 1.7 GB. It
 * is faster too (100k messages: 2,900 → 3,750 a second): one statement per table per batch.
 *
 * Rows of one INSERT move together, in the order each INSERT first appears; so a row may depend
 * only on rows of INSERTs that first appear before its own (an event before its blocks and
 * search rows, as cold events are written).
 */
import type { InArgs, InStatement, InValue } from "@libsql/client";

/** Rows per merged statement, well within SQLite's bound-variable limit for our widest rows. */
const MAX_ROWS = 256;

const INSERT = /^(\s*INSERT INTO\s[^(]+\([^)]*\)\s*VALUES\s*)(\(.*\))\s*$/s;

type Merged = { head: string; tuple: string; rows: InValue[][] };
type Group = Merged | { statement: InStatement };

export function mergeInserts(statements: readonly InStatement[]): InStatement[] {
  const groups = new Map<string, Merged>();
  const order: Group[] = [];
  for (const statement of statements) {
    const sql = typeof statement === "string" ? statement : statement.sql;
    const args: InArgs = typeof statement === "string" ? [] : (statement.args ?? []);
    let group = groups.get(sql);
    // The pattern is matched once per statement text, not per row (it was a fifth of a large
    // import's writing thread).
    const parts = group ? undefined : INSERT.exec(sql);
    if (!Array.isArray(args) || !(group || parts)) {
      order.push({ statement });
      continue;
    }
    if (!group) {
      group = { head: parts![1]!, tuple: parts![2]!, rows: [] };
      groups.set(sql, group);
      order.push(group);
    }
    group.rows.push(args);
  }
  return order.flatMap((group) => {
    if ("statement" in group) return [group.statement];
    const merged: InStatement[] = [];
    for (let start = 0; start < group.rows.length; start += MAX_ROWS) {
      const rows = group.rows.slice(start, start + MAX_ROWS);
      merged.push({ sql: group.head + rows.map(() => group.tuple).join(", "), args: rows.flat() });
    }
    return merged;
  });
}
