// Memory: totals per layer, embedder, storage; growth chart; search across layers with
// filters; each record with its provenance; delete (confirmed, immediate, audited in the log).
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, streamPost } from "./api.ts";
import type { EmbedderAnswer, ImportEvents, MemoryRecord, MemoryStats, ProbeAnswer, RecordAnswer, SaveEmbedderAnswer, SearchAnswer } from "./api-types.ts";
import { LineChart } from "./charts.tsx";
import { Data, Notice, type PageProps, useLoad } from "./components.tsx";
import { bytes } from "./format.ts";
import { errorText, errorWords } from "./errors.ts";
import { named, t, when, word } from "./i18n.ts";
import { ImportFormats } from "./import-formats.tsx";
import { ModelsCard } from "./models-card.tsx";
import { Remembered } from "./remembered.tsx";

/** Days of writing before the growth is drawn: over one or two days a chart is a couple of dots, a sentence says more. */
const CHART_MIN_DAYS = 3;
const LAYERS_SHOWN = ["L1", "L2", "L3"] as const;

function Growth({ growth }: { growth: MemoryStats["growth"] }) {
  const days = [...new Set(growth.map((g) => g.day))].sort();
  if (days.length === 0) return null;
  const written = (layer: string) => growth.filter((g) => g.layer === layer).reduce((a, g) => a + g.n, 0);
  if (days.length < CHART_MIN_DAYS) return <p class="muted growth-summary">{t("memory.growthShort", { days: days.length, l1: written("L1"), l2: written("L2"), l3: written("L3") })}</p>;
  const series = LAYERS_SHOWN.map((layer) => {
    let total = 0;
    return { label: layer, values: days.map((day) => (total += growth.find((g) => g.day === day && g.layer === layer)?.n ?? 0)) };
  });
  const x = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  return <LineChart title={t("memory.growth")} x={x} series={series} time summary={series.map((s) => `${s.label}: ${s.values.at(-1)}`).join(", ")} />;
}

type Fact = Extract<RecordAnswer, { kind: "fact" }>;
/** A fact as stored in a revision's snapshot (a raw row), or as it is now. */
type FactVersion = Record<string, unknown>;

/** The fields of a fact a person cares about, from a stored snapshot (a raw row) or the current record. */
const factFields = (f: FactVersion): Record<string, unknown> => ({
  predicate: f.predicate,
  object: f.object_text ?? f.object,
  kind: f.kind === "fact" ? f.factKind : f.kind,
  confidence: f.confidence,
  importance: f.importance,
  evidence: f.evidence,
  excerpt: f.excerpt ?? (f.provenance as { excerpt?: string } | undefined)?.excerpt ?? null,
});

/** Field-by-field changes between two versions of a fact: the revision history as a diff. */
function FactDiff({ older, newer }: { older: FactVersion; newer: FactVersion }) {
  const [a, b] = [factFields(older), factFields(newer)];
  const changed = Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  if (!changed.length) return <li class="muted">{t("memory.noChange")}</li>;
  return (
    <>
      {changed.map((k) => (
        <li key={k}>
          <code>{k}</code>: <del>{JSON.stringify(a[k])}</del> → <ins>{JSON.stringify(b[k])}</ins>
        </li>
      ))}
    </>
  );
}

function FactEvidence({ fact }: { fact: Fact }) {
  return (
    <>
      <p class="evidence-check">{t("memory.evidenceCheck", { check: word(fact.check) })}</p>
      {fact.provenance.excerpt ? <Data as="blockquote">{fact.provenance.excerpt}</Data> : null}
      {fact.provenance.eventId ? <p class="muted">{t("memory.fromEventSession", { event: fact.provenance.eventId, session: fact.provenance.session })}</p> : null}
      {fact.history.length ? (
        // History is newest first: each old revision is compared with the one that replaced it.
        <ol class="history">
          {fact.history.map((old, i) => (
            <li key={old.revision} data-revision={old.revision}>
              {t("memory.revision", { from: old.revision, to: old.revision + 1, when: when(old.at) })}
              <ul>
                <FactDiff older={old.snapshot} newer={fact.history[i - 1]?.snapshot ?? (fact as unknown as FactVersion)} />
              </ul>
            </li>
          ))}
        </ol>
      ) : (
        <p class="muted">{t("memory.noRevisions")}</p>
      )}
    </>
  );
}

