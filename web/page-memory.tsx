// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// Memory: totals per layer, embedder, storage; growth chart; search across layers with
// filters; each record with its provenance; delete (confirmed, immediate, audited in the log).
import { api, streamPost } from "./api.ts";
import { lineChart } from "./charts.tsx";
import { bytes, clear, data, h, notice, when } from "./dom.ts";
import { t, word } from "./i18n.ts";

/** Days of writing before the growth is drawn: over one or two days a chart is a couple of dots, a sentence says more. */
const CHART_MIN_DAYS = 3;

function growthChart(growth) {
  const days = [...new Set(growth.map((g) => g.day))].sort();
  if (days.length === 0) return null;
  if (days.length < CHART_MIN_DAYS) {
    const n = (layer) => growth.filter((g) => g.layer === layer).reduce((a, g) => a + g.n, 0);
    return h("p", { class: "muted growth-summary" }, t("memory.growthShort", { days: days.length, l1: n("L1"), l2: n("L2"), l3: n("L3") }));
  }
  const layers = ["L1", "L2", "L3"];
  const series = layers.map((layer) => {
    let total = 0;
    return { label: layer, values: days.map((day) => (total += growth.find((g) => g.day === day && g.layer === layer)?.n ?? 0)) };
  });
  const x = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  const summary = series.map((s) => `${s.label}: ${s.values.at(-1)}`).join(", ");
  return lineChart({ title: t("memory.growth"), x, series, time: true, summary });
}

/** The fields of a fact a person cares about, from a stored snapshot (a raw row) or the current record. */
const factFields = (f) => ({
  predicate: f.predicate,
  object: f.object_text ?? f.object,
  kind: f.kind === "fact" ? f.factKind : f.kind,
  confidence: f.confidence,
  importance: f.importance,
  evidence: f.evidence,
  excerpt: f.excerpt ?? f.provenance?.excerpt ?? null,
});

/** Field-by-field changes between two versions of a fact: the revision history as a diff. */
function factDiff(older, newer) {
  const [a, b] = [factFields(older), factFields(newer)];
  const changed = Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  if (!changed.length) return [h("li", { class: "muted" }, t("memory.noChange"))];
  return changed.map((k) => h("li", {}, h("code", {}, k), ": ", h("del", {}, JSON.stringify(a[k])), " → ", h("ins", {}, JSON.stringify(b[k]))));
}

/** Opens on demand: the evidence check (facts), the source messages, and the revision history. */
function recordDetails(record) {
  const id = h("p", { class: "muted record-id" }, t("memory.id"), h("code", {}, record.id));
  const body = h("div", {}, h("p", { class: "muted" }, t("memory.loading")));
  const details = h("details", { class: "step" }, h("summary", {}, t("memory.details")), body);
  details.addEventListener("toggle", async () => {
    if (!details.open || details.dataset.loaded) return;
    details.dataset.loaded = "1";
    try {
      const r = await api("GET", `/api/memory/records/${encodeURIComponent(record.id)}`);
      if (r.kind === "event") {
        clear(body, id, h("p", {}, t("memory.sourceIds", { ids: r.sources.join(", ") || t("memory.saidHere") })), data(JSON.stringify(r.messages, null, 2), "pre", { class: "verbatim" }));
        return;
      }
      // History is newest first: each old revision is compared with the one that replaced it.
      const history = r.history.map((old, i) =>
        h(
          "li",
          { dataset: { revision: old.revision } },
          t("memory.revision", { from: old.revision, to: old.revision + 1, when: when(old.at) }),
          h("ul", {}, factDiff(old.snapshot, r.history[i - 1]?.snapshot ?? r)),
        ),
      );
      clear(
        body,
        id,
        h("p", { class: "evidence-check" }, t("memory.evidenceCheck", { check: word(r.check) })),
        r.provenance.excerpt ? data(r.provenance.excerpt, "blockquote") : null,
        r.provenance.eventId ? h("p", { class: "muted" }, t("memory.fromEventSession", { event: r.provenance.eventId, session: r.provenance.session })) : null,
        history.length ? h("ol", { class: "history" }, history) : h("p", { class: "muted" }, t("memory.noRevisions")),
      );
    } catch (error) {
      clear(body, notice(error.message, "error"));
    }
  });
  return details;
}

