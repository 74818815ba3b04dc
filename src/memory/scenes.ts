/**
 * Scenes: recurring situations, recognised by a weighted fingerprint — channel 1.0, partner
 * 1.0, tools 0.8, topic 0.4, time of day 0.2 — and used to bias recall toward what happened in
 * the same situation.
 *
 * - A fingerprint seen once is only a candidate (a row with one occurrence); the second
 *   occurrence that joins it makes it a scene (min evidence 2): a one-off creates no scene.
 * - A turn joins the most similar scene at similarity ≥ 0.5; each recurrence adds 1 to the
 *   strength, which decays by half every `halfLifeMs` while the scene is idle.
 * - A scene is active for recall at similarity ≥ 0.35 (looser than joining: biasing recall is
 *   cheap to get wrong, merging two situations is not).
 * - A declared scene (`chan:qq/peer:group_1`, from a plugin) takes its features from the key
 *   alone. Similarity always divides by the full weight sum, so matching only the channel of a
 *   declared scene scores 1.0/3.4 ≈ 0.29: a declared scene cannot swallow every later turn of
 *   its channel.
 */
import { randomUUID } from "node:crypto";
import type { Client } from "@libsql/client";
import { allSceneRows, dropStaleSceneCandidates, insertScene, insertSceneCandidate, sceneByKey, sceneRowsSeen, updateScene, type SceneRow } from "../store/index.ts";

export const SCENE_WEIGHTS = { channel: 1.0, partner: 1.0, tools: 0.8, topic: 0.4, timeOfDay: 0.2 } as const;
const WEIGHT_SUM = Object.values(SCENE_WEIGHTS).reduce((a, b) => a + b, 0);

export type SceneConfig = { joinThreshold: number; recallThreshold: number; minEvidence: number; halfLifeMs: number };
export const DEFAULT_SCENES: SceneConfig = { joinThreshold: 0.5, recallThreshold: 0.35, minEvidence: 2, halfLifeMs: 7 * 24 * 3600_000 };

/** How long a first occurrence waits for its second before it is dropped. */
const CANDIDATE_TTL_MS = 30 * 24 * 3600_000;

/** `topic` is search stems (compared); `words` the same input's words as written, to name the scene by (never compared). */
export type Fingerprint = { channel?: string; partner?: string; tools?: string[]; topic?: string[]; words?: string[]; timeOfDay?: string };

export type Scene = { id: string; key: string; declared: boolean; features: Fingerprint; occurrences: number; strength: number; lastSeen: number };

export function timeOfDay(time: number): string {
  const hour = new Date(time).getHours();
  return hour < 6 ? "night" : hour < 12 ? "morning" : hour < 18 ? "afternoon" : "evening";
}

const jaccard = (a: readonly string[], b: readonly string[]) => {
  const x = new Set(a);
  const y = new Set(b);
  if (x.size === 0 && y.size === 0) return 1;
  let both = 0;
  for (const v of x) if (y.has(v)) both++;
  return both / (x.size + y.size - both);
};

/** Weighted similarity in [0, 1]; a feature missing on either side counts as no match. */
export function similarity(a: Fingerprint, b: Fingerprint): number {
  let score = 0;
  if (a.channel !== undefined && a.channel === b.channel) score += SCENE_WEIGHTS.channel;
  if (a.partner !== undefined && a.partner === b.partner) score += SCENE_WEIGHTS.partner;
  if (a.tools && b.tools) score += SCENE_WEIGHTS.tools * jaccard(a.tools, b.tools);
  if (a.topic && b.topic) score += SCENE_WEIGHTS.topic * jaccard(a.topic, b.topic);
  if (a.timeOfDay !== undefined && a.timeOfDay === b.timeOfDay) score += SCENE_WEIGHTS.timeOfDay;
  return score / WEIGHT_SUM;
}

/** The features a declared key names, and nothing else. */
export function declaredFeatures(key: string): Fingerprint {
  const parts = Object.fromEntries(key.split("/").map((p) => p.split(":", 2) as [string, string]));
  return { channel: parts.chan, partner: parts.peer };
}

export const decayedStrength = (scene: Pick<Scene, "strength" | "lastSeen">, now: number, halfLifeMs: number) => scene.strength * 0.5 ** (Math.max(0, now - scene.lastSeen) / halfLifeMs);

