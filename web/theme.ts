// The colour scheme: light, dark, or the system's (prefers-color-scheme, followed as it changes),
// remembered in this browser. console.css holds both palettes as custom properties; the scheme
// in use is the root's data-theme.
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
const STORAGE_KEY = "homed.theme";
const SYSTEM_DARK = "(prefers-color-scheme: dark)";

/** The person's choice ("system" until they make one). */
export function theme(): Theme {
  const chosen = globalThis.localStorage?.getItem(STORAGE_KEY);
  return THEMES.find((id) => id === chosen) ?? "system";
}

/** Puts the chosen scheme on the page; "system" asks the media query. */
function apply(): void {
  const chosen = theme();
  const dark = chosen === "dark" || (chosen === "system" && matchMedia(SYSTEM_DARK).matches);
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

/** Called once at start, before the first draw (so a dark page never flashes light); follows the system's changes. */
export function startTheme(): void {
  apply();
  matchMedia(SYSTEM_DARK).addEventListener("change", apply);
}

export function setTheme(id: Theme): void {
  if (!THEMES.includes(id)) return;
  globalThis.localStorage?.setItem(STORAGE_KEY, id);
  apply();
}
