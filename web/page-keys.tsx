// @ts-nocheck -- not yet a typed component (issue 20): converted page by page
// App keys: one per app (Open WebUI, a script, an MCP client) for /v1 and /mcp, never /api.
// A new key is shown once, with a copy button; the list shows when each was last used; revoking
// asks first, and the app holding the key is refused from its next request on.
import { api } from "./api.ts";
import { clear, data, h, notice, when } from "./dom.ts";
import { t } from "./i18n.ts";

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
  const onclick = async () => status.replaceChildren((await copy(field)) ? t("keys.copied") : t("keys.copyByHand"));
  return h(
    "div",
    { class: "card", role: "region", "aria-label": t("keys.newKey"), style: "max-width: 720px" },
    h("h2", {}, t("keys.keyFor"), data(made.name)),
    h("p", { class: "notice ok" }, t("keys.copyNow")),
    h("p", {}, h("label", { for: "k-secret" }, t("keys.key")), field),
    h("div", { class: "actions" }, h("button", { type: "button", onclick }, t("keys.copy")), status),
    h(
      "p",
      { class: "help" },
      t("keys.useOpenAI"),
      h("code", {}, `${location.origin}/v1`),
      t("keys.useMcp"),
      h("code", {}, `${location.origin}/mcp`),
      t("keys.useHeader"),
      h("code", {}, "Authorization: Bearer <key>"),
      t("keys.useEnd"),
    ),
  );
}

function keyForm(onMade) {
  const out = h("div", { "aria-live": "polite" });
  const boxes = SCOPES.map((s) => h("label", {}, h("input", { type: "checkbox", name: "scopes", value: s, checked: true }), ` /${s}`));
  const form = h(
    "form",
    { class: "card grid", "aria-label": t("keys.create") },
    h("h2", {}, t("keys.create")),
    h("label", { for: "k-name" }, t("keys.name")),
    h("input", { id: "k-name", name: "name", required: true, pattern: "[A-Za-z0-9._\\-]{1,64}", placeholder: "webui", title: t("keys.nameRule") }),
    h("label", { for: "k-partner" }, t("keys.partner")),
    h("input", { id: "k-partner", name: "partner", placeholder: t("keys.partnerPlaceholder") }),
    h("span", {}, t("keys.opens")),
    h("div", { class: "actions", role: "group", "aria-label": t("keys.opens") }, boxes),
    h("div", { class: "actions" }, h("button", { type: "submit" }, t("keys.createButton"))),
    out,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fields = new FormData(form);
    const scopes = fields.getAll("scopes");
    if (scopes.length === 0) return clear(out, notice(t("keys.chooseScope"), "error"));
    const partner = String(fields.get("partner") ?? "").trim();
    try {
      const made = await api("POST", "/api/keys", { name: String(fields.get("name")), scopes, ...(partner ? { partner } : {}) });
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
  if (keys.length === 0) return notice(t("keys.none"));
  const revoke = async (k) => {
    if (!confirm(t("keys.confirmRevoke", { name: k.name }))) return;
    await api("DELETE", `/api/keys/${encodeURIComponent(k.name)}`);
    reload();
  };
  const rows = keys.map((k) =>
    h(
      "tr",
      { dataset: { key: k.name } },
      h("td", { translate: "no" }, k.name),
      h("td", { translate: "no" }, k.partner ?? h("span", { class: "muted" }, k.name)),
      h("td", { translate: "no" }, k.scopes.map((s) => `/${s}`).join(" ")),
      h("td", {}, when(k.createdAt)),
      h("td", {}, k.lastUsedAt ? when(k.lastUsedAt) : h("span", { class: "muted" }, t("keys.never"))),
      h("td", { class: "actions" }, h("button", { type: "button", class: "quiet danger", "aria-label": t("keys.revokeLabel", { name: k.name }), onclick: () => revoke(k) }, t("keys.revoke"))),
    ),
  );
  const head = [...["colName", "colPartner", "colOpens", "colCreated", "colLastUsed"].map((k) => t(`keys.${k}`)), ""].map((c) => h("th", { scope: "col" }, c));
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
    h("h1", {}, t("keys.title")),
    h("p", { class: "help" }, t("keys.help")),
    secret,
    list,
    keyForm((made) => {
      clear(secret, secretCard(made));
      reload();
    }),
  );
  await reload();
}
