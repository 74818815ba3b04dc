/**
 * The console's word table (web/i18n.ts) is complete: every key a page asks for exists, every
 * entry has English and Chinese, the Chinese is Chinese, both sides take the same {placeholders},
 * and every page in the navigation has its label. A page added without its words fails here
 * before anyone sees "no console text for …".
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/process.ts";
import { STRINGS } from "../../web/i18n.js";

type Entry = [string | ((p: Record<string, unknown>) => string), string | ((p: Record<string, unknown>) => string)];
const table = STRINGS as unknown as Record<string, Record<string, Entry>>;
const WEB = join(ROOT, "web");
/** The console's scripts without their comment lines (which may show examples of t()). */
const sources = readdirSync(WEB)
  .filter((f) => /\.tsx?$/.test(f))
  .map((f) => ({
    file: f,
    text: readFileSync(join(WEB, f), "utf8")
      .split("\n")
      .filter((l) => !/^\s*(\/\/|\/?\*)/.test(l))
      .join("\n"),
  }));
const entries = Object.entries(table).flatMap(([section, names]) => Object.entries(names).map(([name, entry]) => ({ key: `${section}.${name}`, entry })));
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
const SAMPLE = { n: 2, chars: 10, name: "x", code: "c", message: "m" };
const CJK = /[\u3000-\u9fff\uff00-\uffef]/;

describe("console words (web/i18n.ts)", () => {
  test('every t("section.name") in web/*.ts(x) names an entry', () => {
    const used = sources.flatMap(({ file, text }) => [...text.matchAll(/\bt\("([\w]+\.[\w]+)"/g)].map((m) => ({ file, key: m[1]! })));
    assert.ok(used.length > 150, `only ${used.length} uses found: the pattern no longer matches the pages`);
    const missing = used.filter(({ key }) => {
      const [section, name] = key.split(".");
      return !table[section!]?.[name!];
    });
    assert.deepEqual(missing, []);
  });

  test("every entry has English and Chinese, with the same placeholders", () => {
    const bad: string[] = [];
    for (const { key, entry } of entries) {
      if (!Array.isArray(entry) || entry.length !== 2) {
        bad.push(`${key}: not [English, 中文]`);
        continue;
      }
      const [en, zh] = entry.map((side) => (typeof side === "function" ? side(SAMPLE) : side));
      if (!en?.trim() || !zh?.trim()) bad.push(`${key}: empty`);
      if (!CJK.test(zh!)) bad.push(`${key}: Chinese side has no Chinese: ${zh}`);
      if (typeof entry[0] === "string" && typeof entry[1] === "string" && placeholders(entry[0]).join() !== placeholders(entry[1]).join()) {
        bad.push(`${key}: placeholders differ: ${placeholders(entry[0])} vs ${placeholders(entry[1])}`);
      }
    }
    assert.deepEqual(bad, []);
  });

  test("every page in the navigation has its label", () => {
    const shell = sources.find((s) => s.file === "main.tsx")!.text;
    const routes = [...shell.slice(shell.indexOf("const PAGES")).matchAll(/\["(\w+)", \w+/g)].map((m) => m[1]!);
    assert.ok(routes.length >= 8, `found routes ${routes}`);
    assert.deepEqual(
      routes.filter((r) => !table.nav?.[r]),
      [],
    );
  });
});
