/**
 * Builds the single binary with `bun build --compile`: `bun scripts/build.ts [OUTFILE] [--arch=x64|arm64]`
 * (default `dist/homed` for this machine's CPU).
 *
 * Another CPU's binary is cross-compiled from the locked npm packages of that CPU: Bun's
 * runtime (@oven/bun-linux-*) as the executable to embed into, and libSQL's addon
 * (@libsql/linux-*-gnu), both fetched and integrity-checked by scripts/locked-package.ts. Bun
 * sets process.arch to the target's CPU while bundling, so bun-pty embeds that CPU's PTY library
 * (make test-dist checks both embedded files byte for byte).
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
import { lockedPackage } from "./locked-package.ts";
import { writeConsole } from "./gen-console.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const archFlag = args.find((a) => a.startsWith("--arch="));
const outfile = args.find((a) => !a.startsWith("--")) ?? `${root}dist/homed`;
const arch = archFlag ? archFlag.slice("--arch=".length) : process.arch;

/** Per CPU: libSQL's addon package and Bun's runtime package (Bun names arm64 "aarch64"). */
const TARGETS: Record<string, { libsql: string; bun: string; compile: Bun.Build.CompileTarget }> = {
  x64: { libsql: "@libsql/linux-x64-gnu", bun: "@oven/bun-linux-x64", compile: "bun-linux-x64" },
  arm64: { libsql: "@libsql/linux-arm64-gnu", bun: "@oven/bun-linux-aarch64", compile: "bun-linux-arm64" },
};

/** `addon`: the absolute path of the .node file to embed. */
function libsqlStaticNative(addon: string): BunPlugin {
  return {
    name: "libsql-static-native",
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, async (args) => {
        const source = await Bun.file(args.path).text();
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of libsql's own source, matched as written
        const dynamic = "require(`@libsql/${target}`)";
        if (!source.includes(dynamic)) {
          throw new Error(`Cannot build: libsql's native require changed; update ${import.meta.path}`);
        }
        return { contents: source.replace(dynamic, `require(${JSON.stringify(addon)})`), loader: "js" };
      });
    },
  };
}

const target = TARGETS[arch];
if (process.platform !== "linux" || !target || !TARGETS[process.arch]) {
  console.error(`Cannot build: homed builds on and for Linux x64/arm64, not ${process.platform}-${process.arch} → ${arch}`);
  process.exit(1);
}
const native = arch === process.arch;
const addon = `${lockedPackage(root, target.libsql)}/index.node`;

// The built-in plugins' start-up order is resolved here, so a cycle or a missing provider
// fails the build rather than a user's start-up.
const builtins = Object.values(BUILTIN_PLUGINS).map((p) => ({ name: p.name, provides: p.provides ?? [], requires: p.requires ?? [] }));
try {
  startupWaves(startupDependencies(builtins));
} catch (error) {
  console.error(`Cannot build: ${(error as Error).message}`);
  process.exit(1);
}

// The console is bundled from web/ now, so the binary never carries a stale one.
await writeConsole();

const result = await Bun.build({
  // A worker thread's module is an entrypoint of its own: Bun does not follow `new Worker(url)`.
  entrypoints: [`${root}src/main.ts`, `${root}src/memory/import-analysis-worker.ts`],
  compile: native ? { outfile } : { outfile, target: target.compile, executablePath: `${lockedPackage(root, target.bun)}/bin/bun` },
  plugins: [libsqlStaticNative(addon)],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile}`);
