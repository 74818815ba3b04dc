// Memory: totals per layer, embedder, storage; growth chart; search across layers with
// filters; each record with its provenance; delete (confirmed, immediate, audited in the log).
import { api, streamPost } from "/assets/api.js";
import { lineChart } from "/assets/charts.js";
import { bytes, clear, h, notice, when } from "/assets/dom.js";

function growthChart(growth) {
  const days = [...new Set(growth.map((g) => g.day))].sort();
  if (days.length === 0) return null;
  const layers = ["L1", "L2", "L3"];
  const series = layers.map((layer) => {
    let total = 0;
    return { label: layer, values: days.map((day) => (total += growth.find((g) => g.day === day && g.layer === layer)?.n ?? 0)) };
  });
  const x = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  const summary = series.map((s) => `${s.label}: ${s.values.at(-1)}`).join(", ");
  return lineChart({ title: "Memory growth (events written, by the layer they are in now)", x, series, time: true, summary });
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
  if (!changed.length) return [h("li", { class: "muted" }, "no visible change")];
  return changed.map((k) => h("li", {}, h("code", {}, k), ": ", h("del", {}, JSON.stringify(a[k])), " → ", h("ins", {}, JSON.stringify(b[k]))));
}

/** Opens on demand: the evidence check (facts), the source messages, and the revision history. */
function recordDetails(record) {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading…"));
  const details = h("details", { class: "step" }, h("summary", {}, "evidence and history"), body);
  details.addEventListener("toggle", async () => {
    if (!details.open || details.dataset.loaded) return;
    details.dataset.loaded = "1";
    try {
      const r = await api("GET", `/api/memory/records/${encodeURIComponent(record.id)}`);
      if (r.kind === "event") {
        clear(body, h("p", {}, `source ids: ${r.sources.join(", ") || "none (said here)"}`), h("pre", { class: "verbatim" }, JSON.stringify(r.messages, null, 2)));
        return;
      }
      // History is newest first: each old revision is compared with the one that replaced it.
      const history = r.history.map((old, i) =>
        h("li", { dataset: { revision: old.revision } }, `revision ${old.revision} → ${old.revision + 1} · ${when(old.at)}`, h("ul", {}, factDiff(old.snapshot, r.history[i - 1]?.snapshot ?? r))));
      clear(
        body,
        h("p", { class: "evidence-check" }, `evidence check: ${r.check}`),
        r.provenance.excerpt ? h("blockquote", {}, r.provenance.excerpt) : null,
        r.provenance.eventId ? h("p", { class: "muted" }, `from event ${r.provenance.eventId}, session ${r.provenance.session}`) : null,
        history.length ? h("ol", { class: "history" }, history) : h("p", { class: "muted" }, "no earlier revisions"),
      );
    } catch (error) {
      clear(body, notice(error.message, "error"));
    }
  });
  return details;
}

function recordView(record, onDeleted) {
  const p = record.provenance;
  const prov = record.kind === "fact"
    ? [`evidence ${p.evidence}`, `confidence ${p.confidence}`, `revision ${p.revision}`, p.sourceEventId ? `from event ${p.sourceEventId}` : null]
    : [`session ${p.session}`, p.speaker ? `speaker ${p.speaker}` : null, p.sourceId ? `source message ${p.sourceId}` : null, `${p.tokens} tokens`, `recalled ${p.accessCount}×`];
  const item = h(
    "li",
    { class: "record", dataset: { id: record.id, layer: record.layer } },
    h("div", { class: "meta" }, h("span", { class: `badge ${record.layer}` }, record.layer), h("code", {}, record.id), ` · ${when(record.time)}`, record.conversation ? ` · ${record.conversation}` : "", ` · ${record.scope}`,
      record.score !== undefined ? h("span", { class: "muted" }, ` · score ${record.score.toFixed(4)} via ${record.channels.join("+")}`) : null),
    h("p", { class: "text" }, record.text),
    record.kind === "fact" && p.excerpt ? h("blockquote", {}, p.excerpt) : null,
    h("p", { class: "muted prov" }, prov.filter(Boolean).join(" · ")),
    recordDetails(record),
    h("button", {
      type: "button",
      class: "quiet danger",
      "aria-label": `Delete memory ${record.id}`,
      async onclick() {
        if (!confirm(`Delete this memory for good?\n\n${record.text.slice(0, 200)}`)) return;
        try {
          await api("DELETE", `/api/memory/records/${encodeURIComponent(record.id)}`);
        } catch (error) {
          return item.append(notice(`Cannot delete ${record.id}: ${error.message}`, "error"));
        }
        item.replaceWith(notice(`Deleted ${record.id}.`, "ok"));
        onDeleted();
      },
    }, "Delete"),
  );
  return item;
}

