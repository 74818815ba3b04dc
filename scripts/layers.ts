/**
 * The layers of homed's code (DESIGN §2), as data: the rank of each area and the imports that
 * actually run between areas. tests/architecture/layers.test.ts checks the imports against the
 * ranks; scripts/gen-architecture.ts draws both into docs/architecture.md. One table for both,
 * so the diagram cannot show an order the test does not hold.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SRC = join(ROOT, "src");
/** The console's bundle, generated from web/'s code by scripts/gen-console.ts. */
const WEB_BUNDLE = join(ROOT, "web/dist");
const CODE = /\.(ts|tsx|js)$/;

/**
 * Rank of each area; a file may import only from areas of equal or lower rank. An area is a
 * folder of src/ or plugins/, web/, or one of the files at the top of src/ (main.ts is the entry
 * above everything; src/daemon/ puts the daemon together from the server, kernel and plugins).
 */
export const RANK: Record<string, number> = {
  "src/runtime": 0,
  "src/errors": 0,
  // The plugin protocol, spoken by the host (src/plugins) and the plugin SDK (plugins/sdk).
  "src/protocol": 0.5,
  "src/version.ts": 0,
  "src/log": 1,
  "src/config": 1,
  "src/text": 1,
  // The search engine (analysis, segments of postings, BM25): the store indexes through it.
  "src/search": 1,
  "src/embed": 1.2,
  "src/store": 1.2,
  "src/context": 2,
  "src/memory": 2,
  "src/llm": 2,
  "src/doctor": 3,
  "src/kernel": 3,
  "src/plugins": 3,
  // The plugin SDK and the built-in plugins (their registry, plugins/index.ts, reads src/plugins' spec).
  plugins: 3,
  "src/server": 4,
  // Channels start kernel turns from outside (QQ's WebSocket), beside the HTTP surface.
  "src/channels": 4,
  // The console is a client of the HTTP API: it imports the server's types (and only types).
  web: 4.2,
  // The daemon's wiring: store, plugins, channels, kernel and server put together.
  "src/daemon": 4.5,
  "src/cli": 5,
  "src/main.ts": 6,
};

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || path === WEB_BUNDLE) return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return CODE.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** src/<folder>, a file at the top of src/, plugins/<folder> (or plugins/(root)), or web. */
export function areaOf(path: string): string {
  const parts = relative(ROOT, path).split("/");
  if (parts[0] === "web") return "web";
  if (parts[0] === "src") return parts.length === 2 ? `src/${parts[1]}` : `src/${parts[1]}`;
  return parts.length === 2 ? "plugins/(root)" : `plugins/${parts[1]}`;
}

export const rankOf = (area: string) => RANK[area] ?? (area.startsWith("plugins/") ? RANK.plugins : undefined);

export type Import = { from: string; to: string; fromArea: string; toArea: string };

/** Every relative import (static or dynamic) of a code file, resolved. */
export function importsOf(file: string): Import[] {
  const source = readFileSync(file, "utf8");
  return [...source.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*"(\.[^"]+)"/g)].map((m) => {
    const to = resolve(dirname(file), m[1]!);
    return { from: relative(ROOT, file), to: relative(ROOT, to), fromArea: areaOf(file), toArea: to.startsWith(ROOT) ? areaOf(to) : "" };
  });
}

/** Code of src/, plugins/ or web/; the console's bundle is a file the binary carries (assets-bun.ts embeds it), not an import of code. */
export const isCodeIn = (path: string) => CODE.test(path) && /^(src|plugins|web)\//.test(path) && !path.startsWith("web/dist/");

/** Every code file of src/, plugins/ and web/ (not web/dist/), and every relative import among them. */
export function codeAndImports(): { files: string[]; imports: Import[] } {
  const files = [...sourceFiles(SRC), ...sourceFiles(join(ROOT, "plugins")), ...sourceFiles(join(ROOT, "web"))];
  return { files, imports: files.flatMap(importsOf) };
}