/** Opens on demand: the evidence check (facts), the source messages, and the revision history. */
function RecordDetails({ id }: { id: string }) {
  const [record, setRecord] = useState<RecordAnswer | Error | null>(null);
  const asked = useRef(false);
  function toggled(event: Event) {
    if (!(event.currentTarget as HTMLDetailsElement).open || asked.current) return;
    asked.current = true;
    api<RecordAnswer>("GET", `/api/memory/records/${encodeURIComponent(id)}`).then(setRecord, setRecord);
  }
  let body: ComponentChildren = <p class="muted">{t("memory.loading")}</p>;
  if (record instanceof Error) body = <Notice kind="error">{errorText(record)}</Notice>;
  else if (record)
    body = (
      <>
        <p class="muted record-id">
          {t("memory.id")}
          <code>{record.id}</code>
        </p>
        {record.kind === "event" ? (
          <>
            <p>{t("memory.sourceIds", { ids: record.sources.join(", ") || t("memory.saidHere") })}</p>
            <Data as="pre" class="verbatim">
              {JSON.stringify(record.messages, null, 2)}
            </Data>
          </>
        ) : (
          <FactEvidence fact={record} />
        )}
      </>
    );
  return (
    <details class="step" onToggle={toggled}>
      <summary>{t("memory.details")}</summary>
      <div>{body}</div>
    </details>
  );
}

type Provenance = {
  evidence?: string;
  confidence?: number;
  revision?: number;
  sourceEventId?: string;
  excerpt?: string;
  session?: string;
  speaker?: string;
  sourceId?: string;
  tokens?: number;
  accessCount?: number;
};

function provenanceLine(record: MemoryRecord): string {
  const p = record.provenance as Provenance;
  const parts =
    record.kind === "fact"
      ? [
          t("memory.evidence", { value: word(p.evidence) }),
          t("memory.confidence", { value: p.confidence }),
          t("memory.revisionN", { value: p.revision }),
          p.sourceEventId ? t("memory.fromEvent", { value: p.sourceEventId }) : null,
        ]
      : [
          t("memory.session", { value: p.session }),
          p.speaker ? t("memory.speaker", { value: p.speaker }) : null,
          p.sourceId ? t("memory.sourceMessage", { value: p.sourceId }) : null,
          t("memory.tokens", { n: p.tokens }),
          t("memory.recalledTimes", { n: p.accessCount }),
        ];
  return parts.filter(Boolean).join(" · ");
}

const BADGES = { L1: "memory.badgeL1", L2: "memory.badgeL2", L3: "memory.badgeL3" } as const;

function RecordView({ record, onDeleted }: { record: MemoryRecord; onDeleted: () => void }) {
  const [deleted, setDeleted] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const excerpt = record.kind === "fact" ? (record.provenance as Provenance).excerpt : undefined;

  async function remove() {
    if (!confirm(t("memory.confirmDelete", { text: record.text.slice(0, 200) }))) return;
    try {
      await api("DELETE", `/api/memory/records/${encodeURIComponent(record.id)}`);
    } catch (error) {
      return setRefused(t("memory.cannotDelete", { id: record.id, message: errorText(error) }));
    }
    setDeleted(true);
    onDeleted();
  }

  if (deleted) return <Notice kind="ok">{t("memory.deleted", { id: record.id })}</Notice>;
  const badge = BADGES[record.layer as keyof typeof BADGES];
  return (
    <li class="record" data-id={record.id} data-layer={record.layer}>
      <div class="meta">
        <span class={`badge ${record.layer}`}>{badge ? t(badge) : record.layer}</span>
        {when(record.time)}
        {record.conversation ? (
          <>
            {" · "}
            <Data>{record.conversation}</Data>
          </>
        ) : (
          ""
        )}
        {" · "}
        {word(record.scope)}
        {record.score !== undefined ? (
          <span class="muted">{t("memory.score", { score: record.score.toFixed(4), channels: (record.channels ?? []).map((c) => named("via", c)).join(" + ") })}</span>
        ) : null}
      </div>
      <Data as="p" class="text">
        {record.text}
      </Data>
      {excerpt ? <Data as="blockquote">{excerpt}</Data> : null}
      <p class="muted prov">{provenanceLine(record)}</p>
      <RecordDetails id={record.id} />
      <button type="button" class="quiet danger" aria-label={t("memory.deleteLabel", { id: record.id })} onClick={remove}>
        {t("memory.delete")}
      </button>
      {refused && <Notice kind="error">{refused}</Notice>}
    </li>
  );
}