/** History import (JSON Lines, as `homed import` reads) with a progress bar. */
function importForm(onImported) {
  const file = h("input", { id: "i-file", name: "file", type: "file", accept: ".jsonl,.json,.txt,application/x-ndjson", required: true });
  const skip = h("input", { id: "i-skip", name: "skip", type: "checkbox" });
  const bar = h("progress", { id: "i-progress", max: 1, value: 0, hidden: true, "aria-label": "Import progress" });
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card search", "aria-label": "Import history" },
    h("label", { for: "i-file" }, "Import history (JSON Lines)"),
    file,
    h("label", { for: "i-skip" }, skip, " skip invalid lines"),
    h("button", { type: "submit" }, "Import"),
    bar,
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) return;
    bar.hidden = false;
    bar.value = 0;
    clear(out, notice(`Importing ${chosen.name}…`));
    try {
      await streamPost(`/api/memory/import${skip.checked ? "?skipInvalid=1" : ""}`, await chosen.text(), "application/x-ndjson", (name, data) => {
        if (name === "progress") (bar.max = data.total), (bar.value = data.done), clear(out, notice(`Importing ${chosen.name}: ${data.done} of ${data.total} messages`));
        else if (name === "done") clear(out, notice(`Imported ${chosen.name}: ${data.added} added, ${data.present} already present, ${data.skipped} invalid skipped.`, "ok")), onImported();
        else if (name === "error") clear(out, notice(data.message, "error"));
      });
    } catch (error) {
      clear(out, notice(error.message, "error"));
    }
  });
  return form;
}

export async function renderMemory(view) {
  const totals = h("div", { class: "cards" });
  const charts = h("div");
  async function loadStats() {
    const s = await api("GET", "/api/memory/stats");
    const card = (label, value, detail) => h("div", { class: "card stat", dataset: { stat: label } }, h("span", { class: "label" }, label), h("strong", {}, value), detail ? h("small", {}, detail) : null);
    clear(
      totals,
      card("L1 live", s.layers.L1.events, `${s.layers.L1.tokens} tokens`),
      card("L2 cold", s.layers.L2.events, `${s.layers.L2.tokens} tokens`),
      card("L3 facts", s.triples, `${s.layers.L3.events} source events`),
      card("Embedder", h("code", {}, s.embedder.modelId), `${s.embedder.dimension} dimensions`),
      card("Storage", bytes(s.storageBytes)),
    );
    clear(charts, growthChart(s.growth));
  }
  const results = h("ul", { class: "records", "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card search", role: "search" },
    h("label", { for: "m-q" }, "Search"),
    h("input", { id: "m-q", name: "q", type: "search", placeholder: "words or names" }),
    h("label", { for: "m-layer" }, "Layer"),
    h("select", { id: "m-layer", name: "layer" }, ["all", "L1", "L2", "L3"].map((l) => h("option", { value: l }, l))),
    h("label", { for: "m-scope" }, "Scope"),
    h("select", { id: "m-scope", name: "scope" }, h("option", { value: "" }, "any"), ["conversation", "user", "project"].map((s) => h("option", { value: s }, s))),
    h("label", { for: "m-conv" }, "Conversation"),
    h("input", { id: "m-conv", name: "conversation", placeholder: "any" }),
    h("button", { type: "submit" }, "Search"),
  );
  async function search() {
    const params = new URLSearchParams([...new FormData(form)].filter(([, v]) => v !== ""));
    const { records } = await api("GET", `/api/memory/search?${params}`);
    clear(results, records.length ? records.map((r) => recordView(r, loadStats)) : notice("No memory matches."));
  }
  form.addEventListener("submit", (e) => (e.preventDefault(), search().catch((error) => clear(results, notice(error.message, "error")))));
  view.append(h("h1", {}, "Memory"), totals, charts, importForm(loadStats), form, results);
  await loadStats();
  await search();
}
