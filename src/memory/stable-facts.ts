/**
 * L3, the stable layer: facts as triples whose subject and object are blocks, each carrying its
 * provenance (session, turn, event id, a bounded verbatim excerpt and its hash) and a revision
 * history.
 *
 * Near-duplicates update instead of appending. A new fact in the same scope with the same
 * (normalised) subject and predicate is the same fact when its object is nearly the same text
 * (character-trigram overlap ≥ 0.7, |A∩B| / min(|A|, |B|): "jasmine tea" → "jasmine green tea", a
 * refinement, overlaps 0.89; "jasmine tea" vs "black coffee" 0) and names the same numbers ("room
 * 2" and "room 25" overlap fully but are different facts), or when
 * it is a `correction` (the newest fact of that subject and predicate is replaced: "lives in
 * Beijing" → "lives in Shanghai"). Otherwise it is a new fact ("likes tea" and "likes coffee"
 * are both true). An update increments the revision and keeps the old snapshot; the newest 20
 * snapshots are kept.
 */
import { createHash, randomUUID } from "node:crypto";
import type { Transaction } from "@libsql/client";
import { factsOfSubject, insertBlock, insertTriple, keepRevision, nodeBlockId, reaffirmFact, reviseFact, setFactVector } from "../store/index.ts";
import { indexForSearch, removeFromSearch, scopeKeyOf } from "../search/index.ts";
import type { PrivateScope } from "./scope.ts";
import { maskSecrets, mergeMasked, type MaskedSecret } from "../text/index.ts";

export const TRIPLE_KINDS = ["preference", "decision", "convention", "entity", "todo", "correction", "event"] as const;
export type TripleKind = (typeof TRIPLE_KINDS)[number];
export type Evidence = "verbatim" | "pointer" | "manual" | "summary";

/** Longest excerpt kept with a fact: enough to check a claim, small enough to inject. */
export const EXCERPT_MAX_CHARS = 600;
export const REVISIONS_KEPT = 20;
/** Object overlap at or above which two facts of one subject and predicate are one fact. */
export const NEAR_DUPLICATE_OVERLAP = 0.7;

export type NewFact = {
  subject: string;
  predicate: string;
  object: string;
  kind: TripleKind;
  scope: string;
  /** `partner:NAME` / `project:NAME` when only that partner's or project's chats may recall it. */
  privateTo?: PrivateScope | null;
  confidence: number;
  importance: number;
  evidence: Evidence;
  source?: { session: string; turn: number; eventId: string; text: string };
};

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
export const normalizeNode = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");
export const excerptOf = (text: string) => text.slice(0, EXCERPT_MAX_CHARS);
export const factText = (f: { subject: string; predicate: string; object: string }) => `${f.subject} ${f.predicate} ${f.object}`;

/**
 * The fact with secrets masked in every stored field (subject, predicate, object, excerpt) and
 * what was masked: secrets are never stored as memory. Callers mask before embedding too, so the
 * vector is the masked text's; writing masks again (idempotent) as the guard for every path.
 */
export function maskFactSecrets(fact: NewFact): { fact: NewFact; masked: MaskedSecret[] } {
  const masked: MaskedSecret[] = [];
  const mask = (text: string) => {
    const r = maskSecrets(text);
    mergeMasked(masked, r.masked);
    return r.text;
  };
  const out: NewFact = { ...fact, subject: mask(fact.subject), predicate: mask(fact.predicate), object: mask(fact.object) };
  if (fact.source) out.source = { ...fact.source, text: mask(fact.source.text) };
  return { fact: out, masked };
}

function trigrams(text: string): Set<string> {
  const chars = Array.from(normalizeNode(text));
  const out = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) out.add(chars.slice(i, i + 3).join(""));
  if (out.size === 0 && chars.length) out.add(chars.join(""));
  return out;
}

/** Character-trigram overlap coefficient: 1 when one text's trigrams are all in the other's. */
export function trigramOverlap(a: string, b: string): number {
  const x = trigrams(a);
  const y = trigrams(b);
  let both = 0;
  for (const g of x) if (y.has(g)) both++;
  const smaller = Math.min(x.size, y.size);
  return smaller === 0 ? 1 : both / smaller;
}

const numbersOf = (text: string) => (text.match(/\d+(?:[.,]\d+)*/g) ?? []).sort().join(" ");

