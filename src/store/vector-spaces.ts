/**
 * Vector spaces: one indexed table of event vectors per embedding model, at that model's width.
 *
 * `events.embedding` holds a vector of any width, tagged by `events.embed_model`; exact scans
 * (`vector_distance_cos`) compare any two vectors of one width. A libSQL DiskANN index holds a
 * single width (its column's `F32_BLOB(N)`; a 768-dim insert into a 512 index fails), so each
 * model gets a table `(rowid = events.rowid, embedding F32_BLOB(N))` with its own index, created
 * the first time the model's vectors need the index, filled from the events it already has, and
 * kept in step by triggers on `events` (so every writer, including the import's staged UPDATE,
 * maintains it without knowing it exists). A switch of model empties the old table as backfill
 * overwrites each event's vector. Cost: each vector is stored twice (event row + index table).
 */
import type { Executor } from "./query-db.ts";
import { LAYERS } from "./schema.ts";

/**
 * A model's indexed table is built once it has more vectors than this; below, exact scans answer
 * (the vector channel scans up to this many events in scope). Measured (bench/embed, 3,000
 * messages, 512 dims): an import runs at 2,081 messages/s with no index and 135 with the model's
 * indexed table (152 with the old single index on events), and the file is 30.5 MB vs 104.4 MB.
 */
export const INDEX_FROM_VECTORS = 5_000;

export type VectorSpace = { model: string; dimension: number; vectors: string; index: string };

/** Inserts between commits while a new table is filled, so readers and writers get turns. */
const FILL_BATCH = 500;

/** A stable short name for a model id (FNV-1a), since model ids may hold any character. */
function tableName(model: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < model.length; i++) hash = Math.imul(hash ^ model.charCodeAt(i), 0x01000193);
  return `event_vectors_${(hash >>> 0).toString(16).padStart(8, "0")}`;
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

const spaceOf = (row: Record<string, unknown>): VectorSpace => ({
  model: String(row.model),
  dimension: Number(row.dimension),
  vectors: String(row.vectors),
  index: `${String(row.vectors)}_idx`,
});

/** The model's space if it has been created, else undefined. */
export async function findVectorSpace(db: Executor, model: string): Promise<VectorSpace | undefined> {
  const rows = await db.execute({ sql: "SELECT model, dimension, vectors FROM vector_spaces WHERE model = ?", args: [model] });
  return rows.rows[0] ? spaceOf(rows.rows[0]) : undefined;
}

/** The width of the model's stored event vectors (bytes / 4), or undefined when it has none yet. */
async function storedWidth(db: Executor, model: string): Promise<number | undefined> {
  const rows = await db.execute({
    // Each layer named so the (layer, embed_model) index answers instead of a scan of events.
    sql: `SELECT length(embedding) / 4 AS dim FROM events WHERE layer IN (${LAYERS.map(literal).join(", ")}) AND embed_model = ? AND embedding IS NOT NULL LIMIT 1`,
    args: [model],
  });
  const dim = rows.rows[0]?.dim;
  return dim === undefined || dim === null ? undefined : Number(dim);
}

/**
 * Creates the model's space (table, DiskANN index, triggers) and fills it from the events that
 * already carry its vectors. Its width is that of the stored vectors, so it is known without
 * asking the model; with none stored yet there is nothing to index and nothing is created.
 * Safe to call again and from several processes (IF NOT EXISTS, INSERT OR REPLACE).
 */
export async function ensureVectorSpace(db: Executor, model: string): Promise<VectorSpace | undefined> {
  const known = await findVectorSpace(db, model);
  if (known) return known;
  const dimension = await storedWidth(db, model);
  if (dimension === undefined) return undefined;
  const vectors = tableName(model);
  const index = `${vectors}_idx`;
  const mine = `NEW.embed_model = ${literal(model)} AND NEW.embedding IS NOT NULL`;
  await db.execute(`CREATE TABLE IF NOT EXISTS ${vectors} (rowid INTEGER PRIMARY KEY, embedding F32_BLOB(${dimension}) NOT NULL)`);
  // The same tuning as the old events index (migration 0003): float8 neighbour lists, 32 neighbours.
  await db.execute(`CREATE INDEX IF NOT EXISTS ${index} ON ${vectors} (libsql_vector_idx(embedding, 'metric=cosine', 'compress_neighbors=float8', 'max_neighbors=32'))`);
  await db.execute(`CREATE TRIGGER IF NOT EXISTS ${vectors}_ins AFTER INSERT ON events WHEN ${mine}
    BEGIN INSERT OR REPLACE INTO ${vectors} (rowid, embedding) VALUES (NEW.rowid, NEW.embedding); END`);
  await db.execute(`CREATE TRIGGER IF NOT EXISTS ${vectors}_upd AFTER UPDATE OF embedding, embed_model ON events
    BEGIN
      DELETE FROM ${vectors} WHERE rowid = OLD.rowid;
      INSERT INTO ${vectors} (rowid, embedding) SELECT NEW.rowid, NEW.embedding WHERE ${mine};
    END`);
  await db.execute(`CREATE TRIGGER IF NOT EXISTS ${vectors}_del AFTER DELETE ON events BEGIN DELETE FROM ${vectors} WHERE rowid = OLD.rowid; END`);
  // Only vectors of this width: a model that changed width under one name would fail the insert.
  for (let cursor = 0; ; ) {
    const page = await db.execute({
      sql: `SELECT max(rowid) AS last, count(*) AS n FROM (SELECT rowid FROM events
            WHERE embed_model = ? AND embedding IS NOT NULL AND length(embedding) = ? AND rowid > ? ORDER BY rowid LIMIT ?)`,
      args: [model, dimension * 4, cursor, FILL_BATCH],
    });
    if (Number(page.rows[0]?.n ?? 0) === 0) break;
    const last = Number(page.rows[0]!.last);
    await db.execute({
      sql: `INSERT OR REPLACE INTO ${vectors} (rowid, embedding) SELECT rowid, embedding FROM events
            WHERE embed_model = ? AND embedding IS NOT NULL AND length(embedding) = ? AND rowid > ? AND rowid <= ?`,
      args: [model, dimension * 4, cursor, last],
    });
    cursor = last;
  }
  await db.execute({
    sql: "INSERT OR IGNORE INTO vector_spaces (model, dimension, vectors, created_at) VALUES (?, ?, ?, ?)",
    args: [model, dimension, vectors, Date.now()],
  });
  return { model, dimension, vectors, index };
}

/** How many events carry the model's vectors, and how many events there are (for coverage). */
export async function vectorCoverage(db: Executor, model: string): Promise<{ embedded: number; events: number }> {
  const rows = await db.execute({
    sql: `SELECT (SELECT count(*) FROM events WHERE layer IN (${LAYERS.map(literal).join(", ")}) AND embed_model = ?) AS embedded, (SELECT count(*) FROM events) AS events`,
    args: [model],
  });
  return { embedded: Number(rows.rows[0]?.embedded ?? 0), events: Number(rows.rows[0]?.events ?? 0) };
}
