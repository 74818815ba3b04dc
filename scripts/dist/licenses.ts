/** The licence texts of every production package (the ones bundled into the binary). */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export function thirdPartyLicenses(root: string): string {
  const out = execFileSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: root, encoding: "utf8" });
  const dirs = [...new Set(out.trim().split("\n").slice(1))].sort();
  const sections = dirs.map((dir) => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; version: string; license?: string };
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    const text = file ? readFileSync(join(dir, file), "utf8").trim() : `(no licence file in the package; declared licence: ${pkg.license ?? "unknown"})`;
    return `${pkg.name}@${pkg.version} — ${pkg.license ?? "unknown"}\n\n${text}\n`;
  });
  const runtime = "bun (the runtime compiled into the binary) — MIT, with bundled components under their own licences;\n" + "see https://github.com/oven-sh/bun/blob/main/LICENSE.md\n";
  return [runtime, ...sections].join(`\n${"=".repeat(78)}\n\n`);
}
