/**
 * What memory the model sees each turn (DESIGN §3): cold context (L2) and stable facts (L3)
 * ranked for the input, cut into IMMEDIATE / WORKING / BACKGROUND bands under their budgets,
 * plus an active window of the most important facts. Each line carries `(id:xxxxxxxx)` and its
 * evidence mark; ids the model cites gain weight next time. Every injection is audited.
 */
import type { Client } from "@libsql/client";
import type { Embedder } from "../embed/index.ts";
import type { InjectionConfig } from "./injection-config.ts";
import { coldcontextQuery } from "./query.ts";
import { recallQuery } from "./recall-query.ts";
import { viewerFilter, type Viewer } from "./scope.ts";
import { importantFacts, stableQuery } from "./stable-query.ts";

export const BANDS = ["IMMEDIATE", "WORKING", "BACKGROUND"] as const;
export type Band = (typeof BANDS)[number] | "ACTIVE";

export const EVIDENCE_MARKS: Record<string, string> = {
  verbatim: "verbatim source",
  pointer: "pointer only",
  manual: "written by hand",
  summary: "summary only",
};

export type InjectedLine = { id: string; layer: "L2" | "L3"; band: Band; score: number; evidence: string; line: string };

export type Injection = { query: string; text: string; lines: InjectedLine[]; counts: { L2: number; L3: number }; chars: number };

/** The 8 characters shown for an id: its last 8 letters and digits. */
export const shortId = (id: string) => id.replace(/[^a-zA-Z0-9]/g, "").slice(-8);

const SHORT_INPUTS = /^(继续|接着说?|然后呢?|好的?|嗯+|ok(ay)?|go on|continue|more|yes|no)[。.!！?？]*$/i;

type Pick = { id: string; layer: "L2" | "L3"; score: number; text: string; evidence: string; uses: number };

function render(p: Pick, band: Band, lineChars: number): InjectedLine {
  const text = p.text.replace(/\s+/g, " ").trim();
  const cut = text.length > lineChars ? `${text.slice(0, lineChars - 1)}…` : text;
  const mark = EVIDENCE_MARKS[p.evidence] ?? p.evidence;
  return { id: p.id, layer: p.layer, band, score: p.score, evidence: p.evidence, line: `- (id:${shortId(p.id)}) [${p.layer} · ${mark}] ${cut}` };
}

async function recentCold(client: Client, conversation: string | undefined, viewer: Viewer | undefined, limit: number): Promise<Pick[]> {
  const visible = viewer && viewerFilter(viewer, "events");
  const rows = await client.execute({
    sql: `SELECT id, text, access_count FROM events WHERE layer = 'L2' ${conversation === undefined ? "" : "AND (conversation = ? OR scope = 'user')"} ${visible ? `AND ${visible.sql}` : ""} ORDER BY time DESC LIMIT ?`,
    args: [...(conversation === undefined ? [] : [conversation]), ...(visible?.args ?? []), limit],
  });
  return rows.rows.map((r) => ({ id: String(r.id), layer: "L2", score: 0, text: String(r.text), evidence: "verbatim", uses: Number(r.access_count) }));
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
};

