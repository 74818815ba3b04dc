/** The `scenes` table: recurring situations and the candidates that may become one (memory/scenes.ts). */
import { and, eq, gte, lt, or } from "drizzle-orm";
import { queryDb, type Executor } from "./query-db.ts";
import { scenes } from "./schema.ts";

export type SceneRow = typeof scenes.$inferSelect;

/** Every row, candidates included. */
export function allSceneRows(client: Executor): Promise<SceneRow[]> {
  return queryDb(client).select().from(scenes);
}

/** Declared scenes and those seen at least `minOccurrences` times (no candidates). */
export function sceneRowsSeen(client: Executor, minOccurrences: number): Promise<SceneRow[]> {
  return queryDb(client)
    .select()
    .from(scenes)
    .where(or(eq(scenes.declared, true), gte(scenes.occurrences, minOccurrences)));
}

export async function sceneByKey(client: Executor, key: string): Promise<SceneRow | undefined> {
  const [row] = await queryDb(client).select().from(scenes).where(eq(scenes.key, key));
  return row;
}

/** Adds a scene; a row with the same key already there is left as it is. */
export async function insertScene(client: Executor, row: typeof scenes.$inferInsert): Promise<void> {
  await queryDb(client).insert(scenes).values(row).onConflictDoNothing({ target: scenes.key });
}

/** Adds a candidate (a scene seen once); its key is new, so no conflict is expected. */
export async function insertSceneCandidate(client: Executor, row: typeof scenes.$inferInsert): Promise<void> {
  await queryDb(client).insert(scenes).values(row);
}

export async function updateScene(client: Executor, id: string, set: Pick<SceneRow, "occurrences" | "strength" | "lastSeen" | "features">): Promise<void> {
  await queryDb(client).update(scenes).set(set).where(eq(scenes.id, id));
}

/** Drops undeclared candidates seen fewer than `minOccurrences` times and last before `seenBefore`. */
export async function dropStaleSceneCandidates(client: Executor, minOccurrences: number, seenBefore: number): Promise<void> {
  await queryDb(client)
    .delete(scenes)
    .where(and(eq(scenes.declared, false), lt(scenes.occurrences, minOccurrences), lt(scenes.lastSeen, seenBefore)));
}
