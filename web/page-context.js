// Context inspector: what the model would see now — the budget bar, each live event with its
// tokens, relevance score and pin, and what sank to cold memory.
import { api } from "/assets/api.js";
import { lineChart } from "/assets/charts.js";
import { h, notice, when } from "/assets/dom.js";

function budgetBar(c) {
  const pct = (n) => `${Math.min(100, (n / (c.budget * c.threshold)) * 100).toFixed(1)}%`;
  return h(
    "div",
    { class: "budget" },
    h("p", {}, `${c.usedTokens} of ${c.budget} tokens (${(c.ratio * 100).toFixed(1)}%) — pruning starts above ${c.threshold}× the budget`),
    h("p", { class: "tool-tokens" }, `Tool definitions take ${c.toolTokens} tokens of every request; history is rendered in what they, the system prompt and injected memory leave.`),
    h("div", { class: "bar", role: "meter", "aria-valuemin": 0, "aria-valuemax": c.budget, "aria-valuenow": c.usedTokens, "aria-label": "Budget use" },
      h("span", { class: "fill", style: `width:${pct(c.usedTokens)}` }),
      h("span", { class: "mark", style: `left:${pct(c.budget)}`, title: "budget" })),
  );
}

/** Tokens in the session after each event (live and sunk alike) against the budget. */
function tokensChart(c) {
  const all = [...c.live.map((e) => ({ ...e, live: true })), ...c.sunk].sort((a, b) => a.time - b.time);
  if (all.length < 2) return null;
  let total = 0;
  const values = all.map((e) => (total += e.tokens));
  return lineChart({
    title: "Tokens said so far vs. the budget, per event",
    x: all.map((_, i) => i + 1),
    series: [{ label: "tokens said", values }, { label: "budget", values: all.map(() => c.budget), dash: [6, 4] }],
    summary: `${total} tokens said in ${all.length} events; budget ${c.budget}`,
  });
}

export async function renderContext(view, [sessionId]) {
  view.append(h("h1", {}, "Context inspector"));
  const { sessions } = await api("GET", "/api/sessions");
  const id = sessionId ?? sessions[0]?.id;
  view.append(h("nav", { class: "pills", "aria-label": "Sessions" }, sessions.map((s) => h("a", { href: `#/context/${s.id}`, "aria-current": s.id === id ? "page" : null }, s.title ?? s.partner))));
  if (!id) return view.append(notice("No sessions yet."));
  const c = await api("GET", `/api/inspect/${encodeURIComponent(id)}`);
  const row = (e) =>
    h("tr", { dataset: { id: e.id } },
      h("td", {}, when(e.time)),
      h("td", {}, e.roles.join(", ")),
      h("td", { class: "num" }, e.tokens),
      h("td", { class: "num" }, e.score.toFixed(3)),
      h("td", {}, e.pinned ? "pinned" : ""),
      h("td", { class: "text" }, e.text));
  view.append(
    budgetBar(c),
    tokensChart(c),
    h("h2", {}, `Live (L1): ${c.live.length} events`),
    h("p", { class: "muted" }, c.scoredAgainst ? `Scores: relevance to the latest message, “${c.scoredAgainst.slice(0, 120)}”.` : "No user message yet to score against."),
    h("div", { class: "scroll" }, h("table", { class: "events" }, h("thead", {}, h("tr", {}, ["Time", "Messages", "Tokens", "Score", "Pinned", "Text"].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, c.live.map(row)))),
    h("h2", {}, `Sank: ${c.sunk.length} events`),
    c.sunk.length
      ? h("ul", { class: "records" }, c.sunk.map((e) => h("li", { class: "record", dataset: { id: e.id } }, h("div", { class: "meta" }, h("span", { class: `badge ${e.layer}` }, e.layer), h("code", {}, e.id), ` · said ${when(e.time)}${e.sunkAt ? ` · sank ${when(e.sunkAt)}` : ""} · ${e.tokens} tokens`, e.lastAccess ? ` · last recalled ${when(e.lastAccess)}` : ""), h("p", { class: "text" }, e.text))))
      : h("p", { class: "muted" }, "Nothing has sunk: the whole conversation still fits."),
  );
}
