// First run and login: where the admin token is, and a form that trades it for a session cookie.
import { api } from "/assets/api.js";
import { clear, h, notice } from "/assets/dom.js";

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
          clear(message, notice(error.message, "error"));
          input.focus();
        }
      },
    },
    h("label", { for: "token" }, "Admin token"),
    input,
    h("button", { type: "submit" }, "Log in"),
    message,
  );
  clear(
    view,
    h("h1", {}, "Log in to homed"),
    h(
      "div",
      { id: "token-help", class: "help" },
      h("p", {}, "On its first start homed wrote an admin token, readable only by you, to:"),
      h("pre", { class: "path" }, status.tokenFile),
      h("p", {}, "Copy it from there (", h("code", {}, `cat ${status.tokenFile}`), ") and paste it below. The console keeps a session cookie, never the token."),
      h("p", {}, "Lost it? Run ", h("code", {}, "homed token reset -data DIR"), " and restart the daemon."),
    ),
    form,
  );
  input.focus();
}
