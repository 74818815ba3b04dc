/**
 * Readable text from a web page: Readability picks the main content (no menus, scripts,
 * footers); a short walk of its DOM keeps paragraph and heading breaks that `textContent`
 * would glue together. Pages Readability cannot parse fall back to the whole body's text.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";

const BLOCKS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TR",
  "UL",
]);
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG"]);

type Node = { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<Node> };

export function readableText(html: string): { title: string; text: string } {
  const { document } = parseHTML(html);
  const title = (document.querySelector("title")?.textContent ?? "").trim();
  // Readability changes the document it reads; give it its own copy.
  const article = new Readability(parseHTML(html).document as unknown as Document).parse();
  const root = article?.content ? (parseHTML(`<html><body>${article.content}</body></html>`).document.body as unknown as Node) : (document.body as unknown as Node | null);
  return { title: article?.title?.trim() || title, text: root ? tidy(walk(root)) : "" };
}

function walk(node: Node): string {
  if (node.nodeType === 3) return (node.textContent ?? "").replace(/\s+/g, " ");
  if (node.nodeType !== 1 || SKIP.has(node.nodeName)) return "";
  if (node.nodeName === "BR") return "\n";
  if (node.nodeName === "PRE") return `\n\n${node.textContent ?? ""}\n\n`;
  let inner = "";
  for (const child of Array.from(node.childNodes)) inner += walk(child);
  if (node.nodeName === "LI") return `\n- ${inner.trim()}\n`;
  return BLOCKS.has(node.nodeName) ? `\n\n${inner.trim()}\n\n` : inner;
}

function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
