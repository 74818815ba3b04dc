/**
 * Where the machine's Chromium is. homed never downloads a browser: it drives the one the
 * system package installed (Debian's `chromium`), or the path the settings name.
 */
import { accessSync, constants } from "node:fs";

export const CHROMIUM_CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome-stable", "/usr/bin/google-chrome", "/snap/bin/chromium"];

export const INSTALL_HINT = "install the system package (Debian/Ubuntu: apt install chromium; Fedora: dnf install chromium)";

/** The first executable among `candidates`, or undefined. */
export function findChromium(candidates: readonly string[] = CHROMIUM_CANDIDATES): string | undefined {
  for (const path of candidates) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here; try the next
    }
  }
  return undefined;
}
