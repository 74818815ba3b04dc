/**
 * `homed doctor` lines for what the optional built-in plugins need from the machine. Absent is
 * not a failure (the plugin may not be enabled, and its tools then say what to install); a
 * Chromium that is present but does not run is.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { CHROMIUM_CANDIDATES, findChromium, INSTALL_HINT } from "../../plugins/browser/chromium.ts";
import { BWRAP_CANDIDATES, BWRAP_HINT, findExecutable, usableBwrap } from "../../plugins/code/sandbox.ts";
import { findProgram, INSTALL_HINT as PLAYER_HINT } from "../../plugins/music/player.ts";

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

/** bubblewrap for the code plugin: installed, and able to make its namespaces on this machine. */
export function bwrapCheck(candidates: readonly string[] = BWRAP_CANDIDATES): DependencyCheck {
  return {
    name: "code: bubblewrap",
    run: async () => {
      const path = findExecutable(candidates);
      if (!path) return `absent: code runs snippets without a sandbox, with halved limits; to sandbox them, ${BWRAP_HINT}`;
      // Containers and hardened kernels often forbid user namespaces: a property of the machine,
      // not a broken install, so it is said rather than failed (the plugin falls back the same way).
      if (!usableBwrap([path])) return `${path} cannot create its namespaces here (user namespaces off?): code runs snippets without a sandbox, with halved limits`;
      const { stdout } = await run(path, ["--version"], { timeout: 10_000 });
      return `${stdout.trim()} at ${path}: snippets run without network, seeing only the system's programs`;
    },
  };
}

/** mpv for the music plugin, as the plugin finds it on PATH (MPD, a server, is not looked for here). */
export function mpvCheck(program = "mpv"): DependencyCheck {
  return {
    name: "music: mpv",
    run: async () => {
      const path = findProgram(program);
      if (!path) return `absent: music plays through MPD if one runs, else its playback tools answer no_player; to play, ${PLAYER_HINT}`;
      const { stdout } = await run(path, ["--version"], { timeout: 10_000 });
      return `${stdout.split("\n")[0]?.trim()} at ${path}`;
    },
  };
}

export function pluginDependencyChecks(): DependencyCheck[] {
  return [chromiumCheck(), bwrapCheck(), mpvCheck()];
}
