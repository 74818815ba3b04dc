/**
 * The daemon's plugins: which built-ins run, with what settings, plus external plugins from
 * `<data>/plugins/*`. Built-ins that act on the machine as the user — `shell` and `terminal` —
 * are off unless `homed.json` enables them: a model that can run any command is a choice a
 * person makes, not a default.
 */
import { mkdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { z } from "zod";
import { builtinSpec } from "../../plugins/index.ts";
import type { Logger } from "../log/index.ts";
import { createPluginHost, loadExternalPlugins, type PluginHost, type PluginSpec } from "../plugins/index.ts";
import type { Client } from "@libsql/client";
import { declareScene } from "../memory/index.ts";
import { selfCommand, USER_UMASK_ENV, userUmask } from "../runtime/index.ts";

export const PluginsConfigSchema = z.object({
  /**
   * The calendar is on from the start so "remind me in a minute" works on a fresh install (its
   * files stay in the data folder; it reaches no network and runs nothing); what acts on the
   * machine (shell, terminal, code) or reaches out (rss, browser) is chosen by the person.
   */
  enabled: z.array(z.enum(["files", "notes", "web_fetch", "shell", "terminal", "rss", "calendar", "browser", "code", "music"])).default(["files", "notes", "web_fetch", "calendar"]),
  /** The folder the files, shell and terminal plugins work in (default `<data>/files`). */
  workdir: z.string().min(1).optional(),
  /** The music plugin's settings (its folder, player, MPD address), checked by the plugin itself (plugins/music/index.ts). */
  music: z.record(z.string(), z.unknown()).default({}),
  /** Load `<data>/plugins/<name>/plugin.json` plugins. */
  external: z.boolean().default(true),
});
export type PluginsConfig = z.output<typeof PluginsConfigSchema>;

const USER_FOLDER_PLUGINS = new Set(["files", "shell", "terminal"]);

/**
 * The host of the enabled built-ins, `channels` (built-in channel plugins, channelPluginSpecs) and
 * external plugins. `feedIntervalSeconds`: how often followed feeds are checked (homed.json
 * `proactive.feedIntervalSeconds`; the rss plugin's own default without it).
 */
export function createDaemonPlugins(dataDir: string, config: PluginsConfig, log: Logger, channels: readonly PluginSpec[] = [], feedIntervalSeconds?: number): PluginHost {
  const workdir = resolve(config.workdir ?? join(dataDir, "files"));
  const notes = join(dataDir, "notes");
  mkdirSync(workdir, { recursive: true });
  mkdirSync(notes, { recursive: true });
  const self = selfCommand();
  const settings: Record<string, Record<string, unknown>> = {
    files: { root: workdir },
    notes: { dir: notes },
    web_fetch: {},
    shell: { cwd: workdir },
    terminal: { cwd: workdir },
    rss: { dir: join(dataDir, "rss"), ...(feedIntervalSeconds ? { pollSeconds: feedIntervalSeconds } : {}) },
    calendar: { dir: join(dataDir, "calendar") },
    browser: {},
    code: { dir: join(dataDir, "code-runs") },
    music: { dir: join(dataDir, "music"), ...config.music },
  };
  // homed's files are owner-only (src/runtime/file-modes.ts), and its plugins inherit that. The
  // plugins that act in the user's own folder, when it is not inside the data folder, create
  // files the way the user's other programs there do: with the user's umask.
  const fromData = relative(resolve(dataDir), workdir);
  const ownFolder = fromData === ".." || fromData.startsWith("../");
  const userEnv: Record<string, string> = ownFolder ? { [USER_UMASK_ENV]: userUmask().toString(8) } : {};
  const specs = config.enabled.map((name) => {
    const spec = builtinSpec(name, self, settings[name]!);
    return USER_FOLDER_PLUGINS.has(name) ? { ...spec, env: { ...spec.env, ...userEnv } } : spec;
  });
  specs.push(...channels);
  if (config.external) {
    const external = loadExternalPlugins(dataDir);
    for (const problem of external.problems) log.warn(problem);
    for (const spec of external.specs) {
      if (specs.some((s) => s.name === spec.name)) log.warn(`Cannot load plugin ${spec.name} from ${spec.cwd}: a built-in plugin is already named "${spec.name}"`);
      else specs.push(spec);
    }
  }
  return createPluginHost(specs, { report: (level, line) => log[level](line) });
}

/**
 * Declares the scenes running plugins name in their manifests (`homed/manifest` → `scenes`), so
 * memory of `chan:qq/peer:group_1` is a scene from its first turn, not its second. Idempotent: a
 * scene declared before keeps its history. Returns the keys declared.
 */
export async function declarePluginScenes(plugins: PluginHost, client: Client, log: Pick<Logger, "info" | "warn">): Promise<string[]> {
  const declared: string[] = [];
  for (const status of plugins.list()) {
    for (const key of status.state === "running" ? (status.manifest?.scenes ?? []) : []) {
      try {
        await declareScene(client, key);
        declared.push(key);
      } catch (error) {
        log.warn(`plugin ${status.name}: cannot declare scene ${key}: ${(error as Error).message}`);
      }
    }
  }
  if (declared.length > 0) log.info(`scenes declared by plugins: ${declared.join(", ")}`);
  return declared;
}
