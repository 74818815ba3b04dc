// First run and login: where the admin token is, and a form that trades it for a session cookie.
import { api } from "/assets/api.js";
import { clear, h, languageSwitch, notice } from "/assets/dom.js";
import { t } from "/assets/i18n.js";

export function renderLogin(view, status, onLoggedIn) {
  const input = h("input", { id: "token", name: "token", type: "password", autocomplete: "current-password", required: true, "aria-describedby": "token-help" });
  const message = h("div", { "aria-live": "polite" });
  const form = h(
    "form",
    {
      class: "card login",
      async onsubmit(event) {
        event.preventDefault();
        clear(message);
        try {
          await api("POST", "/api/login", { token: input.value });
          input.value = "";
          onLoggedIn();
        } catch (error) {
          const text = error.code === "unauthorized" ? t("login.wrong") : error.code === "rate_limited" ? t("login.tooMany") : error.message;
          clear(message, notice(text, "error"));
          input.focus();
        }
      },
    },
    h("label", { for: "token" }, t("login.tokenLabel")),
    input,
    h("button", { type: "submit" }, t("login.submit")),
    message,
  );
  clear(
    view,
    h("div", { class: "login-language" }, languageSwitch("login")),
    h("h1", {}, t("login.title")),
    h(
      "div",
      { id: "token-help", class: "help" },
      h("p", {}, t("login.where")),
      h("pre", { class: "path" }, status.tokenFile),
      h("p", {}, t("login.copyBefore"), h("code", {}, `cat ${status.tokenFile}`), t("login.copyAfter")),
      h("p", {}, t("login.lostBefore"), h("code", {}, "homed token reset -data DIR"), t("login.lostAfter")),
    ),
    form,
  );
  input.focus();
}
