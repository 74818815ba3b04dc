// Recall audit: what memory injected into each of the last 1000 turns.
import { api } from "/assets/api.js";
import { lineChart } from "/assets/charts.js";
import { h, notice, when } from "/assets/dom.js";

export async function renderAudit(view) {
  const { entries } = await api("GET", "/api/audit");
  view.append(h("h1", {}, "Recall audit"), h("p", { class: "help" }, "Each turn's recall: the query, how many memories from each layer were injected, and their ids."));
  if (!entries.length) return view.append(notice("No turns recalled anything yet."));
  const ordered = [...entries].reverse();
  view.append(
    lineChart({ title: "Characters injected per turn", x: ordered.map((e) => e.time / 1000), time: true, series: [{ label: "chars", values: ordered.map((e) => e.chars) }], summary: `${entries.length} turns` }),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, ["Time", "Query", "Injected", "Chars", "Ids"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, entries.map((e) => h("tr", {}, h("td", {}, when(e.time)), h("td", {}, e.query), h("td", {}, Object.entries(e.counts).map(([k, v]) => `${k}×${v}`).join(" ")), h("td", { class: "num" }, e.chars), h("td", { class: "ids" }, e.ids.map((i) => `${i.id} (${i.layer} ${i.band} ${i.evidence})`).join(", "))))))),
  );
}
