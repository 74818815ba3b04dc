// Plugins: state, restarts, last exit, log tail, and a restart button (the way out of "failed").
import { api } from "/assets/api.js";
import { clear, h, notice, when } from "/assets/dom.js";

const exitText = (e) => (e ? ` · last exit ${e.signal ? `signal ${e.signal}` : `code ${e.code}`} at ${when(e.at)}` : "");

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
      h("div", { class: "meta" }, h("strong", {}, p.name), h("span", { class: `badge state-${p.state}` }, p.state), ` · ${p.restarts} restarts`, p.pid ? ` · pid ${p.pid}` : "", exitText(p.lastExit)),
      p.error ? h("p", { class: "notice error" }, p.error) : null,
      p.tools?.length ? h("p", { class: "muted" }, `tools: ${p.tools.join(", ")}`) : null,
      h("details", {}, h("summary", {}, "log tail"), h("pre", { class: "verbatim" }, p.logTail.join("\n"))),
      h("button", { type: "button", "aria-label": `Restart ${p.name}`, async onclick() {
        try {
          await api("POST", `/api/plugins/${encodeURIComponent(p.name)}/restart`);
        } catch (error) {
          return clear(view, notice(`Cannot restart ${p.name}: ${error.message}`, "error"));
        }
        reload();
      } }, "Restart")))));
}