/** What a form says below it: a status or an error. */
type Said = { text: string; kind: "info" | "ok" | "error" } | null;
const SaidLine = ({ said }: { said: Said }) => (said ? <Notice kind={said.kind}>{said.text}</Notice> : null);

/** History import (JSON Lines as `homed import` reads, or a ChatGPT or Claude export) with a progress bar. */
function ImportForm({ onImported }: { onImported: () => void }) {
  const file = useRef<HTMLInputElement>(null);
  const skip = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [said, setSaid] = useState<Said>(null);

  async function submit(event: Event) {
    event.preventDefault();
    const chosen = file.current?.files?.[0];
    if (!chosen) return;
    setProgress({ done: 0, total: 1 });
    setSaid({ text: t("memory.importing", { file: chosen.name }), kind: "info" });
    try {
      await streamPost<ImportEvents>(`/api/memory/import${skip.current?.checked ? "?skipInvalid=1" : ""}`, await chosen.text(), "application/x-ndjson", (ev) => {
        if (ev.name === "progress") {
          setProgress(ev.data);
          setSaid({ text: t("memory.importingN", { file: chosen.name, done: ev.data.done, total: ev.data.total }), kind: "info" });
        } else if (ev.name === "done") {
          setSaid({ text: t("memory.imported", { file: chosen.name, added: ev.data.added, present: ev.data.present, skipped: ev.data.skipped }), kind: "ok" });
          onImported();
        } else if (ev.name === "error") setSaid({ text: errorWords(ev.data.error, ev.data.message), kind: "error" });
      });
    } catch (error) {
      setSaid({ text: errorText(error), kind: "error" });
    }
  }

  return (
    <form class="card search" aria-label={t("memory.importForm")} onSubmit={submit}>
      <label for="i-file">{t("memory.importLabel")}</label>
      <input ref={file} id="i-file" name="file" type="file" accept=".jsonl,.json,.txt,application/x-ndjson,application/json" required />
      <label for="i-skip">
        <input ref={skip} id="i-skip" name="skip" type="checkbox" />
        {t("memory.skipInvalid")}
      </label>
      <button type="submit">{t("memory.import")}</button>
      <ImportFormats />
      <progress id="i-progress" max={progress?.total ?? 1} value={progress?.done ?? 0} hidden={!progress} aria-label={t("memory.importProgress")} />
      <div aria-live="polite">
        <SaidLine said={said} />
      </div>
    </form>
  );
}

/**
 * Sets up an OpenAI-compatible embedder: probes it with one sentence and says how to start homed
 * with it, or saves it (PUT probes again; a refusal is shown and nothing is saved) for the next start.
 */
