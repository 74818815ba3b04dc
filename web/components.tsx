// Small components the pages share: a status line, the language chooser, and the bridge that
// shows a page not yet written as a component.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { LANGUAGES, language, setLanguage, t } from "./i18n.ts";

/** A status line that announces itself to screen readers (an error as an alert). */
export function Notice({ kind = "info", children }: { kind?: "info" | "error" | "ok"; children: ComponentChildren }) {
  return (
    <p class={`notice ${kind}`} role={kind === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

/** The language chooser (each language named in itself); the choice is remembered. */
export function LanguageSwitch({ id }: { id: string }) {
  return (
    <select id={`language-${id}`} class="language" aria-label={t("shell.language")} onChange={(e) => setLanguage(e.currentTarget.value)}>
      {LANGUAGES.map((l) => (
        <option key={l.id} value={l.id} lang={l.id} translate={false} selected={l.id === language()}>
          {l.name}
        </option>
      ))}
    </select>
  );
}

/** A page drawn by hand into an element (web/dom.ts): its renderer, and what it returns to undo its timers. */
export type DrawnPage = (target: HTMLElement, params: string[]) => Promise<(() => void) | undefined | void> | void;

/**
 * Shows a hand-drawn page in its own element. A page still drawing when it is replaced (a quick
 * second click) goes on drawing off the page and is undone when it finishes.
 */
export function Drawn({ draw, params, onError }: { draw: DrawnPage; params: string[]; onError: (error: Error) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let gone = false;
    let undo: (() => void) | undefined;
    Promise.resolve()
      .then(() => draw(ref.current!, params))
      .then(
        (done) => {
          if (gone) done?.();
          else undo = done ?? undefined;
        },
        (error: Error) => {
          if (!gone) onError(error);
        },
      );
    return () => {
      gone = true;
      undo?.();
    };
  }, []);
  return <div class="page" ref={ref} />;
}
