// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// Plugins: state, restarts, last exit, log tail, and a restart button (the way out of "failed");
// then the events they pushed lately (what reached, or will reach, a session's turn).
import { api } from "./api.ts";
import { clear, data, h, notice, when } from "./dom.ts";
import { t } from "./i18n.ts";

const exitText = (e) => (e ? (e.signal ? t("plugins.exitSignal", { signal: e.signal, at: when(e.at) }) : t("plugins.exitCode", { code: e.code, at: when(e.at) })) : "");

export async function renderPlugins(view) {
  view.append(h("h1", {}, t("plugins.title")));
  let plugins = [];
  try {
    ({ plugins } = await api("GET", "/api/plugins"));
  } catch (error) {
    if (error.status !== 404) throw error;
    return view.append(notice(t("plugins.noHost"), "info"));
  }
  if (!plugins.length) return view.append(notice(t("plugins.none")));
  const reload = () => renderPlugins(clear(view));
  view.append(
    h(
      "ul",
      { class: "records" },
      plugins.map((p) =>
        h(
          "li",
          { class: "record plugin", dataset: { plugin: p.name, state: p.state } },
          h(
            "div",
            { class: "meta" },
            h("strong", { translate: "no" }, p.name),
            h("span", { class: `badge state-${p.state}`, translate: "no" }, p.state),
            t("plugins.restarts", { n: p.restarts }),
            p.pid ? t("plugins.pid", { pid: String(p.pid) }) : "",
            exitText(p.lastExit),
          ),
          p.error ? data(p.error, "p", { class: "notice error" }) : null,
          p.tools?.length ? h("p", { class: "muted" }, t("plugins.tools", { tools: "" }), data(p.tools.join(", "))) : null,
          h("details", {}, h("summary", {}, t("plugins.logTail")), data(p.logTail.join("\n"), "pre", { class: "verbatim" })),
          h(
            "button",
            {
              type: "button",
              "aria-label": t("plugins.restartLabel", { name: p.name }),
              async onclick() {
                try {
                  await api("POST", `/api/plugins/${encodeURIComponent(p.name)}/restart`);
                } catch (error) {
                  return clear(view, notice(t("plugins.cannotRestart", { name: p.name, message: error.message }), "error"));
                }
                reload();
              },
            },
            t("plugins.restart"),
          ),
        ),
      ),
    ),
  );
  view.append(h("h2", {}, t("plugins.events")));
  const { events } = await api("GET", "/api/plugins/events");
  if (!events.length) return view.append(h("p", { class: "muted" }, t("plugins.noEvents")));
  view.append(
    h(
      "ul",
      { class: "records" },
      events.map((e) =>
        h(
          "li",
          { class: "record pushed-event", dataset: { plugin: e.plugin } },
          h(
            "div",
            { class: "meta" },
            when(e.at),
            " · ",
            h("strong", { translate: "no" }, e.plugin),
            e.event?.type ? data(` · ${e.event.type}`, "span") : "",
            e.event?.session ? data(t("plugins.eventSession", { session: e.event.session }), "span") : "",
            e.event?.urgent ? h("span", { class: "badge" }, t("plugins.urgent")) : "",
          ),
          data(JSON.stringify(e.event), "pre", { class: "verbatim" }),
        ),
      ),
    ),
  );
}
