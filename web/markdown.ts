// A model's answer as Markdown: marked turns the text into HTML, DOMPurify keeps only harmless
// markup (no script, no event handler, no javascript: link, no form), and every link opens in a
// new tab that cannot reach back into the console (rel=noopener noreferrer). Images are dropped:
// the console's CSP would block one from elsewhere anyway, and a broken picture helps nobody.
import { marked } from "marked";
import DOMPurify, { type Config } from "dompurify";

DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A" && node.hasAttribute("href")) {
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  }
});

const SANITIZE: Config & { RETURN_DOM_FRAGMENT: true } = {
  RETURN_DOM_FRAGMENT: true,
  FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "img", "video", "audio", "iframe"],
  FORBID_ATTR: ["style"],
};

/** Fills `el` with `text` rendered as Markdown (GitHub flavour, a line break is a break). */
export function renderMarkdown<E extends Element>(el: E, text: string): E {
  el.replaceChildren(DOMPurify.sanitize(marked.parse(text, { gfm: true, breaks: true, async: false }) as string, SANITIZE));
  return el;
}
