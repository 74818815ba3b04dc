/**
 * What memory the model sees each turn (DESIGN §3): cold context (L2) and stable facts (L3)
 * ranked for the input, cut into IMMEDIATE / WORKING / BACKGROUND bands under their budgets,
 * plus an active window of the most important facts. Each line carries `(id:xxxxxxxx)` and its
 * evidence mark; ids the model cites gain weight next time. Every injection is audited.
 */
import type { Client } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import { minScoreOf, type InjectionConfig } from "./injection-config.ts";
import { CHANNELS, type Channel } from "./channels.ts";
import { coldcontextQuery, type Candidate } from "./query.ts";
import { recallQuery } from "./recall-query.ts";
import { visibleScopes, type Viewer } from "./scope.ts";
import { sessionPartnersOf, type Access } from "./access.ts";
import { coldUses, countCitation, injectionAuditRecords, insertInjectionAudit, recentColdEvents, standingColdEvents, type InjectionAuditRecord } from "../store/index.ts";
import { queryCoverage } from "./query-coverage.ts";
import { importantFacts, stableQuery } from "./stable-query.ts";
import { configuredItems, sizedForWindow, whileStrong } from "./injection-window.ts";

export const BANDS = ["IMMEDIATE", "WORKING", "BACKGROUND"] as const;
export type Band = (typeof BANDS)[number] | "ACTIVE";

export const EVIDENCE_MARKS: Record<string, string> = {
  verbatim: "verbatim source",
  pointer: "pointer only",
  manual: "written by hand",
  summary: "summary only",
};

export type InjectedLine = {
  id: string;
  layer: "L2" | "L3";
  band: Band;
  score: number;
  evidence: string;
  line: string;
  /** A cold event recall is sure of (`config.restore.maxRank`): a chat may move it back into L1. */
  confident?: boolean;
};

export type Injection = { query: string; text: string; lines: InjectedLine[]; counts: { L2: number; L3: number }; chars: number };

/** The 8 characters shown for an id: its last 8 letters and digits. */
export const shortId = (id: string) => id.replace(/[^a-zA-Z0-9]/g, "").slice(-8);

const SHORT_INPUTS = /^(继续|接着说?|然后呢?|好的?|嗯+|ok(ay)?|go on|continue|more|yes|no)[。.!！?？]*$/i;

type Pick = { id: string; layer: "L2" | "L3"; score: number; text: string; evidence: string; uses: number; confident?: boolean };

function render(p: Pick, band: Band, lineChars: number): InjectedLine {
  const text = p.text.replace(/\s+/g, " ").trim();
  const cut = text.length > lineChars ? `${text.slice(0, lineChars - 1)}…` : text;
  const mark = EVIDENCE_MARKS[p.evidence] ?? p.evidence;
  const line = `- (id:${shortId(p.id)}) [${p.layer} · ${mark}] ${cut}`;
  return { id: p.id, layer: p.layer, band, score: p.score, evidence: p.evidence, line, ...(p.confident ? { confident: true } : {}) };
}

async function recentCold(client: Client, conversation: string | undefined, viewer: Viewer | undefined, limit: number): Promise<Pick[]> {
  const rows = await recentColdEvents(client, { conversation, privateScopes: viewer && visibleScopes(viewer), limit });
  return rows.map((r) => ({ id: r.id, layer: "L2", score: 0, text: r.text, evidence: "verbatim", uses: r.accessCount }));
}

export type InjectionOptions = {
  /** An explicit conversation filter (tools, benchmarks); a chat sets `viewer` and `prefer` instead. */
  conversation?: string;
  /** A chat's partner/project: memory private to any other is never injected. */
  viewer?: Viewer;
  /** A chat's own conversation: ranked first (`config.conversationBoost`); short inputs recall its recent turns. */
  prefer?: string;
  embedder?: Embedder;
  config: InjectionConfig;
  /** The active scene: its memories gain weight. */
  sceneId?: string;
  /** The model's context window in tokens, when known: a larger one gets more memory (injection-window.ts). */
  contextWindow?: number;
};

