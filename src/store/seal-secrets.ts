/**
 * Seals the secrets stored in plaintext before secrets were sealed (run at each daemon start;
 * a no-op once done), and counts the ones the current key cannot open. Overwriting a row is not
 * enough to get its old bytes out of the file: SQLite leaves a rewritten cell's old bytes in the
 * page's free space and keeps old pages in the WAL. `secure_delete` zeroes freed space (measured:
 * sealing 20 keys on one page left 2 plaintexts in the file without it, 0 with it), and a
 * truncating checkpoint empties the WAL, so afterwards neither file holds the plaintext.
 */
import type { Client } from "@libsql/client";
import { SecretBox, SecretUnreadable } from "./secret-box.ts";

export type SealReport = { sealed: number; unreadable: string[] };

export async function sealStoredSecrets(client: Client, box: SecretBox, embedded: boolean): Promise<SealReport> {
  const rows = (await client.execute("SELECT name, value FROM secrets")).rows.map((r) => ({ name: String(r.name), value: String(r.value) }));
  const plain = rows.filter((r) => !SecretBox.isSealed(r.value));
  const unreadable = rows.filter((r) => SecretBox.isSealed(r.value) && !opens(box, r.name, r.value)).map((r) => r.name);
  if (plain.length > 0) {
    if (embedded) await client.execute("PRAGMA secure_delete = ON");
    try {
      await client.batch(
        plain.map((r) => ({ sql: "UPDATE secrets SET value = ? WHERE name = ?", args: [box.seal(r.name, r.value), r.name] })),
        "write",
      );
      if (embedded) await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    } finally {
      // Only for this rewrite: everything else keeps SQLite's default (and its speed).
      if (embedded) await client.execute("PRAGMA secure_delete = OFF");
    }
  }
  return { sealed: plain.length, unreadable };
}

function opens(box: SecretBox, name: string, value: string): boolean {
  try {
    box.open(name, value);
    return true;
  } catch (error) {
    if (error instanceof SecretUnreadable) return false;
    throw error;
  }
}
