// The console's shell: checks the login, then shows one page per #/route, in the reader's
// language (web/i18n.js), redrawn when the language is switched.
import { api } from "/assets/api.js";
import { clear, h, languageSwitch, notice } from "/assets/dom.js";
import { language, t } from "/assets/i18n.js";
import { renderLogin } from "/assets/page-login.js";
import { renderChat } from "/assets/page-chat.js";
import { renderProviders } from "/assets/page-providers.js";
import { renderMemory } from "/assets/page-memory.js";
import { renderContext } from "/assets/page-context.js";
import { renderAudit } from "/assets/page-audit.js";
import { renderScenes } from "/assets/page-scenes.js";
import { renderDoctor } from "/assets/page-doctor.js";
import { renderPlugins } from "/assets/page-plugins.js";
import { renderKeys } from "/assets/page-keys.js";

/** The pages, in the navigation's order: #/route, its renderer, and its label (STRINGS.nav[route]). */
const PAGES = [
  ["chat", renderChat],
  ["providers", renderProviders],
  ["memory", renderMemory],
  ["context", renderContext],
  ["scenes", renderScenes],
  ["audit", renderAudit],
  ["plugins", renderPlugins],
  ["keys", renderKeys],
  ["doctor", renderDoctor],
];

const view = document.getElementById("view");
const top = document.getElementById("top");
const nav = document.getElementById("pages");
const menu = document.getElementById("menu");
let loggedIn = false;
let leave = null;

/** The words outside the pages: skip link, navigation, menu and Log out. */
function drawShell() {
  document.documentElement.lang = language();
  document.querySelector(".skip").textContent = t("shell.skip");
  nav.setAttribute("aria-label", t("shell.navLabel"));
  clear(
    nav,
    PAGES.map(([route]) => h("a", { href: `#/${route}` }, t(`nav.${route}`))),
  );
  menu.textContent = t("shell.menu");
  clear(document.getElementById("top-language"), languageSwitch("top"));
  document.getElementById("logout").textContent = t("shell.logout");
}

/** On a phone the navigation folds behind Menu; choosing a page folds it again. */
function fold(open) {
  menu.setAttribute("aria-expanded", String(open));
  top.classList.toggle("open", open);
}

/**
 * Each show() draws into its own element; one started later (a quick second click, the login's
 * redraw racing a hash change) replaces it, and the earlier one goes on drawing off the page.
 * Before, both drew into the page and it showed two pages, one under the other.
 */
let shown = 0;

async function show() {
  const mine = ++shown;
  leave?.();
  leave = null;
  fold(false);
  if (!loggedIn) {
    top.hidden = true;
    const status = await api("GET", "/api/auth");
    if (mine !== shown) return;
    loggedIn = status.loggedIn;
    if (!loggedIn) {
      renderLogin(view, status, () => {
        loggedIn = true;
        show().catch(failed);
      });
      return;
    }
  }
  top.hidden = false;
  const [name = "chat", ...params] = location.hash.replace(/^#\/?/, "").split("/");
  const render = (PAGES.find(([route]) => route === name) ?? PAGES[0])[1];
  for (const link of nav.querySelectorAll("a")) {
    if (link.getAttribute("href") === `#/${name}`) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const target = h("div", { class: "page" });
  clear(view, target);
  try {
    const done = (await render(target, params.map(decodeURIComponent))) ?? null;
    if (mine === shown) leave = done;
    else done?.();
  } catch (error) {
    if (mine === shown) clear(view, unreachable(error, "shell.cannotShow"));
  }
}

/** A page that could not be drawn: what went wrong, and a button to try again (the daemon may be back). */
function unreachable(error, key) {
  return h("div", {}, notice(t(key, { message: error.message }), "error"), h("button", { type: "button", onclick: () => show().catch(failed) }, t("shell.retry")));
}
const failed = (error) => clear(view, unreachable(error, "shell.cannotShow"));

window.addEventListener("hashchange", () => show().catch(failed));
window.addEventListener("homed:language", () => {
  drawShell();
  show().catch(failed);
});
window.addEventListener("homed:logged-out", () => {
  if (!loggedIn) return;
  loggedIn = false;
  show().catch(failed);
});
menu.addEventListener("click", () => fold(menu.getAttribute("aria-expanded") !== "true"));
document.getElementById("logout").addEventListener("click", async () => {
  await api("POST", "/api/logout");
  loggedIn = false;
  show().catch(failed);
});
drawShell();
clear(view, notice(t("shell.loading")));
show().catch(failed);