export async function buildInjection(client: Client, input: string, options: InjectionOptions): Promise<Injection> {
  const { config, conversation, viewer } = options;
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
    const uses = new Map<string, number>();
    const inScene = new Set<string>();
    if (cold.length) {
      const rows = await client.execute({ sql: `SELECT id, access_count, scene_id FROM events WHERE id IN (${cold.map(() => "?").join(", ")})`, args: cold.map((c) => c.id) });
      for (const r of rows.rows) {
        uses.set(String(r.id), Number(r.access_count));
        if (options.sceneId && r.scene_id === options.sceneId) inScene.add(String(r.id));
      }
    }
    const boost = (n: number) => 1 + Math.min(n, config.citedBoostCap) * config.citedBoost;
    const sceneBoost = (id: string) => (inScene.has(id) ? 1 + config.sceneBoost : 1);
    ranked = [
      ...cold.map((c): Pick => ({ id: c.id, layer: "L2", score: c.score * boost(uses.get(c.id) ?? 0) * sceneBoost(c.id), text: c.speaker ? `${c.speaker}: ${c.text}` : c.text, evidence: "verbatim", uses: uses.get(c.id) ?? 0 })),
      ...stable.map((s): Pick => ({ id: s.id, layer: "L3", score: s.score * boost(s.citedCount), text: s.text, evidence: s.evidence, uses: s.citedCount })),
    ]
      .filter((p) => p.score >= config.minScore)
      .sort((a, b) => b.score - a.score);
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
    const facts = await importantFacts(client, { conversation, viewer, minImportance: config.activeWindow.minImportance, limit: config.activeWindow.max + taken.size });
    for (const fact of facts.filter((f) => !taken.has(f.id)).slice(0, config.activeWindow.max)) {
      const line = render({ ...fact, uses: fact.citedCount }, "ACTIVE", config.lineChars);
      if (chars + line.line.length > config.activeWindow.chars) break;
      lines.push(line);
      chars += line.line.length;
    }
  }

  const sections = (["ACTIVE", ...BANDS] as Band[])
    .map((band) => ({ band, body: lines.filter((l) => l.band === band).map((l) => l.line) }))
    .filter((s) => s.body.length > 0)
    .map((s) => `${s.band}:\n${s.body.join("\n")}`);
  const text = sections.length
    ? `Memory (cite the id of any memory you use, e.g. "(id:${shortId(lines[0]!.id)})"):\n${sections.join("\n")}`
    : "";
  return {
    query,
    text,
    lines,
    counts: { L2: lines.filter((l) => l.layer === "L2").length, L3: lines.filter((l) => l.layer === "L3").length },
    chars: text.length,
  };
}

/** Records an injection and keeps only the newest `keep` records. */
export async function auditInjection(client: Client, sessionId: string | null, injection: Injection, keep: number, now = Date.now()): Promise<void> {
  await client.batch(
    [
      {
        sql: "INSERT INTO injection_audit (time, session_id, query, ids, counts, chars) VALUES (?, ?, ?, ?, ?, ?)",
        args: [now, sessionId, injection.query, JSON.stringify(injection.lines.map((l) => ({ id: l.id, layer: l.layer, band: l.band, evidence: l.evidence }))), JSON.stringify(injection.counts), injection.chars],
      },
      { sql: "DELETE FROM injection_audit WHERE id <= (SELECT max(id) FROM injection_audit) - ?", args: [keep] },
    ],
    "write",
  );
}

export type AuditRecord = { id: number; time: number; sessionId: string | null; query: string; ids: { id: string; layer: string; band: string; evidence: string }[]; counts: { L2: number; L3: number }; chars: number };

export async function listInjections(client: Client, options: { limit: number; sessionId?: string }): Promise<AuditRecord[]> {
  const rows = await client.execute({
    sql: `SELECT * FROM injection_audit ${options.sessionId ? "WHERE session_id = ?" : ""} ORDER BY id DESC LIMIT ?`,
    args: [...(options.sessionId ? [options.sessionId] : []), options.limit],
  });
  return rows.rows.map((r) => ({
    id: Number(r.id),
    time: Number(r.time),
    sessionId: r.session_id == null ? null : String(r.session_id),
    query: String(r.query),
    ids: JSON.parse(String(r.ids)),
    counts: JSON.parse(String(r.counts)),
    chars: Number(r.chars),
  }));
}

/**
 * Finds `(id:xxxxxxxx)` citations in a model's answer and gives each cited memory weight: a
 * fact's cited count, an event's access count (which also keeps it from cooling while in use).
 */
export async function recordCitations(client: Client, answer: string, injected: readonly InjectedLine[], now = Date.now()): Promise<string[]> {
  const cited = new Set([...answer.matchAll(/id:([a-zA-Z0-9]{8})/g)].map((m) => m[1]!));
  const hits = injected.filter((l) => cited.has(shortId(l.id)));
  for (const hit of hits) {
    await client.execute(
      hit.layer === "L3"
        ? { sql: "UPDATE triples SET cited_count = cited_count + 1, last_access = ? WHERE id = ?", args: [now, hit.id] }
        : { sql: "UPDATE events SET access_count = access_count + 1, last_access = ? WHERE id = ?", args: [now, hit.id] },
    );
  }
  return hits.map((h) => h.id);
}
