/**
 * `homed doctor` lines for what the optional built-in plugins need from the machine. Absent is
 * not a failure (the plugin may not be enabled, and its tools then say what to install); a
 * dependency that is present but does not run is.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CHROMIUM_CANDIDATES, findChromium, INSTALL_HINT } from "../../plugins/browser/chromium.ts";

const run = promisify(execFile);

export type DependencyCheck = { name: string; run: () => Promise<string> };

/** Runs the browser plugin's Chromium (`--version`), as the plugin would find it. */
export function chromiumCheck(candidates: readonly string[] = CHROMIUM_CANDIDATES): DependencyCheck {
  return {
    name: "browser: chromium",
    run: async () => {
      const path = findChromium(candidates);
      if (!path) return `absent: browser tools answer no_browser; to use them, ${INSTALL_HINT}`;
      const { stdout } = await run(path, ["--version"], { timeout: 10_000 });
      return `${stdout.trim()} at ${path}`;
    },
  };
}

export function pluginDependencyChecks(): DependencyCheck[] {
  return [chromiumCheck()];
}