function EmbedderForm() {
  const [said, setSaid] = useState<Said>(null);
  const form = useRef<HTMLFormElement>(null);
  // What is saved and whether it waits for a restart, said on every visit (absent without a data folder: no line).
  const [setup, reloadSetup] = useLoad(
    () => api<EmbedderAnswer>("GET", "/api/memory/embedder").catch(() => undefined),
    () => {},
  );
  const waiting = setup?.saved && (setup.restartRequired || setup.overriddenBy) ? setup : undefined;
  async function save() {
    if (!form.current?.reportValidity()) return;
    const f = Object.fromEntries([...new FormData(form.current)].filter(([, v]) => v !== "")) as Record<string, string>;
    setSaid({ text: t("memory.embedProbing"), kind: "info" });
    try {
      const body = { url: f.baseUrl, model: f.model, ...(f.apiKey ? { key: f.apiKey } : {}), ...(f.dimension ? { dimensions: Number(f.dimension) } : {}) };
      const r = await api<SaveEmbedderAnswer>("PUT", "/api/memory/embedder", body);
      const text = t("memory.embedSaved", { model: r.probe!.modelId, dim: r.probe!.dimension, active: r.active }) + (r.overriddenBy ? t("memory.embedOverridden") : "");
      setSaid({ text, kind: "ok" });
      reloadSetup();
    } catch (error) {
      setSaid({ text: (error as Error).message, kind: "error" });
    }
  }
  async function submit(event: Event) {
    event.preventDefault();
    const body = Object.fromEntries([...new FormData(event.currentTarget as HTMLFormElement)].filter(([, v]) => v !== "")) as Record<string, string>;
    setSaid({ text: t("memory.embedProbing"), kind: "info" });
    try {
      const r = await api<ProbeAnswer>("POST", "/api/memory/embedder/probe", body);
      if (!r.ok) return setSaid({ text: r.error, kind: "error" });
      const flags = `-embed-url ${body.baseUrl} -embed-model ${body.model}${body.dimension ? ` -embed-dim ${body.dimension}` : ""}`;
      setSaid({ text: t("memory.embedProbed", { model: r.modelId, dim: r.dimension, ms: r.ms, flags }), kind: "ok" });
    } catch (error) {
      setSaid({ text: errorText(error), kind: "error" });
    }
  }
  return (
    <form class="card embed-setup" data-form="embedder" onSubmit={submit} ref={form}>
      <h2>{t("memory.embedSetup")}</h2>
      <label for="e-url">{t("memory.embedUrl")}</label>
      <input id="e-url" name="baseUrl" required placeholder="http://127.0.0.1:11434/v1" translate={false} />
      <label for="e-model">{t("memory.embedModel")}</label>
      <input id="e-model" name="model" required placeholder="bge-m3" />
      <label for="e-key">{t("memory.embedKey")}</label>
      <input id="e-key" name="apiKey" type="password" autocomplete="off" />
      <label for="e-dim">{t("memory.embedDim")}</label>
      <input id="e-dim" name="dimension" type="number" min={1} />
      <button type="submit">{t("memory.embedProbe")}</button>
      <button type="button" data-action="save-embedder" onClick={save}>
        {t("memory.embedSave")}
      </button>
      {waiting?.saved ? (
        <Notice>
          {t("memory.embedPending", { model: waiting.saved.model, url: waiting.saved.url, active: waiting.active })}
          {waiting.overriddenBy ? t("memory.embedOverridden") : ""}
        </Notice>
      ) : null}
      <div aria-live="polite">
        <SaidLine said={said} />
      </div>
    </form>
  );
}

/** The totals' cards: data-stat (stable, for tests) and their label. */
function Totals({ s }: { s: MemoryStats }) {
  const card = (stat: string, label: Parameters<typeof t>[0], value: ComponentChildren, detail?: ComponentChildren) => (
    <div class="card stat" data-stat={stat}>
      <span class="label">{t(label)}</span>
      <strong>{value}</strong>
      {detail ? <small>{detail}</small> : null}
    </div>
  );
  const layers = s.layers as Record<"L1" | "L2" | "L3", { events: number; tokens: number }>;
  return (
    <div class="cards">
      {card("L1 live", "memory.l1", layers.L1.events, t("memory.tokens", { n: layers.L1.tokens }))}
      {card("L2 cold", "memory.l2", layers.L2.events, t("memory.tokens", { n: layers.L2.tokens }))}
      {card("L3 facts", "memory.l3", s.triples, t("memory.sourceEvents", { n: layers.L3.events }))}
      {card(
        "Embedder",
        "memory.embedder",
        <code>{s.embedder.modelId}</code>,
        s.embedder.vectors ? (
          <>
            {`${t("memory.dimensions", { n: s.embedder.dimension })} · ${t("memory.coverage", { embedded: s.embedder.embedded, events: s.embedder.events })}`}
            {/* Photos in their own model's space (Chinese-CLIP beside a text model), with their own coverage. */}
            {s.embedder.images ? ` · ${t("memory.imageCoverage", { model: s.embedder.images.modelId, embedded: s.embedder.images.embedded, images: s.embedder.images.images })}` : null}
          </>
        ) : (
          <>
            {t("memory.fallbackNote")}
            <code>homed model pull</code>
            {t("memory.fallbackNoteAfter")}
          </>
        ),
      )}
      {card("Storage", "memory.storage", bytes(s.storageBytes))}
    </div>
  );
}

