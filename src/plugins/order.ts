/**
 * Start-up order from declared facilities: each plugin waits only for the providers of what it
 * requires, so independent plugins start together. A missing provider or a cycle is an error
 * raised before anything starts (and, for built-ins, by a test that runs at build time).
 */
import { HomedError } from "../errors/index.ts";
export type Declared = { name: string; provides: readonly string[]; requires: readonly string[] };

export class StartupOrderError extends HomedError {
  constructor(message: string) {
    super("startup_order", message);
    this.name = "StartupOrderError";
  }
}

/** For each plugin, the plugins it must wait for; throws StartupOrderError when none can work. */
export function startupDependencies(plugins: readonly Declared[]): Map<string, string[]> {
  const provider = new Map<string, string>();
  for (const plugin of plugins) {
    for (const facility of plugin.provides) {
      const other = provider.get(facility);
      if (other && other !== plugin.name) throw new StartupOrderError(`Cannot order plugins: "${facility}" is provided by both ${other} and ${plugin.name}`);
      provider.set(facility, plugin.name);
    }
  }
  const deps = new Map<string, string[]>();
  for (const plugin of plugins) {
    const needs = new Set<string>();
    for (const facility of plugin.requires) {
      const from = provider.get(facility);
      if (!from) throw new StartupOrderError(`Cannot order plugins: ${plugin.name} requires "${facility}", which no plugin provides`);
      if (from !== plugin.name) needs.add(from);
    }
    deps.set(plugin.name, [...needs].sort());
  }
  const cycle = findCycle(deps);
  if (cycle) throw new StartupOrderError(`Cannot order plugins: they require each other in a cycle (${cycle.join(" → ")})`);
  return deps;
}

/** Start waves: every plugin of a wave depends only on earlier waves (for display and docs). */
export function startupWaves(deps: Map<string, string[]>): string[][] {
  const waves: string[][] = [];
  const placed = new Set<string>();
  while (placed.size < deps.size) {
    const wave = [...deps.keys()].filter((n) => !placed.has(n) && deps.get(n)!.every((d) => placed.has(d))).sort();
    if (wave.length === 0) throw new StartupOrderError("Cannot order plugins: cycle");
    for (const name of wave) placed.add(name);
    waves.push(wave);
  }
  return waves;
}

function findCycle(deps: Map<string, string[]>): string[] | null {
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (name: string): string[] | null => {
    if (state.get(name) === "done") return null;
    if (state.get(name) === "visiting") return [...path.slice(path.indexOf(name)), name];
    state.set(name, "visiting");
    path.push(name);
    for (const dep of deps.get(name) ?? []) {
      const found = visit(dep);
      if (found) return found;
    }
    path.pop();
    state.set(name, "done");
    return null;
  };
  for (const name of deps.keys()) {
    const found = visit(name);
    if (found) return found;
  }
  return null;
}
