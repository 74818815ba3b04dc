/**
 * Draws the retrieval-quality tables of docs/benchmarks.md as bar charts (docs/plots/*.svg), read
 * from the tables themselves: a figure changed in the table changes its bar, and
 * tests/server/readme-snippets.test.ts fails while a chart is stale. Run
 * `bun scripts/gen-bench-plots.ts` after editing those tables. Plain SVG, no library: the charts
 * are a few bars, and GitHub shows an SVG as an image.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const BENCHMARKS_DOC = "docs/benchmarks.md";

/** A chart: the table after `marker`, the rows whose first cell starts with one of `rows` (each given a short name), the columns named. */
type Chart = { file: string; title: string; marker: string; columns: readonly string[]; rows: readonly [prefix: string, name: string][] };

export const CHARTS: readonly Chart[] = [
  {
    file: "docs/plots/locomo.svg",
    title: "LoCoMo dev (5 conversations, 762 questions): evidence recall@k",
    marker: "LoCoMo, the 5 dev conversations",
    columns: ["R@5", "R@10", "R@25", "R@50"],
    rows: [
      ["**homed default", "homed, no model (words + grams)"],
      ["DRAGON dense retriever", "DRAGON (LoCoMo paper)"],
      ["MiniSearch BM25", "MiniSearch BM25"],
      ["homed vector only", "homed, vectors only (USE)"],
    ],
  },
  {
    file: "docs/plots/madial.svg",
    title: "MADial-Bench zh (user-1 half, 76 dialogues): recall@k",
    marker: "MADial-Bench zh",
    columns: ["R@1", "R@3", "R@5", "R@10"],
    rows: [
      ["**homed default", "homed, no model (words + grams)"],
      ["BGE-M3 dense retriever", "BGE-M3 (authors, whole zh set)"],
      ["character-bigram BM25, MiniSearch", "MiniSearch bigram BM25"],
    ],
  },
];

const cells = (line: string) =>
  line
    .slice(1, -1)
    .split("|")
    .map((c) => c.trim());

/** The values a chart draws, read from its table in the doc: one series per row, one value per column. */
export function chartData(chart: Chart, doc = readFileSync(join(ROOT, BENCHMARKS_DOC), "utf8")): { name: string; values: number[]; labels: string[] }[] {
  const at = doc.indexOf(chart.marker);
  if (at < 0) throw new Error(`${BENCHMARKS_DOC} has no '${chart.marker}'`);
  const lines = doc.slice(doc.indexOf("\n|", at) + 1).split("\n");
  const table = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith("|")),
  );
  const header = cells(table[0]!);
  return chart.rows.map(([prefix, name]) => {
    const row = table.slice(2).find((l) => cells(l)[0]!.startsWith(prefix));
    if (!row) throw new Error(`${BENCHMARKS_DOC}: no row '${prefix}' after '${chart.marker}'`);
    const labels = chart.columns.map((column) => {
      const i = header.indexOf(column);
      const label = cells(row)[i]?.replaceAll("*", "") ?? "";
      if (i < 0 || !Number.isFinite(Number(label)) || label === "") throw new Error(`${BENCHMARKS_DOC}: no number in column ${column} of '${prefix}'`);
      return label;
    });
    return { name, values: labels.map(Number), labels };
  });
}

const COLOURS = ["#2f6fb5", "#d9822b", "#7a7a7a", "#9bbf5a", "#b05c8a"];
const xmlText = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** A grouped bar chart: one group per column, one bar per series, values from 0 to 1. */
export function renderChart(chart: Chart, series = chartData(chart)): string {
  const [width, height, left, top, bottom] = [720, 340, 44, 40, 84];
  const plot = { w: width - left - 16, h: height - top - bottom };
  const group = plot.w / chart.columns.length;
  const bar = (group * 0.8) / series.length;
  const y = (v: number) => top + plot.h * (1 - v);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="22" font-size="14" font-weight="bold">${xmlText(chart.title)}</text>`,
  ];
  for (const tick of [0, 0.2, 0.4, 0.6, 0.8, 1]) {
    out.push(`<line x1="${left}" x2="${left + plot.w}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="#dddddd"/>`);
    out.push(`<text x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end" fill="#555555">${tick.toFixed(1)}</text>`);
  }
  chart.columns.forEach((column, c) => {
    const x0 = left + c * group + group * 0.1;
    series.forEach((s, i) => {
      const v = s.values[c]!;
      const x = x0 + i * bar;
      out.push(`<rect x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(bar - 2).toFixed(1)}" height="${(plot.h * v).toFixed(1)}" fill="${COLOURS[i % COLOURS.length]}"/>`);
      out.push(`<text x="${(x + bar / 2 - 1).toFixed(1)}" y="${(y(v) - 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="#333333">${xmlText(s.labels[c]!)}</text>`);
    });
    out.push(`<text x="${(left + c * group + group / 2).toFixed(1)}" y="${top + plot.h + 18}" text-anchor="middle">${xmlText(column)}</text>`);
  });
  series.forEach((s, i) => {
    const x = left + (i % 3) * 220;
    const ly = top + plot.h + 40 + Math.floor(i / 3) * 18;
    out.push(`<rect x="${x}" y="${ly - 10}" width="12" height="12" fill="${COLOURS[i % COLOURS.length]}"/>`);
    out.push(`<text x="${x + 18}" y="${ly}">${xmlText(s.name)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

if (import.meta.main) {
  for (const chart of CHARTS) {
    mkdirSync(join(ROOT, dirname(chart.file)), { recursive: true });
    writeFileSync(join(ROOT, chart.file), renderChart(chart));
    console.log(`wrote ${chart.file}`);
  }
}
