// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// Doctor: the same checks as `homed doctor`, on demand.
import { api } from "./api.ts";
import { clear, data, h, notice } from "./dom.ts";
import { t } from "./i18n.ts";

export async function renderDoctor(view) {
  const out = h("div", { "aria-live": "polite" });
  const button = h(
    "button",
    {
      type: "button",
      async onclick() {
        button.disabled = true;
        clear(out, notice(t("doctor.running")));
        try {
          const r = await api("POST", "/api/doctor");
          clear(
            out,
            notice(r.ok ? t("doctor.passed", { ms: r.ms }) : t("doctor.failed", { ms: r.ms }), r.ok ? "ok" : "error"),
            h(
              "ul",
              { class: "checks" },
              r.results.map((c) => h("li", { class: !c.ok ? "fail" : c.warn ? "warn" : "ok" }, h("strong", { translate: "no" }, `${!c.ok ? "✗" : c.warn ? "!" : "✓"} ${c.name}`), " ", data(c.detail))),
            ),
          );
        } catch (error) {
          clear(out, notice(error.message, "error"));
        } finally {
          button.disabled = false;
        }
      },
    },
    t("doctor.run"),
  );
  const health = await fetch("/healthz")
    .then((r) => r.json())
    .catch((error) => ({ ok: false, error: error.message }));
  view.append(
    h("h1", {}, t("doctor.title")),
    notice(health.ok ? t("doctor.healthy", { version: health.version }) : t("doctor.problem", { message: health.error ?? health.message ?? t("doctor.unknown") }), health.ok ? "ok" : "error"),
    h("p", { class: "help" }, t("doctor.helpBefore"), h("code", {}, "homed doctor"), t("doctor.helpAfter")),
    button,
    out,
  );
}