function recordView(record, onDeleted) {
  const p = record.provenance;
  const prov =
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
  const item = h(
    "li",
    { class: "record", dataset: { id: record.id, layer: record.layer } },
    h(
      "div",
      { class: "meta" },
      h("span", { class: `badge ${record.layer}` }, t(`memory.badge${record.layer}`)),
      when(record.time),
      record.conversation ? [" · ", data(record.conversation)] : "",
      " · ",
      word(record.scope),
      record.score !== undefined ? h("span", { class: "muted" }, t("memory.score", { score: record.score.toFixed(4), channels: record.channels.join("+") })) : null,
    ),
    data(record.text, "p", { class: "text" }),
    record.kind === "fact" && p.excerpt ? data(p.excerpt, "blockquote") : null,
    h("p", { class: "muted prov" }, prov.filter(Boolean).join(" · ")),
    recordDetails(record),
    h(
      "button",
      {
        type: "button",
        class: "quiet danger",
        "aria-label": t("memory.deleteLabel", { id: record.id }),
        async onclick() {
          if (!confirm(t("memory.confirmDelete", { text: record.text.slice(0, 200) }))) return;
          try {
            await api("DELETE", `/api/memory/records/${encodeURIComponent(record.id)}`);
          } catch (error) {
            return item.append(notice(t("memory.cannotDelete", { id: record.id, message: error.message }), "error"));
          }
          item.replaceWith(notice(t("memory.deleted", { id: record.id }), "ok"));
          onDeleted();
        },
      },
      t("memory.delete"),
    ),
  );
  return item;
}

/** History import (JSON Lines, as `homed import` reads) with a progress bar. */
function importForm(onImported) {
  const file = h("input", { id: "i-file", name: "file", type: "file", accept: ".jsonl,.json,.txt,application/x-ndjson", required: true });
  const skip = h("input", { id: "i-skip", name: "skip", type: "checkbox" });
  const bar = h("progress", { id: "i-progress", max: 1, value: 0, hidden: true, "aria-label": t("memory.importProgress") });
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card search", "aria-label": t("memory.importForm") },
    h("label", { for: "i-file" }, t("memory.importLabel")),
    file,
    h("label", { for: "i-skip" }, skip, t("memory.skipInvalid")),
    h("button", { type: "submit" }, t("memory.import")),
    bar,
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return;
    bar.hidden = false;
    bar.value = 0;
    clear(out, notice(t("memory.importing", { file: chosen.name })));
    try {
      await streamPost(`/api/memory/import${skip.checked ? "?skipInvalid=1" : ""}`, await chosen.text(), "application/x-ndjson", (name, ev) => {
        if (name === "progress") (bar.max = ev.total), (bar.value = ev.done), clear(out, notice(t("memory.importingN", { file: chosen.name, done: ev.done, total: ev.total })));
        else if (name === "done") clear(out, notice(t("memory.imported", { file: chosen.name, added: ev.added, present: ev.present, skipped: ev.skipped }), "ok")), onImported();
        else if (name === "error") clear(out, notice(ev.message, "error"));
      });
    } catch (error) {
      clear(out, notice(error.message, "error"));
    }
  });
  return form;
}

/** Sets up an OpenAI-compatible embedder: probes it with one sentence and says how to start homed with it. */
function embedderForm() {
  const out = h("div", { "aria-live": "polite" });
  const field = (id, name, label, attrs = {}) => [h("label", { for: id }, t(label)), h("input", { id, name, ...attrs })];
  const form = h(
    "form",
    { class: "card embed-setup", dataset: { form: "embedder" } },
    h("h2", {}, t("memory.embedSetup")),
    ...field("e-url", "baseUrl", "memory.embedUrl", { required: true, placeholder: "http://127.0.0.1:11434/v1", translate: "no" }),
    ...field("e-model", "model", "memory.embedModel", { required: true, placeholder: "bge-m3" }),
    ...field("e-key", "apiKey", "memory.embedKey", { type: "password", autocomplete: "off" }),
    ...field("e-dim", "dimension", "memory.embedDim", { type: "number", min: 1 }),
    h("button", { type: "submit" }, t("memory.embedProbe")),
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = Object.fromEntries([...new FormData(form)].filter(([, v]) => v !== ""));
    clear(out, notice(t("memory.embedProbing")));
    try {
      const r = await api("POST", "/api/memory/embedder/probe", body);
      if (!r.ok) return clear(out, notice(r.error, "error"));
      const flags = `-embed-url ${body.baseUrl} -embed-model ${body.model}${body.dimension ? ` -embed-dim ${body.dimension}` : ""}`;
      clear(out, notice(t("memory.embedProbed", { model: r.modelId, dim: r.dimension, ms: r.ms, flags }), "ok"));
    } catch (error) {
      clear(out, notice(error.message, "error"));
    }
  });
  return form;
}

