/**
 * Builds the single binary `dist/homed` with `bun build --compile`.
 *
 * libsql chooses its native addon with ``require(`@libsql/${target}`)``, which the bundler
 * cannot follow, so the binary would fail with "Cannot find module '@libsql/linux-x64-gnu'".
 * The plugin below rewrites that one line to a static require of this platform's `.node`
 * file, which the bundler then embeds.
 */
import type { BunPlugin } from "bun";
import { BUILTIN_PLUGINS } from "../plugins/index.ts";
import { startupDependencies, startupWaves } from "../src/plugins/index.ts";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outfile = process.argv[2] ?? `${root}dist/homed`;

const NATIVE_TARGETS: Record<string, string> = { x64: "linux-x64-gnu", arm64: "linux-arm64-gnu" };

function libsqlStaticNative(target: string): BunPlugin {
  return {
    name: "libsql-static-native",
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, async (args) => {
        const source = await Bun.file(args.path).text();
        const dynamic = "require(`@libsql/${target}`)";
        if (!source.includes(dynamic)) {
          throw new Error(`Cannot build: libsql's native require changed; update ${import.meta.path}`);
        }
        return { contents: source.replace(dynamic, `require("@libsql/${target}/index.node")`), loader: "js" };
      });
    },
  };
}

const target = NATIVE_TARGETS[process.arch];
if (process.platform !== "linux" || !target) {
  console.error(`Cannot build: homed ships for Linux x64/arm64, not ${process.platform}-${process.arch}`);
  process.exit(1);
}

// The built-in plugins' start-up order is resolved here, so a cycle or a missing provider
// fails the build rather than a user's start-up.
const builtins = Object.values(BUILTIN_PLUGINS).map((p) => ({ name: p.name, provides: p.provides ?? [], requires: p.requires ?? [] }));
try {
  startupWaves(startupDependencies(builtins));
} catch (error) {
  console.error(`Cannot build: ${(error as Error).message}`);
  process.exit(1);
}

const result = await Bun.build({
  entrypoints: [`${root}src/main.ts`],
  compile: { outfile },
  plugins: [libsqlStaticNative(target)],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile}`);
