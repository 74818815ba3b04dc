// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// Providers: presets, add/edit, a write-only key, activate, delete, and "test connection".
import { api } from "./api.ts";
import { clear, data, h, notice } from "./dom.ts";
import { t } from "./i18n.ts";

function testResult(result) {
  if (result.ok) return notice(t("providers.connected", { ms: result.latencyMs, model: result.model, reply: JSON.stringify(result.reply ?? "") }), "ok");
  const details = [result.status ? `HTTP ${result.status}` : null, result.error, result.message].filter(Boolean).join(" · ");
  return h("div", { class: "notice error", role: "alert" }, h("p", {}, t("providers.failed", { ms: result.latencyMs, details })), result.body ? data(result.body, "pre", { class: "verbatim" }) : null);
}

function providerForm(list, existing, done) {
  const field = (name, label, attrs = {}) => {
    const input = h("input", { id: `p-${name}`, name, value: existing?.[name] ?? "", ...attrs });
    return [h("label", { for: `p-${name}` }, label), input];
  };
  const preset = h(
    "select",
    { id: "p-preset", name: "preset" },
    h("option", { value: "" }, t("providers.custom")),
    list.presets.map((p) => h("option", { value: p.id, selected: existing?.preset === p.id, translate: "no" }, p.name)),
  );
  const out = h("div", { "aria-live": "polite" });
  // The provider's own model list, offered as the Model field's suggestions.
  const models = h("datalist", { id: "p-models" });
  const modelsOut = h("span", { "aria-live": "polite", class: "muted" });
  const title = existing ? t("providers.editTitle", { name: existing.name }) : t("providers.add");
  const form = h(
    "form",
    { class: "card grid", "aria-label": title },
    h("h2", {}, title),
    h("label", { for: "p-preset" }, t("providers.preset")),
    preset,
    ...field("name", t("providers.name"), { required: true }),
    ...field("baseUrl", t("providers.baseUrl"), { required: true, type: "url", placeholder: "https://…/v1" }),
    h("label", { for: "p-model" }, t("providers.model")),
    h(
      "div",
      { class: "inline-row" },
      h("input", { id: "p-model", name: "model", value: existing?.model ?? "", required: true, list: "p-models", autocomplete: "off" }),
      models,
      h("button", { type: "button", class: "quiet", onclick: () => fetchModels() }, t("providers.fetchModels")),
      modelsOut,
    ),
    h("label", { for: "p-apiKey" }, t("providers.apiKey")),
    h("input", { id: "p-apiKey", name: "apiKey", type: "password", autocomplete: "off", placeholder: existing?.hasKey ? t("providers.keyReplace") : t("providers.keyNotSet") }),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit" }, existing ? t("providers.save") : t("providers.addButton")),
      h("button", { type: "button", class: "quiet", id: "p-test", onclick: () => test() }, t("providers.test")),
      existing ? h("button", { type: "button", class: "quiet", onclick: done }, t("providers.cancel")) : null,
    ),
    out,
  );
  const values = () => Object.fromEntries([...new FormData(form)].filter(([k, v]) => k !== "apiKey" || v !== ""));
  preset.addEventListener("change", () => {
    const p = list.presets.find((x) => x.id === preset.value);
    if (!p) return;
    form.elements.name.value ||= p.name;
    form.elements.baseUrl.value = p.baseUrl;
    form.elements.model.value = p.defaultModel;
  });
  async function fetchModels() {
    const v = values();
    clear(modelsOut, t("providers.fetchingModels"));
    try {
      const body = existing && !v.apiKey && v.baseUrl === existing.baseUrl ? { id: existing.id } : { baseUrl: v.baseUrl, apiKey: v.apiKey };
      const r = await api("POST", "/api/providers/models", body);
      if (!r.ok) return clear(modelsOut, notice(t("providers.modelsFailed", { details: [r.status ? `HTTP ${r.status}` : null, r.message].filter(Boolean).join(" · ") }), "error"));
      clear(
        models,
        r.models.map((id) => h("option", { value: id })),
      );
      clear(modelsOut, t("providers.modelsFound", { n: r.models.length }));
      if (!form.elements.model.value && r.models.length) form.elements.model.value = r.models[0];
    } catch (error) {
      clear(modelsOut, notice(error.message, "error"));
    }
  }
  async function test() {
    const v = values();
    clear(out, notice(t("providers.testing")));
    try {
      // A saved provider with an untouched key is tested with its stored key.
      const body = existing && !v.apiKey && v.baseUrl === existing.baseUrl && v.model === existing.model ? { id: existing.id } : { baseUrl: v.baseUrl, model: v.model, apiKey: v.apiKey };
      clear(out, testResult(await api("POST", "/api/providers/test", body)));
    } catch (error) {
      clear(out, notice(error.message, "error"));
    }
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const v = values();
    if (!v.preset) delete v.preset;
    try {
      await api(existing ? "PUT" : "POST", existing ? `/api/providers/${existing.id}` : "/api/providers", v);
      done(existing ? undefined : v.name);
    } catch (error) {
      clear(out, notice(error.message, "error"));
    }
  });
  return form;
}

/** `added`: the name of a provider just added; the first one leads on into a first chat. */
export async function renderProviders(view, _params, added) {
  const list = await api("GET", "/api/providers");
  const reload = (name) => renderProviders(clear(view), [], typeof name === "string" ? name : undefined);
  const rows = list.providers.map((p) =>
    h(
      "tr",
      { dataset: { provider: p.name } },
      h("td", {}, data(p.name), p.active ? h("span", { class: "badge" }, t("providers.active")) : null),
      h("td", {}, h("code", {}, p.baseUrl)),
      h("td", {}, data(p.model)),
      h("td", {}, p.hasKey ? t("providers.keySet") : "—"),
      h(
        "td",
        { class: "actions" },
        p.source === "stored" && !p.active
          ? h("button", { type: "button", class: "quiet", onclick: async () => (await api("POST", `/api/providers/${p.id}/activate`), reload()) }, t("providers.use"))
          : null,
        p.source === "stored"
          ? h("button", { type: "button", class: "quiet", onclick: () => clear(editor, providerForm(list, p, reload)) }, t("providers.edit"))
          : h("span", { class: "muted" }, t("providers.fromEnv")),
        p.source === "stored"
          ? h(
              "button",
              { type: "button", class: "quiet danger", onclick: async () => confirm(t("providers.confirmDelete", { name: p.name })) && (await api("DELETE", `/api/providers/${p.id}`), reload()) },
              t("providers.delete"),
            )
          : null,
      ),
    ),
  );
  const editor = h("div", {}, providerForm(list, null, reload));
  const columns = ["colName", "colBaseUrl", "colModel", "colKey"].map((k) => t(`providers.${k}`));
  view.append(
    h("h1", {}, t("providers.title")),
    added && list.providers.length === 1 ? h("p", { class: "notice ok", role: "status" }, t("providers.firstAdded", { name: added }), h("a", { href: "#/chat" }, t("providers.startChat"))) : "",
    h("p", { class: "help" }, t("providers.help")),
    rows.length
      ? h(
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
                [...columns, ""].map((c) => h("th", { scope: "col" }, c)),
              ),
            ),
            h("tbody", {}, rows),
          ),
        )
      : notice(t("providers.none")),
    editor,
  );
}
