// Providers: presets, add/edit, a write-only key, activate, delete, and "test connection".
import { api } from "/assets/api.js";
import { clear, h, notice } from "/assets/dom.js";

function testResult(result) {
  if (result.ok) return notice(`Connected in ${result.latencyMs} ms — ${result.model} replied: ${JSON.stringify(result.reply ?? "")}`, "ok");
  const details = [result.status ? `HTTP ${result.status}` : null, result.error, result.message].filter(Boolean).join(" · ");
  return h("div", { class: "notice error", role: "alert" }, h("p", {}, `Failed after ${result.latencyMs} ms: ${details}`), result.body ? h("pre", { class: "verbatim" }, result.body) : null);
}

function providerForm(data, existing, done) {
  const field = (name, label, attrs = {}) => {
    const input = h("input", { id: `p-${name}`, name, value: existing?.[name] ?? "", ...attrs });
    return [h("label", { for: `p-${name}` }, label), input];
  };
  const preset = h("select", { id: "p-preset", name: "preset" }, h("option", { value: "" }, "Custom"), data.presets.map((p) => h("option", { value: p.id, selected: existing?.preset === p.id }, p.name)));
  const out = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    { class: "card grid", "aria-label": existing ? `Edit ${existing.name}` : "Add a provider" },
    h("h2", {}, existing ? `Edit ${existing.name}` : "Add a provider"),
    h("label", { for: "p-preset" }, "Preset"),
    preset,
    ...field("name", "Name", { required: true }),
    ...field("baseUrl", "Base URL", { required: true, type: "url", placeholder: "https://…/v1" }),
    ...field("model", "Model", { required: true }),
    h("label", { for: "p-apiKey" }, "API key"),
    h("input", { id: "p-apiKey", name: "apiKey", type: "password", autocomplete: "off", placeholder: existing?.hasKey ? "set — type to replace" : "not set" }),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit" }, existing ? "Save" : "Add provider"),
      h("button", { type: "button", class: "quiet", id: "p-test", onclick: () => test() }, "Test connection"),
      existing ? h("button", { type: "button", class: "quiet", onclick: done }, "Cancel") : null,
    ),
    out,
  );
  const values = () => Object.fromEntries([...new FormData(form)].filter(([k, v]) => k !== "apiKey" || v !== ""));
  preset.addEventListener("change", () => {
    const p = data.presets.find((x) => x.id === preset.value);
    if (!p) return;
    form.elements.name.value ||= p.name;
    form.elements.baseUrl.value = p.baseUrl;
    form.elements.model.value = p.defaultModel;
  });
  async function test() {
    const v = values();
    clear(out, notice("Testing…"));
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
      done();
    } catch (error) {
      clear(out, notice(error.message, "error"));
    }
  });
  return form;
}

export async function renderProviders(view) {
  const data = await api("GET", "/api/providers");
  const reload = () => renderProviders(clear(view));
  const rows = data.providers.map((p) =>
    h(
      "tr",
      { dataset: { provider: p.name } },
      h("td", {}, p.name, p.active ? h("span", { class: "badge" }, "active") : null),
      h("td", {}, h("code", {}, p.baseUrl)),
      h("td", {}, p.model),
      h("td", {}, p.hasKey ? "set" : "—"),
      h(
        "td",
        { class: "actions" },
        p.source === "stored" && !p.active ? h("button", { type: "button", class: "quiet", onclick: async () => (await api("POST", `/api/providers/${p.id}/activate`), reload()) }, "Use") : null,
        p.source === "stored" ? h("button", { type: "button", class: "quiet", onclick: () => clear(editor, providerForm(data, p, reload)) }, "Edit") : h("span", { class: "muted" }, "from environment"),
        p.source === "stored"
          ? h("button", { type: "button", class: "quiet danger", onclick: async () => confirm(`Delete provider ${p.name}?`) && (await api("DELETE", `/api/providers/${p.id}`), reload()) }, "Delete")
          : null,
      ),
    ),
  );
  const editor = h("div", {}, providerForm(data, null, reload));
  view.append(
    h("h1", {}, "Providers"),
    h("p", { class: "help" }, "Any OpenAI-compatible endpoint. Keys are write-only: once saved, no page or API response shows them again."),
    rows.length
      ? h("div", { class: "scroll" }, h("table", {}, h("thead", {}, h("tr", {}, ["Name", "Base URL", "Model", "Key", ""].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows)))
      : notice("No provider yet: add one below to start chatting."),
    editor,
  );
}
