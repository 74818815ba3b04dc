/**
 * External plugins: `<data>/plugins/<name>/plugin.json` files, each naming a command, its
 * arguments and the environment it may see — or the `url` (and `headers`) of a remote MCP server
 * over Streamable HTTP. A file that cannot be used is reported and
 * skipped — one broken plugin folder must not keep the kernel from starting.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { PluginSpecSchema, pluginTargetProblem, type PluginSpec } from "./spec.ts";

const PluginFileSchema = PluginSpecSchema.omit({ name: true, cwd: true }).extend({
  /** Defaults to the folder's name. */
  name: PluginSpecSchema.shape.name.optional(),
});

export type LoadedPlugins = { specs: PluginSpec[]; problems: string[] };

export function loadExternalPlugins(dataDir: string): LoadedPlugins {
  const root = join(dataDir, "plugins");
  const specs: PluginSpec[] = [];
  const problems: string[] = [];
  if (!existsSync(root)) return { specs, problems };
  for (const folder of readdirSync(root).sort()) {
    const dir = join(root, folder);
    const file = join(dir, "plugin.json");
    if (!statSync(dir).isDirectory() || !existsSync(file)) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      problems.push(`Cannot load plugin ${file}: ${(error as Error).message}`);
      continue;
    }
    const parsed = PluginFileSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(`Cannot load plugin ${file}: ${z.prettifyError(parsed.error).replace(/\n/g, "; ")}`);
      continue;
    }
    const target = pluginTargetProblem(parsed.data);
    if (target) {
      problems.push(`Cannot load plugin ${file}: ${target}`);
      continue;
    }
    const name = parsed.data.name ?? folder;
    const spec = PluginSpecSchema.safeParse({ ...parsed.data, name, cwd: dir });
    if (!spec.success) {
      problems.push(`Cannot load plugin ${file}: ${z.prettifyError(spec.error).replace(/\n/g, "; ")}`);
      continue;
    }
    if (specs.some((s) => s.name === name)) {
      problems.push(`Cannot load plugin ${file}: another plugin is already named "${name}"`);
      continue;
    }
    specs.push(spec.data);
  }
  return { specs, problems };
}
