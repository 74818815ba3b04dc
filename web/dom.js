// A tiny element builder: h("p", {class: "x", onclick}, "text", child). No templates, no
// innerHTML with data, so text from memories or models can never become markup.
import { LANGUAGES, language, num, setLanguage, t, when } from "/assets/i18n.js";

export function h(tag, attrs = {}, ...children) {
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

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

export const clear = (el, ...children) => {
  el.replaceChildren();
  append(el, children);
  return el;
};

export { when };

/**
 * Text that is data, not the console's words (a memory, a message, a name): marked
 * translate="no" so browser translators leave it alone and the language test skips it.
 */
export const data = (text, tag = "span", attrs = {}) => h(tag, { ...attrs, translate: "no" }, text);

export function bytes(n) {
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) (n /= 1024), i++;
  return `${num(n, { maximumFractionDigits: i ? 1 : 0, minimumFractionDigits: i ? 1 : 0 })} ${units[i]}`;
}

/** A status line that announces itself to screen readers. */
export function notice(text, kind = "info") {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}

export function page(title, ...children) {
  return [h("h1", {}, title), ...children];
}

/** The language chooser (each language named in itself); the choice is remembered. */
export function languageSwitch(id) {
  return h(
    "select",
    { id: `language-${id}`, class: "language", "aria-label": t("shell.language"), onchange: (e) => setLanguage(e.target.value) },
    LANGUAGES.map((l) => h("option", { value: l.id, lang: l.id, translate: "no", selected: l.id === language() }, l.name)),
  );
}
