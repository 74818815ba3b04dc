/**
 * The built-in plugins, run from the homed binary itself (`homed plugin run <name>`), so the
 * tarball needs nothing else. Each runs in its own process under the kernel's supervisor.
 */
import type { PluginSpec } from "../src/plugins/index.ts";
import { PluginSpecSchema } from "../src/plugins/index.ts";
import { browserPlugin } from "./browser/index.ts";
import { calendarPlugin } from "./calendar/index.ts";
import { codePlugin } from "./code/index.ts";
import { filesPlugin } from "./files/index.ts";
import { musicPlugin } from "./music/index.ts";
import { notesPlugin } from "./notes/index.ts";
import { qqChannel } from "./qq/index.ts";
import { rssPlugin } from "./rss/index.ts";
import { servePlugin, type PluginDefinition } from "./sdk/index.ts";
import { shellPlugin } from "./shell/index.ts";
import { terminalPlugin } from "./terminal/index.ts";
import { webFetchPlugin } from "./web-fetch/index.ts";

export const BUILTIN_PLUGINS: Readonly<Record<string, PluginDefinition>> = {
  files: filesPlugin,
  shell: shellPlugin,
  notes: notesPlugin,
  web_fetch: webFetchPlugin,
  terminal: terminalPlugin,
  rss: rssPlugin,
  calendar: calendarPlugin,
  browser: browserPlugin,
  code: codePlugin,
  music: musicPlugin,
  // A channel (docs/channel-plugins.md): started by the daemon when homed.json's channels.qq is enabled.
  qq: qqChannel,
};

export { QQConfigSchema, type QQConfig } from "./qq/index.ts";

export class UnknownPluginError extends Error {
  readonly code = "unknown_plugin";
  constructor(name: string) {
    super(`Cannot run plugin "${name}": no built-in plugin has that name (built-ins: ${Object.keys(BUILTIN_PLUGINS).join(", ")})`);
    this.name = "UnknownPluginError";
  }
}

/** Serves one built-in plugin on this process's stdin/stdout until stdin closes. */
export async function runBuiltinPlugin(name: string): Promise<void> {
  const plugin = BUILTIN_PLUGINS[name];
  if (!plugin) throw new UnknownPluginError(name);
  await servePlugin(plugin, {
    input: process.stdin,
    output: process.stdout,
    env: process.env,
    log: (line) => process.stderr.write(`${line}\n`),
  });
}

/**
 * How the kernel launches a built-in: `self` is the command that runs homed itself
 * ([binary] when compiled, [bun, src/main.ts] from source); `config` becomes the plugin's
 * HOMED_PLUGIN_CONFIG and is checked by the plugin against its own schema.
 */
export function builtinSpec(name: string, self: readonly string[], config: Record<string, unknown>): PluginSpec {
  const plugin = BUILTIN_PLUGINS[name];
  if (!plugin) throw new UnknownPluginError(name);
  const [command, ...prefix] = self;
  if (!command) throw new Error("Cannot launch a built-in plugin: the command that runs homed is empty");
  return PluginSpecSchema.parse({
    name,
    command,
    args: [...prefix, "plugin", "run", name],
    env: { HOMED_PLUGIN_CONFIG: JSON.stringify(config) },
    provides: plugin.provides ?? [],
    requires: plugin.requires ?? [],
    ...(plugin.sharedMemoryBytes ? { sharedMemoryBytes: plugin.sharedMemoryBytes } : {}),
    ...(plugin.limits ? { limits: plugin.limits } : {}),
  });
}

/** `homed plugin run <name>`: the only sub-command for now. */
export async function runPluginCommand(rest: readonly string[], usage: (message: string) => Error): Promise<number> {
  const [verb, name, ...extra] = rest;
  if (verb !== "run" || !name || extra.length > 0) throw usage(`usage: homed plugin run <name> (built-ins: ${Object.keys(BUILTIN_PLUGINS).join(", ")})`);
  await runBuiltinPlugin(name);
  return 0;
}
