// Doctor: the same checks as `homed doctor`, on demand.
import { api } from "/assets/api.js";
import { clear, h, notice } from "/assets/dom.js";

export async function renderDoctor(view) {
  const out = h("div", { "aria-live": "polite" });
  const button = h("button", {
    type: "button",
    async onclick() {
      button.disabled = true;
      clear(out, notice("Running the deep check…"));
      try {
        const r = await api("POST", "/api/doctor");
        clear(out,
          notice(r.ok ? `All checks passed in ${r.ms} ms.` : `Some checks failed (${r.ms} ms).`, r.ok ? "ok" : "error"),
          h("ul", { class: "checks" }, r.results.map((c) => h("li", { class: c.ok ? "ok" : "fail" }, h("strong", {}, `${c.ok ? "✓" : "✗"} ${c.name}`), " ", c.detail))));
      } catch (error) {
        clear(out, notice(error.message, "error"));
      } finally {
        button.disabled = false;
      }
    },
  }, "Run deep check");
  const health = await fetch("/healthz").then((r) => r.json()).catch((error) => ({ ok: false, error: error.message }));
  view.append(
    h("h1", {}, "Doctor"),
    notice(health.ok ? `The daemon answers and its store responds — homed ${health.version}.` : `The daemon reports a problem: ${health.error ?? health.message ?? "unknown"}`, health.ok ? "ok" : "error"),
    h("p", { class: "help" }, "The deep check runs what ", h("code", {}, "homed doctor"), " runs: the database, migrations, vector and full-text search, jieba, ONNX Runtime and the data folder."),
    button,
    out,
  );
}