const DAY = 86_400_000;
/** Midnight (local time) starting the day a date input holds ("2026-01-05"). */
const dayStart = (date: string) => new Date(`${date}T00:00:00`).getTime();

/** The layer filter's choices; the first, facts and history, is what the page opens on. */
const LAYERS = ["memories", "L3", "L2", "L1", "all"] as const;
const LAYER_LABELS = { memories: "memory.layer_memories", L3: "memory.layer_L3", L2: "memory.layer_L2", L1: "memory.layer_L1", all: "memory.layer_all" } as const;

function Search({ onDeleted }: { onDeleted: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  /** The records found, with the search that found them (each search draws its list afresh). */
  const [found, setFound] = useState<{ records: MemoryRecord[]; n: number } | Error | null>(null);
  const searches = useRef(0);

  async function search() {
    const n = ++searches.current;
    const fields = [...new FormData(form.current!)].filter(([, v]) => v !== "") as [string, string][];
    // The dates are the reader's days: from the first moment of one to the last of the other.
    const params = new URLSearchParams(fields.map(([k, v]): [string, string] => [k, k === "since" ? String(dayStart(v)) : k === "until" ? String(dayStart(v) + DAY - 1) : v]));
    try {
      const { records } = await api<SearchAnswer>("GET", `/api/memory/search?${params}`);
      if (n === searches.current) setFound({ records, n });
    } catch (error) {
      if (n === searches.current) setFound(error as Error);
    }
  }
  useEffect(() => void search(), []);

  // Raw live events are one click away, not the first thing shown.
  function showRaw() {
    (form.current!.elements.namedItem("layer") as HTMLSelectElement).value = "L1";
    void search();
  }

  return (
    <>
      {/* biome-ignore lint/a11y/useSemanticElements: the form is the search landmark; a <search> wrapper would add a box the grid does not expect */}
      <form
        ref={form}
        class="card search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <label for="m-q">{t("memory.search")}</label>
        <input id="m-q" name="q" type="search" placeholder={t("memory.searchPlaceholder")} />
        <label for="m-layer">{t("memory.layer")}</label>
        <select id="m-layer" name="layer">
          {LAYERS.map((l) => (
            <option key={l} value={l}>
              {t(LAYER_LABELS[l])}
            </option>
          ))}
        </select>
        <label for="m-scope">{t("memory.scope")}</label>
        <select id="m-scope" name="scope">
          <option value="">{t("memory.any")}</option>
          {["conversation", "user", "project"].map((s) => (
            <option key={s} value={s}>
              {word(s)}
            </option>
          ))}
        </select>
        <label for="m-conv">{t("memory.conversation")}</label>
        <input id="m-conv" name="conversation" placeholder={t("memory.any")} />
        <label for="m-since">{t("memory.from")}</label>
        <input id="m-since" name="since" type="date" />
        <label for="m-until">{t("memory.to")}</label>
        <input id="m-until" name="until" type="date" />
        <button type="submit">{t("memory.search")}</button>
      </form>
      <button type="button" class="quiet" onClick={showRaw}>
        {t("memory.showRaw")}
      </button>
      <ul class="records" aria-live="polite">
        {/* A status in a list is one of its items (axe: list). */}
        {found instanceof Error ? (
          <li>
            <Notice kind="error">{errorText(found)}</Notice>
          </li>
        ) : !found ? null : found.records.length ? (
          found.records.map((r) => <RecordView key={`${found.n}/${r.id}`} record={r} onDeleted={onDeleted} />)
        ) : (
          <li>
            <Notice>{t("memory.noMatch")}</Notice>
          </li>
        )}
      </ul>
    </>
  );
}

export function Memory({ fail }: PageProps) {
  const [stats, reloadStats] = useLoad(() => api<MemoryStats>("GET", "/api/memory/stats"), fail);
  return (
    <>
      <h1>{t("memory.title")}</h1>
      {/* People's view first: facts in sentences, their sources, correct and forget. */}
      <Remembered onChanged={reloadStats} />
      {stats && <Totals s={stats} />}
      <div>{stats && <Growth growth={stats.growth} />}</div>
      <ImportForm onImported={reloadStats} />
      <EmbedderForm />
      <ModelsCard />
      <Search onDeleted={reloadStats} />
    </>
  );
}
