// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// Scenes: recurring situations, how often they came back, and how their strength fades.
import { api } from "./api.ts";
import { lineChart } from "./charts.ts";
import { data, h, notice, when } from "./dom.ts";
import { num, t } from "./i18n.ts";

const DAY = 86_400_000;

/**
 * A scene in words: partner · channel · its topic words as the person wrote them (older scenes
 * kept only search stems: those are shown when there is nothing better). The id is one click away.
 */
export function sceneName(s) {
  const f = s.features;
  const topic = (f.words ?? f.topic ?? []).slice(0, 4).join(" ");
  return [f.partner, f.channel, topic].filter(Boolean).join(" · ") || s.key;
}

/** Each scene's strength from its last recurrence to two weeks ahead, by the half-life decay. */
function strengthChart({ scenes, now, halfLifeMs }) {
  const shown = scenes.slice(0, 5);
  const start = Math.min(...shown.map((s) => s.lastSeen));
  const steps = Math.max(2, Math.ceil((now + 14 * DAY - start) / (DAY / 4)));
  const times = Array.from({ length: steps + 1 }, (_, i) => start + (i * (now + 14 * DAY - start)) / steps);
  const strength = (s) => num(s.strength, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return lineChart({
    title: t("scenes.chart", { days: Math.round(halfLifeMs / DAY) }),
    x: times.map((t) => t / 1000),
    time: true,
    series: shown.map((s) => ({ label: sceneName(s), values: times.map((t) => (t < s.lastSeen ? null : s.strengthAtLastSeen * 0.5 ** ((t - s.lastSeen) / halfLifeMs))) })),
    summary: shown.map((s) => t("scenes.chartSummary", { name: sceneName(s), strength: strength(s) })).join("; "),
  });
}

export async function renderScenes(view) {
  const list = await api("GET", "/api/scenes");
  view.append(h("h1", {}, t("scenes.title")), h("p", { class: "help" }, t("scenes.help")));
  if (!list.scenes.length) return view.append(notice(t("scenes.none")));
  const columns = ["colScene", "colKind", "colOccurrences", "colStrength", "colLastSeen"];
  view.append(
    strengthChart(list),
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
            columns.map((k) => h("th", { scope: "col" }, t(`scenes.${k}`))),
          ),
        ),
        h(
          "tbody",
          {},
          list.scenes.map((s) =>
            h(
              "tr",
              { dataset: { scene: s.key } },
              h(
                "td",
                {},
                data(sceneName(s), "strong", { class: "scene-name" }),
                h("details", { class: "scene-id" }, h("summary", {}, t("scenes.id")), h("code", {}, s.key), h("pre", { translate: "no" }, JSON.stringify(s.features))),
              ),
              h("td", {}, s.declared ? t("scenes.declared") : t("scenes.recognised")),
              h("td", { class: "num" }, num(s.occurrences)),
              h("td", { class: "num" }, num(s.strength, { minimumFractionDigits: 2, maximumFractionDigits: 2 })),
              h("td", {}, when(s.lastSeen)),
            ),
          ),
        ),
      ),
    ),
  );
}
