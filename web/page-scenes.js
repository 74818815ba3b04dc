// Scenes: recurring situations, how often they came back, and how their strength fades.
import { api } from "/assets/api.js";
import { lineChart } from "/assets/charts.js";
import { h, notice, when } from "/assets/dom.js";

const DAY = 86_400_000;

/** Each scene's strength from its last recurrence to two weeks ahead, by the half-life decay. */
function strengthChart({ scenes, now, halfLifeMs }) {
  const shown = scenes.slice(0, 5);
  const start = Math.min(...shown.map((s) => s.lastSeen));
  const steps = Math.max(2, Math.ceil((now + 14 * DAY - start) / (DAY / 4)));
  const times = Array.from({ length: steps + 1 }, (_, i) => start + (i * (now + 14 * DAY - start)) / steps);
  return lineChart({
    title: `Strength over time (halves every ${Math.round(halfLifeMs / DAY)} days idle; right of today is where it is heading)`,
    x: times.map((t) => t / 1000),
    time: true,
    series: shown.map((s) => ({ label: s.key, values: times.map((t) => (t < s.lastSeen ? null : s.strengthAtLastSeen * 0.5 ** ((t - s.lastSeen) / halfLifeMs))) })),
    summary: shown.map((s) => `${s.key}: ${s.strength.toFixed(2)} now`).join("; "),
  });
}

export async function renderScenes(view) {
  const data = await api("GET", "/api/scenes");
  view.append(h("h1", {}, "Scenes"), h("p", { class: "help" }, "A scene is a situation that recurs (same channel, partner, tools, topic, time of day). Recall leans toward what happened in the current scene."));
  if (!data.scenes.length) return view.append(notice("No scene yet: a situation becomes a scene the second time it happens."));
  view.append(
    strengthChart(data),
    h("div", { class: "scroll" }, h("table", {},
      h("thead", {}, h("tr", {}, ["Scene", "Kind", "Occurrences", "Strength now", "Last seen", "Features"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, data.scenes.map((s) => h("tr", { dataset: { scene: s.key } },
        h("td", {}, h("code", {}, s.key)),
        h("td", {}, s.declared ? "declared" : "recognised"),
        h("td", { class: "num" }, s.occurrences),
        h("td", { class: "num" }, s.strength.toFixed(2)),
        h("td", {}, when(s.lastSeen)),
        h("td", { class: "text" }, Object.entries(s.features).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`).join(" · "))))))),
  );
}