/** The totals' cards: data-stat (stable, for tests) → their label in STRINGS.memory. */
const STAT_LABELS = { "L1 live": "l1", "L2 cold": "l2", "L3 facts": "l3", Embedder: "embedder", Storage: "storage" };

/** The layer filter's choices; the first, facts and history, is what the page opens on. */
const LAYERS = ["memories", "L3", "L2", "L1", "all"];

export async function renderMemory(view) {
  const totals = h("div", { class: "cards" });
  const charts = h("div");
  async function loadStats() {
    const s = await api("GET", "/api/memory/stats");
    const card = (stat, value, detail) =>
      h("div", { class: "card stat", dataset: { stat } }, h("span", { class: "label" }, t(`memory.${STAT_LABELS[stat]}`)), h("strong", {}, value), detail ? h("small", {}, detail) : null);
    clear(
      totals,
      card("L1 live", s.layers.L1.events, t("memory.tokens", { n: s.layers.L1.tokens })),
      card("L2 cold", s.layers.L2.events, t("memory.tokens", { n: s.layers.L2.tokens })),
      card("L3 facts", s.triples, t("memory.sourceEvents", { n: s.layers.L3.events })),
      card(
        "Embedder",
        h("code", {}, s.embedder.modelId),
        s.embedder.vectors
          ? `${t("memory.dimensions", { n: s.embedder.dimension })} · ${t("memory.coverage", { embedded: s.embedder.embedded, events: s.embedder.events })}`
          : [t("memory.fallbackNote"), h("code", {}, "homed model pull"), t("memory.fallbackNoteAfter")],
      ),
      card("Storage", bytes(s.storageBytes)),
    );
    clear(charts, growthChart(s.growth));
  }
  const results = h("ul", { class: "records", "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card search", role: "search" },
    h("label", { for: "m-q" }, t("memory.search")),
    h("input", { id: "m-q", name: "q", type: "search", placeholder: t("memory.searchPlaceholder") }),
    h("label", { for: "m-layer" }, t("memory.layer")),
    h(
      "select",
      { id: "m-layer", name: "layer" },
      LAYERS.map((l) => h("option", { value: l }, t(`memory.layer_${l}`))),
    ),
    h("label", { for: "m-scope" }, t("memory.scope")),
    h(
      "select",
      { id: "m-scope", name: "scope" },
      h("option", { value: "" }, t("memory.any")),
      ["conversation", "user", "project"].map((s) => h("option", { value: s }, word(s))),
    ),
    h("label", { for: "m-conv" }, t("memory.conversation")),
    h("input", { id: "m-conv", name: "conversation", placeholder: t("memory.any") }),
    h("button", { type: "submit" }, t("memory.search")),
  );
  // Raw live events are one click away, not the first thing shown.
  const showRaw = h("button", { type: "button", class: "quiet", onclick: () => ((form.elements.layer.value = "L1"), search().catch(failed)) }, t("memory.showRaw"));
  const failed = (error) => clear(results, notice(error.message, "error"));
  async function search() {
    const params = new URLSearchParams([...new FormData(form)].filter(([, v]) => v !== ""));
    const { records } = await api("GET", `/api/memory/search?${params}`);
    clear(results, records.length ? records.map((r) => recordView(r, loadStats)) : notice(t("memory.noMatch")));
  }
  form.addEventListener("submit", (e) => (e.preventDefault(), search().catch((error) => clear(results, notice(error.message, "error")))));
  view.append(h("h1", {}, t("memory.title")), totals, charts, importForm(loadStats), embedderForm(), form, showRaw, results);
  await loadStats();
  await search();
}