/** Whether two objects of one subject and predicate state the same fact. */
export function nearDuplicateObjects(a: string, b: string): boolean {
  return trigramOverlap(a, b) >= NEAR_DUPLICATE_OVERLAP && numbersOf(a) === numbersOf(b);
}

/** Finds or creates the L3 node block for a subject/object text (one block per distinct text). */
async function nodeBlock(tx: Transaction, text: string, now: number): Promise<string> {
  const hash = sha256(normalizeNode(text));
  const found = await nodeBlockId(tx, hash);
  if (found !== undefined) return found;
  const id = `node_${randomUUID()}`;
  await insertBlock(tx, { id, eventId: null, kind: "text", holder: "L3", content: text, sha256: hash, createdAt: now });
  return id;
}

type ExistingFact = { id: string; object: string; revision: number; snapshot: Record<string, unknown> };

async function findSameFact(tx: Transaction, fact: NewFact, subjectId: string): Promise<ExistingFact | undefined> {
  const rows = await factsOfSubject(tx, { scope: fact.scope, privateTo: fact.privateTo ?? null, subjectBlockId: subjectId, predicate: normalizeNode(fact.predicate) });
  const candidates = rows.map((r) => ({ id: r.id, object: r.object_text, revision: r.revision, snapshot: r }));
  if (fact.kind === "correction") return candidates[0];
  return candidates.find((c) => nearDuplicateObjects(c.object, fact.object));
}

/** A fact's dense vector, tagged with the model that made it. */
export type FactVector = { modelId: string; vector: Float32Array };

/** `masked`: the secrets masked out of the fact (kinds and counts), for the caller's log line. */
export type FactWrite = { id: string; action: "created" | "updated" | "unchanged"; revision: number; masked: MaskedSecret[] };

/** Writes one fact inside the caller's transaction: creates it, or updates its near-duplicate. */
export async function writeFact(tx: Transaction, given: NewFact, now: number = Date.now(), vector?: FactVector): Promise<FactWrite> {
  const { fact, masked } = maskFactSecrets(given);
  const subjectId = await nodeBlock(tx, fact.subject, now);
  const objectId = await nodeBlock(tx, fact.object, now);
  const excerpt = fact.source ? excerptOf(fact.source.text) : null;
  const provenance = {
    sourceSession: fact.source?.session ?? null,
    sourceTurn: fact.source?.turn ?? null,
    sourceEventId: fact.source?.eventId ?? null,
    excerpt,
    excerptHash: excerpt === null ? null : sha256(excerpt),
  };
  const same = await findSameFact(tx, fact, subjectId);
  let id: string;
  let revision: number;
  if (same) {
    id = same.id;
    if (normalizeNode(same.object) === normalizeNode(fact.object) && fact.kind !== "correction") {
      await reaffirmFact(tx, id, fact.confidence, fact.importance, now);
      return { id, action: "unchanged", revision: same.revision, masked };
    }
    revision = same.revision + 1;
    // The search rows are found through the fact's row: removed before anything else changes.
    await removeFromSearch(tx, "triple", id);
    await keepRevision(tx, id, same.revision, JSON.stringify({ ...same.snapshot, embedding: undefined }), now, REVISIONS_KEPT);
    await reviseFact(tx, id, {
      objectBlockId: objectId,
      predicate: fact.predicate,
      kind: fact.kind,
      confidence: fact.confidence,
      importance: fact.importance,
      evidence: fact.evidence,
      revision,
      ...provenance,
      updatedAt: now,
    });
  } else {
    id = `fact_${randomUUID()}`;
    revision = 1;
    await insertTriple(tx, {
      id,
      subjectBlockId: subjectId,
      predicate: fact.predicate,
      objectBlockId: objectId,
      kind: fact.kind,
      scope: fact.scope,
      privateTo: fact.privateTo ?? null,
      confidence: fact.confidence,
      importance: fact.importance,
      revision: 1,
      evidence: fact.evidence,
      ...provenance,
      createdAt: now,
      updatedAt: now,
    });
  }
  if (vector) await setFactVector(tx, id, vector.modelId, vector.vector);
  const scopeKey = scopeKeyOf({ conversation: fact.scope, userWide: fact.scope === "user" });
  // Rows removed above for an update: only written here.
  await indexForSearch(tx, "triple", id, { own: factText(fact) }, scopeKey, { isNew: true });
  return { id, action: same ? "updated" : "created", revision, masked };
}