const fromRow = (r: SceneRow): Scene => ({
  id: r.id,
  key: r.key,
  declared: r.declared,
  features: JSON.parse(r.features),
  occurrences: r.occurrences,
  strength: r.strength,
  lastSeen: r.lastSeen,
});

async function allRows(client: Client): Promise<Scene[]> {
  return (await allSceneRows(client)).map(fromRow);
}

/**
 * Scenes only, never candidates: every turn asks for its active scene before the model is called,
 * and candidates (one-offs waiting for a second occurrence) can outnumber scenes by far — 10k
 * candidates and 30 scenes: 38 ms a turn when all were read and parsed.
 */
async function sceneRows(client: Client, config: SceneConfig): Promise<Scene[]> {
  return (await sceneRowsSeen(client, config.minEvidence)).map(fromRow);
}

/** Declares a scene by key (idempotent). Declared scenes need no second occurrence. */
export async function declareScene(client: Client, key: string, now = Date.now()): Promise<Scene> {
  await insertScene(client, { id: `scene_${randomUUID()}`, key, declared: true, features: JSON.stringify(declaredFeatures(key)), occurrences: 0, strength: 0, lastSeen: now, createdAt: now });
  return fromRow((await sceneByKey(client, key))!);
}

/** Scenes (never candidates), strongest first, with strength decayed to `now`. */
export async function listScenes(client: Client, now = Date.now(), config: SceneConfig = DEFAULT_SCENES): Promise<Scene[]> {
  return (await sceneRows(client, config)).map((s) => ({ ...s, strength: decayedStrength(s, now, config.halfLifeMs) })).sort((a, b) => b.strength - a.strength);
}

/** Whether the fingerprint names exactly what a declared scene's key names. */
const keyMatches = (scene: Scene, fp: Fingerprint) => scene.declared && Object.entries(scene.features).every(([name, value]) => fp[name as keyof Fingerprint] === value);

/**
 * The scene a fingerprint belongs to most. A declared scene whose key the fingerprint matches
 * wins outright: the plugin that declared it knows the situation better than any similarity.
 */
function best(scenes: readonly Scene[], fp: Fingerprint): { scene: Scene; score: number } | undefined {
  const declared = scenes.find((s) => keyMatches(s, fp));
  if (declared) return { scene: declared, score: 1 };
  let top: { scene: Scene; score: number } | undefined;
  for (const scene of scenes) {
    const score = similarity(fp, scene.features);
    if (!top || score > top.score) top = { scene, score };
  }
  return top;
}

/** The scene recall should favour for this fingerprint, if any is similar enough. */
export async function activeScene(client: Client, fp: Fingerprint, config: SceneConfig = DEFAULT_SCENES): Promise<string | undefined> {
  const top = best(await sceneRows(client, config), fp);
  return top && top.score >= config.recallThreshold ? top.scene.id : undefined;
}

export type Observation = { sceneId?: string; outcome: "joined" | "created" | "candidate" };

/** Records one occurrence of a fingerprint: joins a scene, promotes a candidate, or starts one. */
export async function observeScene(client: Client, fp: Fingerprint, now = Date.now(), config: SceneConfig = DEFAULT_SCENES): Promise<Observation> {
  const rows = await allRows(client);
  const top = best(rows, fp);
  if (top && top.score >= config.joinThreshold) {
    const s = top.scene;
    const strength = decayedStrength(s, now, config.halfLifeMs) + 1;
    const occurrences = s.occurrences + 1;
    // Undeclared scenes follow their situation's drift: the newest fingerprint becomes theirs.
    const features = s.declared ? s.features : fp;
    await updateScene(client, s.id, { occurrences, strength, lastSeen: now, features: JSON.stringify(features) });
    const isScene = s.declared || occurrences >= config.minEvidence;
    return { sceneId: isScene ? s.id : undefined, outcome: isScene && !s.declared && occurrences === config.minEvidence ? "created" : isScene ? "joined" : "candidate" };
  }
  // Candidates that never recurred within the window are forgotten, so one-offs do not pile up.
  await dropStaleSceneCandidates(client, config.minEvidence, now - CANDIDATE_TTL_MS);
  await insertSceneCandidate(client, {
    id: `scene_${randomUUID()}`,
    key: `fp:${randomUUID()}`,
    declared: false,
    features: JSON.stringify(fp),
    occurrences: 1,
    strength: 1,
    lastSeen: now,
    createdAt: now,
  });
  return { outcome: "candidate" };
}
