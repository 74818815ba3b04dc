// The console's shell: checks the login, then shows one page per #/route, in the reader's
// language (web/i18n.ts), redrawn when the language is switched.
import { type ComponentChildren, render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.ts";
import type { AuthStatus } from "./api-types.ts";
import { LanguageSwitch, Loading, Notice, type Page, ThemeSwitch } from "./components.tsx";
import { errorText } from "./errors.ts";
import { language, t } from "./i18n.ts";
import { Audit } from "./page-audit.tsx";
import { Chat } from "./page-chat.tsx";
import { Context } from "./page-context.tsx";
import { Doctor } from "./page-doctor.tsx";
import { Keys } from "./page-keys.tsx";
import { LiveNotifications } from "./live-notifications.tsx";
import { Login } from "./page-login.tsx";
import { Memory } from "./page-memory.tsx";
import { Plugins } from "./page-plugins.tsx";
import { Providers } from "./page-providers.tsx";
import { Scenes } from "./page-scenes.tsx";
import { startTheme } from "./theme.ts";

// The chosen colour scheme before the first draw, so a dark page never flashes light.
startTheme();

/** The pages, in the navigation's order: #/route (its label is t("nav.<route>")) and its renderer. */
const PAGES = [
  ["chat", Chat],
  ["providers", Providers],
  ["memory", Memory],
  ["context", Context],
  ["scenes", Scenes],
  ["audit", Audit],
  ["plugins", Plugins],
  ["keys", Keys],
  ["doctor", Doctor],
] as const satisfies readonly (readonly [string, Page])[];
type Route = (typeof PAGES)[number][0];

/** The route and its parameters from the address: #/context/abc → ["context", ["abc"]]. */
function place(): [Route, string[]] {
  const [name = "chat", ...params] = location.hash.replace(/^#\/?/, "").split("/");
  const route = PAGES.find(([r]) => r === name)?.[0] ?? "chat";
  return [route, params.map(decodeURIComponent)];
}

/** Each event that redraws the page: a new address, the language switched, Try again. */
function useVisits(): [number, () => void] {
  const [visit, setVisit] = useState(0);
  const again = () => setVisit((v) => v + 1);
  useEffect(() => {
    window.addEventListener("hashchange", again);
    window.addEventListener("homed:language", again);
    return () => {
      window.removeEventListener("hashchange", again);
      window.removeEventListener("homed:language", again);
    };
  }, []);
  return [visit, again];
}

function Shell() {
  const [visit, again] = useVisits();
  /** undefined: not asked yet (or logged out since); the login page needs where the token is. */
  const [auth, setAuth] = useState<AuthStatus | undefined>(undefined);
  const [failure, setFailure] = useState<Error | null>(null);
  /** On a phone the navigation folds behind Menu; choosing a page folds it again. */
  const [open, setOpen] = useState(false);
  const loggedIn = auth?.loggedIn === true;

  useEffect(() => {
    document.documentElement.lang = language();
    setOpen(false);
  }, [visit]);
  // Each page names its tab ("Memory — homed"), so a person with several open can tell them apart.
  const [route, params] = place();
  useEffect(() => {
    document.title = `${loggedIn ? t(`nav.${route}`) : t("login.submit")} — homed`;
  }, [visit, loggedIn, route]);

  // Asked again on every visit until logged in: the daemon may have been down, or the cookie gone.
  useEffect(() => {
    if (loggedIn) return;
    let current = true;
    api<AuthStatus>("GET", "/api/auth").then(
      (status) => current && (setAuth(status), setFailure(null)),
      (error: Error) => current && setFailure(error),
    );
    return () => {
      current = false;
    };
  }, [visit, loggedIn]);

  useEffect(() => {
    const loggedOut = () => setAuth((a) => (a?.loggedIn ? undefined : a));
    window.addEventListener("homed:logged-out", loggedOut);
    return () => window.removeEventListener("homed:logged-out", loggedOut);
  }, []);

  async function logOut() {
    await api("POST", "/api/logout");
    setAuth(undefined);
  }

  const retry = () => {
    setFailure(null);
    again();
  };
  const Shown = PAGES.find(([r]) => r === route)![1];
  let body: ComponentChildren;
  if (failure) {
    // A page that could not be drawn: what went wrong, and a button to try again (the daemon may be back).
    body = (
      <div>
        <Notice kind="error">{t("shell.cannotShow", { message: errorText(failure) })}</Notice>
        <button type="button" onClick={retry}>
          {t("shell.retry")}
        </button>
      </div>
    );
  } else if (!auth) body = <Loading label={t("shell.loading")} />;
  else if (!auth.loggedIn) body = <Login status={auth} onLoggedIn={() => setAuth({ ...auth, loggedIn: true })} />;
  // Keyed by the visit: each one draws the page afresh (a page still loading for an earlier one is dropped).
  else
    body = (
      <>
        <div class="page" key={`${route}/${visit}`}>
          <Shown params={params} fail={setFailure} />
        </div>
        {/* Shown (by console.css) only while the page above has drawn nothing yet: its data is on the way. */}
        <Loading />
      </>
    );

  return (
    <>
      <a class="skip" href="#view">
        {t("shell.skip")}
      </a>
      <header id="top" hidden={!loggedIn} class={open ? "open" : undefined}>
        <span class="brand" translate={false}>
          homed
        </span>
        <button type="button" id="menu" class="quiet menu" aria-expanded={open} aria-controls="pages" onClick={() => setOpen(!open)}>
          {t("shell.menu")}
        </button>
        <nav id="pages" aria-label={t("shell.navLabel")}>
          {PAGES.map(([r]) => (
            <a key={r} href={`#/${r}`} aria-current={r === route ? "page" : undefined}>
              {t(`nav.${r}`)}
            </a>
          ))}
        </nav>
        <span id="top-language" class="tools">
          <LanguageSwitch id="top" />
          <ThemeSwitch />
          <button type="button" id="logout" class="quiet" onClick={logOut}>
            {t("shell.logout")}
          </button>
        </span>
      </header>
      <main id="view" tabindex={-1}>
        {body}
      </main>
      {loggedIn && <LiveNotifications />}
    </>
  );
}

render(<Shell />, document.getElementById("app")!);
