// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// Context inspector: what the model would see now — the budget bar, each live event with its
// tokens, relevance score and pin, and what sank to cold memory.
import { api } from "./api.ts";
import { lineChart } from "./charts.tsx";
import { data, h, notice, when } from "./dom.ts";
import { num, t } from "./i18n.ts";

function budgetBar(c) {
  const pct = (n) => `${Math.min(100, (n / (c.budget * c.threshold)) * 100).toFixed(1)}%`;
  return h(
    "div",
    { class: "budget" },
    h("p", {}, t("context.used", { used: c.usedTokens, budget: c.budget, pct: num(c.ratio, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }), threshold: c.threshold })),
    h("p", { class: "tool-tokens" }, t("context.toolTokens", { n: c.toolTokens })),
    h(
      "div",
      { class: "bar", role: "meter", "aria-valuemin": 0, "aria-valuemax": c.budget, "aria-valuenow": c.usedTokens, "aria-label": t("context.budgetUse") },
      h("span", { class: "fill", style: `width:${pct(c.usedTokens)}` }),
      h("span", { class: "mark", style: `left:${pct(c.budget)}`, title: t("context.budget") }),
    ),
  );
}

/** Tokens in the session after each event (live and sunk alike) against the budget. */
function tokensChart(c) {
  const all = [...c.live.map((e) => ({ ...e, live: true })), ...c.sunk].sort((a, b) => a.time - b.time);
  if (all.length < 2) return null;
  let total = 0;
  const values = all.map((e) => (total += e.tokens));
  // Far under the budget, its line would squash the conversation's to a flat 0: then it is only named.
  const budgetShown = total >= c.budget / 4;
  return lineChart({
    title: budgetShown ? t("context.chartTitle") : t("context.chartTitleUnder", { budget: c.budget }),
    x: all.map((_, i) => i + 1),
    series: [{ label: t("context.said"), values }, ...(budgetShown ? [{ label: t("context.budget"), values: all.map(() => c.budget), dash: [6, 4] }] : [])],
    summary: t("context.chartSummary", { total, n: all.length, budget: c.budget }),
  });
}

export async function renderContext(view, [sessionId]) {
  view.append(h("h1", {}, t("context.title")));
  const { sessions } = await api("GET", "/api/sessions");
  const id = sessionId ?? sessions[0]?.id;
  view.append(
    h(
      "nav",
      { class: "pills", "aria-label": t("context.sessions") },
      sessions.map((s) => h("a", { href: `#/context/${s.id}`, "aria-current": s.id === id ? "page" : null, translate: "no" }, s.title ?? s.partner)),
    ),
  );
  if (!id) return view.append(notice(t("context.none")));
  const c = await api("GET", `/api/inspect/${encodeURIComponent(id)}`);
  const row = (e) =>
    h(
      "tr",
      { dataset: { id: e.id } },
      h("td", {}, when(e.time)),
      h("td", { translate: "no" }, e.roles.join(", ")),
      h("td", { class: "num" }, e.tokens),
      h("td", { class: "num" }, e.score.toFixed(3)),
      h("td", {}, e.pinned ? t("context.pinned") : ""),
      h("td", { class: "text", translate: "no" }, e.text),
    );
  view.append(
    budgetBar(c),
    tokensChart(c),
    h("h2", {}, t("context.live", { n: c.live.length })),
    h("p", { class: "muted" }, c.scoredAgainst ? t("context.scoredAgainst", { text: c.scoredAgainst.slice(0, 120) }) : t("context.noScore")),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "events" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ["colTime", "colMessages", "colTokens", "colScore", "colPinned", "colText"].map((k) => h("th", { scope: "col" }, t(`context.${k}`))),
          ),
        ),
        h("tbody", {}, c.live.map(row)),
      ),
    ),
    h("h2", {}, t("context.sank", { n: c.sunk.length })),
    c.sunk.length
      ? h(
          "ul",
          { class: "records" },
          c.sunk.map((e) =>
            h(
              "li",
              { class: "record", dataset: { id: e.id } },
              h(
                "div",
                { class: "meta" },
                h("span", { class: `badge ${e.layer}` }, e.layer),
                h("code", {}, e.id),
                t("context.sankLine", { said: when(e.time) }),
                e.sunkAt ? t("context.sankAt", { at: when(e.sunkAt) }) : "",
                t("context.tokens", { n: e.tokens }),
                e.lastAccess ? t("context.lastRecalled", { at: when(e.lastAccess) }) : "",
              ),
              data(e.text, "p", { class: "text" }),
            ),
          ),
        )
      : h("p", { class: "muted" }, t("context.nothingSank")),
  );
}
