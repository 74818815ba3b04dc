// App keys: one per app (Open WebUI, a script, an MCP client) for /v1 and /mcp, never /api.
// A new key is shown once, with a copy button; the list shows when each was last used; revoking
// asks first, and the app holding the key is refused from its next request on.
import { api } from "/assets/api.js";
import { clear, h, notice, when } from "/assets/dom.js";

const SCOPES = ["v1", "mcp"];

/** Copies the key, by the clipboard API where the browser allows it, else by selecting it. */
async function copy(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    return document.execCommand("copy");
  }
}

/** The new key, in a read-only field with a copy button: this is the only time it is shown. */
function secretCard(made) {
  const field = h("input", { id: "k-secret", readonly: true, value: made.key, spellcheck: "false", autocomplete: "off", class: "ids", style: "width: 100%" });
  const status = h("span", { role: "status", class: "muted" });
  const onclick = async () => status.replaceChildren((await copy(field)) ? "Copied." : "Select the key and copy it by hand.");
  return h(
    "div",
    { class: "card", role: "region", "aria-label": "New key", style: "max-width: 720px" },
    h("h2", {}, `Key for ${made.name}`),
    h("p", { class: "notice ok" }, "Copy it now: it is shown this once. homed keeps only its hash."),
    h("p", {}, h("label", { for: "k-secret" }, "Key"), field),
    h("div", { class: "actions" }, h("button", { type: "button", onclick }, "Copy key"), status),
    h("p", { class: "help" }, "OpenAI clients: base URL ", h("code", {}, `${location.origin}/v1`), ", this key as the API key. MCP clients: ", h("code", {}, `${location.origin}/mcp`), " with the header ", h("code", {}, "Authorization: Bearer <key>"), "."),
  );
}

function keyForm(onMade) {
  const out = h("div", { "aria-live": "polite" });
  const boxes = SCOPES.map((s) => h("label", {}, h("input", { type: "checkbox", name: "scopes", value: s, checked: true }), ` /${s}`));
  const form = h(
    "form",
    { class: "card grid", "aria-label": "Create a key" },
    h("h2", {}, "Create a key"),
    h("label", { for: "k-name" }, "Name"),
    h("input", { id: "k-name", name: "name", required: true, pattern: "[A-Za-z0-9._\\-]{1,64}", placeholder: "webui", title: "1 to 64 letters, digits, '.', '_' or '-'" }),
    h("label", { for: "k-partner" }, "Partner"),
    h("input", { id: "k-partner", name: "partner", placeholder: "the key's name" }),
    h("span", {}, "Opens"),
    h("div", { class: "actions", role: "group", "aria-label": "Opens" }, boxes),
    h("div", { class: "actions" }, h("button", { type: "submit" }, "Create key")),
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const scopes = data.getAll("scopes");
    if (scopes.length === 0) return clear(out, notice("Choose what the key opens: /v1, /mcp or both.", "error"));
    const partner = String(data.get("partner") ?? "").trim();
    try {
      const made = await api("POST", "/api/keys", { name: String(data.get("name")), scopes, ...(partner ? { partner } : {}) });
      form.reset();
      clear(out);
      onMade(made);
    } catch (error) {
      clear(out, notice(error.message, "error"));
    }
  });
  return form;
}

function keyTable(keys, reload) {
  if (keys.length === 0) return notice("No app keys yet: create one below for each app that should reach homed.");
  const revoke = async (k) => {
    if (!confirm(`Revoke the key ${k.name}? The app holding it is refused from its next request on.`)) return;
    await api("DELETE", `/api/keys/${encodeURIComponent(k.name)}`);
    reload();
  };
  const rows = keys.map((k) =>
    h(
      "tr",
      { dataset: { key: k.name } },
      h("td", {}, k.name),
      h("td", {}, k.partner ?? h("span", { class: "muted" }, k.name)),
      h("td", {}, k.scopes.map((s) => `/${s}`).join(" ")),
      h("td", {}, when(k.createdAt)),
      h("td", {}, k.lastUsedAt ? when(k.lastUsedAt) : h("span", { class: "muted" }, "never")),
      h("td", { class: "actions" }, h("button", { type: "button", class: "quiet danger", "aria-label": `Revoke ${k.name}`, onclick: () => revoke(k) }, "Revoke")),
    ),
  );
  const head = ["Name", "Partner", "Opens", "Created", "Last used", ""].map((t) => h("th", { scope: "col" }, t));
  return h("div", { class: "scroll" }, h("table", {}, h("thead", {}, h("tr", {}, head)), h("tbody", {}, rows)));
}

export async function renderKeys(view) {
  const list = h("div", {});
  const secret = h("div", {});
  const reload = async () => {
    try {
      clear(list, keyTable((await api("GET", "/api/keys")).keys, reload));
    } catch (error) {
      clear(list, notice(error.message, "error"));
    }
  };
  view.append(
    h("h1", {}, "App keys"),
    h("p", { class: "help" }, "A key lets one app reach /v1 (OpenAI clients) and /mcp (MCP clients) as its own partner, and nothing else: never this console or /api. Last used is kept to the minute."),
    secret,
    list,
    keyForm((made) => {
      clear(secret, secretCard(made));
      reload();
    }),
  );
  await reload();
}
