// The console's shell: checks the login, then shows one page per #/route.
import { api } from "/assets/api.js";
import { clear, notice } from "/assets/dom.js";
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

const PAGES = {
  chat: renderChat,
  providers: renderProviders,
  memory: renderMemory,
  context: renderContext,
  audit: renderAudit,
  scenes: renderScenes,
  doctor: renderDoctor,
  plugins: renderPlugins,
  keys: renderKeys,
};

const view = document.getElementById("view");
const top = document.getElementById("top");
let loggedIn = false;
let leave = null;

async function show() {
  leave?.();
  leave = null;
  if (!loggedIn) {
    top.hidden = true;
    const status = await api("GET", "/api/auth");
    loggedIn = status.loggedIn;
    if (!loggedIn) {
      renderLogin(view, status, () => {
        loggedIn = true;
        show();
      });
      return;
    }
  }
  top.hidden = false;
  const [name = "chat", ...params] = location.hash.replace(/^#\/?/, "").split("/");
  const render = PAGES[name] ?? PAGES.chat;
  for (const link of top.querySelectorAll("nav a")) {
    if (link.getAttribute("href") === `#/${name}`) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  clear(view);
  try {
    leave = (await render(view, params.map(decodeURIComponent))) ?? null;
  } catch (error) {
    clear(view, notice(`Cannot show this page: ${error.message}`, "error"));
  }
}

window.addEventListener("hashchange", show);
window.addEventListener("homed:logged-out", () => {
  if (!loggedIn) return;
  loggedIn = false;
  show();
});
document.getElementById("logout").addEventListener("click", async () => {
  await api("POST", "/api/logout");
  loggedIn = false;
  show();
});
show().catch((error) => clear(view, notice(error.message, "error")));