export async function buildInjection(client: Client, input: string, options: InjectionOptions): Promise<Injection> {
  const { conversation, viewer } = options;
  const config = sizedForWindow(options.config, options.contextWindow);
  const query = input.trim();
  const short = query.length <= config.shortInputChars || SHORT_INPUTS.test(query);

  let ranked: Pick[];
  if (short) {
    ranked = await recentCold(client, conversation ?? options.prefer, viewer, config.bands.immediate.items + config.bands.working.items);
  } else {
    const asked = recallQuery(query);
    const prefer = options.prefer === undefined ? undefined : { conversation: options.prefer, boost: config.conversationBoost };
    const [cold, stable] = await Promise.all([
      coldcontextQuery(client, asked, { k: config.k, conversation, viewer, prefer, embedder: options.embedder }),
      stableQuery(client, asked, { k: config.k, conversation, viewer, prefer, embedder: options.embedder }),
    ]);
    // The channels coldcontextQuery runs (all three; the vector one only with an embedder).
    const ran = CHANNELS.filter((c) => c !== "vector" || options.embedder !== undefined);
    const uses = new Map<string, number>();
    const inScene = new Set<string>();
    for (const r of await coldUses(
      client,
      cold.map((c) => c.id),
    )) {
      uses.set(r.id, r.accessCount);
      if (options.sceneId && r.sceneId === options.sceneId) inScene.add(r.id);
    }
    // Sure of it: first in every channel, and holding enough of the query's words — ranks alone
    // are relative, and with few cold events one shared word ranks first (see isConfident).
    const queryWords = (await asked.terms()).words;
    const confident = new Set<string>();
    for (const c of cold) {
      if (isConfident(c, ran, config.restore.maxRank) && (await queryCoverage(queryWords, c.text)) >= config.restore.minCoverage) confident.add(c.id);
    }
    const boost = (n: number) => 1 + Math.min(n, config.citedBoostCap) * config.citedBoost;
    const sceneBoost = (id: string) => (inScene.has(id) ? 1 + config.sceneBoost : 1);
    ranked = [
      ...cold.map(
        (c): Pick => ({
          id: c.id,
          layer: "L2",
          score: c.score * boost(uses.get(c.id) ?? 0) * sceneBoost(c.id),
          text: c.speaker ? `${c.speaker}: ${c.text}` : c.text,
          evidence: "verbatim",
          uses: uses.get(c.id) ?? 0,
          confident: confident.has(c.id),
        }),
      ),
      ...stable.map((s): Pick => ({ id: s.id, layer: "L3", score: s.score * boost(s.citedCount), text: s.text, evidence: s.evidence, uses: s.citedCount })),
    ]
      .filter((p) => p.score >= minScoreOf(config))
      .sort((a, b) => b.score - a.score);
    ranked = whileStrong(ranked, configuredItems(options.config), config.window.tailRatio);
  }

  const lines: InjectedLine[] = [];
  const taken = new Set<string>();
  let next = 0;
  for (const band of BANDS) {
    const budget = config.bands[band.toLowerCase() as "immediate" | "working" | "background"];
    let chars = 0;
    let items = 0;
    while (next < ranked.length && items < budget.items) {
      const line = render(ranked[next]!, band, config.lineChars);
      if (chars + line.line.length > budget.chars) break;
      lines.push(line);
      taken.add(line.id);
      chars += line.line.length;
      items++;
      next++;
    }
  }

  if (config.activeWindow.max > 0) {
    let chars = 0;
    const limit = config.activeWindow.max + taken.size;
    const facts = await importantFacts(client, { conversation, viewer, minImportance: config.activeWindow.minImportance, limit });
    // Cold events in steady use compete with the facts: one used n times weighs as a fact of
    // importance n / (n + 1) (3 uses: 0.75, just above the facts' default floor of 0.7).
    const standing = await standingColdEvents(client, { minAccesses: config.activeWindow.minAccesses, limit, conversation, privateScopes: viewer && visibleScopes(viewer) });
    const important: (Pick & { importance: number })[] = [
      ...facts.map((f) => ({ ...f, uses: f.citedCount })),
      ...standing.map((e) => ({
        id: e.id,
        layer: "L2" as const,
        score: 0,
        text: e.speaker ? `${e.speaker}: ${e.text}` : e.text,
        evidence: "verbatim",
        uses: e.accessCount,
        importance: e.accessCount / (e.accessCount + 1),
      })),
    ].sort((a, b) => b.importance - a.importance);
    for (const pick of important.filter((p) => !taken.has(p.id)).slice(0, config.activeWindow.max)) {
      const line = render(pick, "ACTIVE", config.lineChars);
      if (chars + line.line.length > config.activeWindow.chars) break;
      lines.push(line);
      chars += line.line.length;
    }
  }

  return injectionOf(query, lines);
}

