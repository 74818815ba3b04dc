// Code in an answer: highlighted by highlight.js (its core and only the languages people paste
// most, so the bundle stays small), each block with a Copy button. Runs on the DOM the sanitised
// Markdown made: highlight.js escapes what it returns, so its markup is as safe as the text.
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import sql from "highlight.js/lib/languages/sql";
import typescript from "highlight.js/lib/languages/typescript";
import { t } from "./i18n.ts";

// Each module brings its aliases too (js, ts, py, sh, golang, rs…), which marked's `language-…` class names.
for (const [name, language] of Object.entries({ bash, go, javascript, json, python, rust, sql, typescript })) hljs.registerLanguage(name, language);

/** The block's language from marked's class (`language-ts`), if it is one we highlight. */
function languageOf(code: Element): string | undefined {
  const name = [...code.classList].find((c) => c.startsWith("language-"))?.slice("language-".length);
  return name && hljs.getLanguage(name) ? name : undefined;
}

function copyButton(code: HTMLElement): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "quiet small copy-code";
  button.textContent = t("turn.copyCode");
  button.addEventListener("click", () => {
    // Without the line end marked leaves after the last line.
    void navigator.clipboard.writeText((code.textContent ?? "").replace(/\n$/, "")).then(() => {
      button.textContent = t("turn.copied");
      setTimeout(() => (button.textContent = t("turn.copyCode")), 2000);
    });
  });
  return button;
}

/** Highlights each code block under `el` whose language is known, and gives every block a Copy button. */
export function decorateCodeBlocks(el: Element): void {
  for (const code of el.querySelectorAll<HTMLElement>("pre > code")) {
    const language = languageOf(code);
    if (language) {
      code.innerHTML = hljs.highlight(code.textContent ?? "", { language, ignoreIllegals: true }).value;
      code.classList.add("hljs");
    }
    const pre = code.parentElement!;
    const block = document.createElement("div");
    block.className = "code-block";
    pre.replaceWith(block);
    block.append(copyButton(code), pre);
  }
}
