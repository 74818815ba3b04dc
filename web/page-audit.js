// Recall audit: what memory injected into each of the last 1000 turns, and how fast recall is.
import { api } from "/assets/api.js";
import { lineChart } from "/assets/charts.js";
import { clear, h, notice, when } from "/assets/dom.js";

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Replays the audited queries and draws the latency distribution (sorted: the percentile curve). */
function latencyPanel() {
  const out = h("div", { "aria-live": "polite" });
  const button = h("button", {
    type: "button",
    async onclick() {
      button.disabled = true;
      clear(out, notice("Measuring…"));
      try {
        const { samples, embedder } = await api("POST", "/api/audit/replay");
        const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
        if (!ms.length) return clear(out, notice("No audited queries to replay yet."));
        const stats = `${ms.length} queries · p50 ${percentile(ms, 50).toFixed(1)} ms · p95 ${percentile(ms, 95).toFixed(1)} ms · max ${ms.at(-1).toFixed(1)} ms (embedder ${embedder})`;
        clear(out,
          h("p", { class: "latency-stats" }, stats),
          lineChart({ title: "Recall latency distribution (ms, by percentile)", x: ms.map((_, i) => ms.length === 1 ? 100 : (i / (ms.length - 1)) * 100), series: [{ label: "ms", values: ms }], summary: stats }));
      } catch (error) {
        clear(out, notice(error.message, "error"));
      } finally {
        button.disabled = false;
      }
    },
  }, "Measure recall latency");
  return h("section", { class: "card" }, h("h2", {}, "Recall latency"), h("p", { class: "help" }, "Runs the last 100 audited queries again through cold-context search (reading only) and times each."), button, out);
}

export async function renderAudit(view) {
  const { entries } = await api("GET", "/api/audit");
  view.append(h("h1", {}, "Recall audit"), h("p", { class: "help" }, "Each turn's recall: the query, how many memories from each layer were injected, and their ids."));
  if (!entries.length) return view.append(notice("No turns recalled anything yet."));
  const ordered = [...entries].reverse();
  view.append(
    lineChart({ title: "Characters injected per turn", x: ordered.map((e) => e.time / 1000), time: true, series: [{ label: "chars", values: ordered.map((e) => e.chars) }], summary: `${entries.length} turns` }),
    latencyPanel(),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, ["Time", "Query", "Injected", "Chars", "Ids"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, entries.map((e) => h("tr", {}, h("td", {}, when(e.time)), h("td", {}, e.query), h("td", {}, Object.entries(e.counts).map(([k, v]) => `${k}×${v}`).join(" ")), h("td", { class: "num" }, e.chars), h("td", { class: "ids" }, e.ids.map((i) => `${i.id} (${i.layer} ${i.band} ${i.evidence})`).join(", "))))))),
  );
}