/** The injection of these lines: the text the model reads, grouped by band, and its counts. */
export function injectionOf(query: string, lines: InjectedLine[]): Injection {
  const sections = (["ACTIVE", ...BANDS] as Band[])
    .map((band) => ({ band, body: lines.filter((l) => l.band === band).map((l) => l.line) }))
    .filter((s) => s.body.length > 0)
    .map((s) => `${s.band}:\n${s.body.join("\n")}`);
  const text = sections.length ? `Memory (cite the id of any memory you use, e.g. "(id:${shortId(lines[0]!.id)})"):\n${sections.join("\n")}` : "";
  return {
    query,
    text,
    lines,
    counts: { L2: lines.filter((l) => l.layer === "L2").length, L3: lines.filter((l) => l.layer === "L3").length },
    chars: text.length,
  };
}

/**
 * Recall is sure of a cold event when every channel that ran ranks it within `maxRank` (0: never).
 * Fused RRF scores are ranks, not confidence, and grow with the number of channels, so the rule
 * is on the ranks. Measured (bench/restore, LoCoMo dev, words + grams): first in every channel,
 * 52.6% of candidates are evidence turns (61% of questions have one); within 2, 35.2%; no rule,
 * 10.9%. Ranks are relative, so the injection also asks for `restore.minCoverage` of the query's
 * words (queryCoverage): with it at 0.5, 60.1% (36% of questions).
 */
export function isConfident(candidate: { channels: Candidate["channels"] }, ran: readonly Channel[], maxRank: number): boolean {
  return maxRank > 0 && ran.every((channel) => (candidate.channels[channel]?.rank ?? Infinity) <= maxRank);
}

/**
 * Records an injection and keeps only the newest `keep` records. `restored`: cold events the turn
 * moved back into L1 instead of injecting them (peek → confirm → move), recorded as band
 * RESTORED — the audit says everything memory brought to the turn.
 */
export async function auditInjection(client: Client, sessionId: string | null, injection: Injection, keep: number, now = Date.now(), restored: readonly string[] = []): Promise<void> {
  const ids = [
    ...injection.lines.map((l) => ({ id: l.id, layer: l.layer, band: l.band, evidence: l.evidence })),
    ...restored.map((id) => ({ id, layer: "L2", band: "RESTORED", evidence: "verbatim" })),
  ];
  await insertInjectionAudit(client, { time: now, sessionId, query: injection.query, ids, counts: injection.counts, chars: injection.chars }, keep);
}

export type AuditRecord = InjectionAuditRecord;

/** The newest audit records the caller may see: a partner, those of its own sessions only (access.ts). */
export function listInjections(client: Client, options: { limit: number; sessionId?: string; access: Access }): Promise<AuditRecord[]> {
  const { access, ...rest } = options;
  return injectionAuditRecords(client, { ...rest, partners: sessionPartnersOf(access) });
}

/**
 * Finds `(id:xxxxxxxx)` citations in a model's answer and gives each cited memory weight: a
 * fact's cited count, an event's access count (which also keeps it from cooling while in use).
 */
export async function recordCitations(client: Client, answer: string, injected: readonly InjectedLine[], now = Date.now()): Promise<string[]> {
  const cited = new Set([...answer.matchAll(/id:([a-zA-Z0-9]{8})/g)].map((m) => m[1]!));
  const hits = injected.filter((l) => cited.has(shortId(l.id)));
  for (const hit of hits) await countCitation(client, hit.layer, hit.id, now);
  return hits.map((h) => h.id);
}
