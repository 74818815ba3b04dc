// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// Recall audit: what memory injected into each of the last 1000 turns, and how fast recall is.
import { api } from "./api.ts";
import { lineChart } from "./charts.tsx";
import { clear, h, notice, when } from "./dom.ts";
import { num, t } from "./i18n.ts";

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Replays the audited queries and draws the latency distribution (sorted: the percentile curve). */
function latencyPanel() {
  const out = h("div", { "aria-live": "polite" });
  const button = h(
    "button",
    {
      type: "button",
      async onclick() {
        button.disabled = true;
        clear(out, notice(t("audit.measuring")));
        try {
          const { samples, embedder } = await api("POST", "/api/audit/replay");
          const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
          if (!ms.length) return clear(out, notice(t("audit.noQueries")));
          const fixed = (n) => num(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
          const stats = t("audit.stats", { n: ms.length, p50: fixed(percentile(ms, 50)), p95: fixed(percentile(ms, 95)), max: fixed(ms.at(-1)), embedder });
          clear(
            out,
            h("p", { class: "latency-stats" }, stats),
            lineChart({ title: t("audit.latencyChart"), x: ms.map((_, i) => (ms.length === 1 ? 100 : (i / (ms.length - 1)) * 100)), series: [{ label: "ms", values: ms }], summary: stats }),
          );
        } catch (error) {
          clear(out, notice(error.message, "error"));
        } finally {
          button.disabled = false;
        }
      },
    },
    t("audit.measure"),
  );
  return h("section", { class: "card" }, h("h2", {}, t("audit.latency")), h("p", { class: "help" }, t("audit.latencyHelp")), button, out);
}

export async function renderAudit(view) {
  const { entries } = await api("GET", "/api/audit");
  view.append(h("h1", {}, t("audit.title")), h("p", { class: "help" }, t("audit.help")));
  if (!entries.length) return view.append(notice(t("audit.none")));
  const ordered = [...entries].reverse();
  view.append(
    lineChart({
      title: t("audit.chart"),
      x: ordered.map((e) => e.time / 1000),
      time: true,
      series: [{ label: t("audit.chars"), values: ordered.map((e) => e.chars) }],
      summary: t("audit.turns", { n: entries.length }),
    }),
    latencyPanel(),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["colTime", "colQuery", "colInjected", "colChars", "colIds"].map((k) => h("th", { scope: "col" }, t(`audit.${k}`))),
          ),
        ),
        h(
          "tbody",
          {},
          entries.map((e) =>
            h(
              "tr",
              {},
              h("td", {}, when(e.time)),
              h("td", { translate: "no" }, e.query),
              h(
                "td",
                {},
                Object.entries(e.counts)
                  .map(([k, v]) => `${k}×${v}`)
                  .join(" "),
              ),
              h("td", { class: "num" }, e.chars),
              h("td", { class: "ids", translate: "no" }, e.ids.map((i) => `${i.id} (${i.layer} ${i.band} ${i.evidence})`).join(", ")),
            ),
          ),
        ),
      ),
    ),
  );
}
