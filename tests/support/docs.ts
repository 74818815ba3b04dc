/**
 * The project's documentation as tests read it: README.md, packaging/README.md and every docs/*.md, their fenced
 * blocks and links. A snippet is found by a marker (a phrase just before it) in whichever file
 * holds it, so a paragraph can move between files without its test losing it, and a marker found
 * in two files fails rather than picking one.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./process.ts";

/** README.md, the user's guide the packages carry, and docs/*.md, as paths relative to the repository. */
export const DOC_FILES: readonly string[] = [
  "README.md",
  "packaging/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];

export const readDoc = (file: string): string => readFileSync(join(ROOT, file), "utf8");

export type FencedBlock = { file: string; lang: string; body: string; line: number };

/** Every fenced block (```lang … ```) of a markdown text, with the line it opens on. */
export function fencedBlocks(file: string, text = readDoc(file)): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = lines[i]!.indexOf("```");
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    assert.ok(end > i, `${file}:${i + 1}: a fenced block is never closed`);
    blocks.push({
      file,
      lang: open[1]!,
      body: lines
        .slice(i + 1, end)
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join("\n"),
      line: i + 1,
    });
    i = end;
  }
  return blocks;
}

/** The file (of README.md and docs/*.md) that holds `marker`: exactly one must. */
export function docWith(marker: string): { file: string; text: string; at: number } {
  const found = DOC_FILES.map((file) => ({ file, text: readDoc(file) }))
    .map((d) => ({ ...d, at: d.text.indexOf(marker) }))
    .filter((d) => d.at >= 0);
  assert.equal(found.length, 1, `'${marker}' should be in exactly one of README.md and docs/*.md, found in: ${found.map((d) => d.file).join(", ") || "none"}`);
  return found[0]!;
}

/** The first ```lang block after `marker`, in the one doc that holds it. */
export function docSnippet(marker: string, lang: string): string {
  const { file, text, at } = docWith(marker);
  const open = text.indexOf(`\`\`\`${lang}\n`, at);
  assert.ok(open >= 0, `${file}: no ${lang} block after '${marker}'`);
  const start = open + lang.length + 4;
  return text.slice(start, text.indexOf("\n```", start));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export const headingAnchor = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

/** The anchors of a markdown text's headings (outside fenced blocks), as GitHub makes them (a repeat gets -1, -2…). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]!);
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** Links of a markdown text outside fenced blocks: `[text](target)`, images included. */
export function linksOf(text: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  let fenced = false;
  text.split("\n").forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return;
    for (const m of line.replace(/`[^`]*`/g, "").matchAll(/\]\(([^)\s]+)\)/g)) links.push({ target: m[1]!, line: i + 1 });
  });
  return links;
}
