// Plugins: state, restarts, last exit, log tail, and a restart button.
import { api } from "/assets/api.js";
import { clear, h, notice } from "/assets/dom.js";

export async function renderPlugins(view) {
  view.append(h("h1", {}, "Plugins"));
  let plugins;
  try {
    ({ plugins } = await api("GET", "/api/plugins"));
  } catch (error) {
    if (error.status !== 404) throw error;
    return view.append(notice("This daemon runs no plugin host, so there are no plugins to show.", "info"));
  }
  if (!plugins.length) return view.append(notice("No plugins are configured."));
  const reload = () => renderPlugins(clear(view));
  view.append(h("ul", { class: "records" }, plugins.map((p) =>
    h("li", { class: "record plugin", dataset: { plugin: p.name, state: p.state } },
      h("div", { class: "meta" }, h("strong", {}, p.name), h("span", { class: `badge state-${p.state}` }, p.state), ` · ${p.restarts ?? 0} restarts`, p.lastExit ? ` · last exit ${JSON.stringify(p.lastExit)}` : ""),
      h("details", {}, h("summary", {}, "log tail"), h("pre", { class: "verbatim" }, (p.logTail ?? p.log ?? []).join?.("\n") ?? String(p.logTail ?? ""))),
      h("button", { type: "button", "aria-label": `Restart ${p.name}`, async onclick() { await api("POST", `/api/plugins/${encodeURIComponent(p.name)}/restart`); reload(); } }, "Restart")))));
}
