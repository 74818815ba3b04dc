// A tiny element builder for the pages not yet written as components: h("p", {class: "x",
// onclick}, "text", child). No templates, no innerHTML with data, so text from memories or
// models can never become markup.
import { LANGUAGES, language, setLanguage, t, when } from "./i18n.ts";

/** What h() and clear() take as children: nodes, text, numbers, lists of them, or nothing. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];
// biome-ignore lint/suspicious/noExplicitAny: attributes are as varied as the DOM's; handlers get their event
export type Attrs = Record<string, any>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    // Through the CSSOM: the content security policy forbids inline style attributes.
    else if (key === "style") el.style.cssText = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

export const clear = <E extends Element>(el: E, ...children: Child[]): E => {
  el.replaceChildren();
  append(el, children);
  return el;
};

export { when };

/**
 * Text that is data, not the console's words (a memory, a message, a name): marked
 * translate="no" so browser translators leave it alone and the language test skips it.
 */
export const data = <K extends keyof HTMLElementTagNameMap = "span">(text: Child, tag: K = "span" as K, attrs: Attrs = {}) => h(tag, { ...attrs, translate: "no" }, text);

/** A status line that announces itself to screen readers. */
export function notice(text: string, kind: "info" | "error" | "ok" = "info"): HTMLParagraphElement {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

export function page(title: string, ...children: Child[]): Child[] {
  return [h("h1", {}, title), ...children];
}

/** The language chooser (each language named in itself); the choice is remembered. */
export function languageSwitch(id: string): HTMLSelectElement {
  return h(
    "select",
    { id: `language-${id}`, class: "language", "aria-label": t("shell.language"), onchange: (e: Event) => setLanguage((e.target as HTMLSelectElement).value) },
    LANGUAGES.map((l) => h("option", { value: l.id, lang: l.id, translate: "no", selected: l.id === language() }, l.name)),
  );
}
