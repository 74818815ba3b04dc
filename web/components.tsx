// Small components the pages share: what a page is given, loading its data, a status line, data
// text and the language chooser.
import type { ComponentChildren, FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { detailOf } from "./errors.ts";
import { LANGUAGES, language, setLanguage, t } from "./i18n.ts";
import { THEMES, type Theme, setTheme, theme } from "./theme.ts";

/** What the shell gives a page: the address's parameters (#/context/ID → ["ID"]) and where to say it cannot be shown. */
export type PageProps = { params: string[]; fail: (error: Error) => void };
export type Page = FunctionComponent<PageProps>;

/**
 * The page's data: undefined until `load` answers; a failure goes to the shell (which offers Try
 * again). `reload` asks again and keeps showing the last answer meanwhile.
 */
export function useLoad<T>(load: () => Promise<T>, fail: (error: Error) => void): [T | undefined, () => void] {
  const [value, setValue] = useState<T | undefined>(undefined);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (v) => current && setValue(() => v),
      (error: Error) => current && fail(error),
    );
    return () => {
      current = false;
    };
  }, [asked]);
  return [value, () => setAsked((n) => n + 1)];
}

/**
 * Text that is data, not the console's words (a memory, a message, a name): marked
 * translate="no" so browser translators leave it alone and the language test skips it.
 */
export function Data({ as: Tag = "span", class: className, children }: { as?: "span" | "p" | "pre" | "strong" | "code" | "div" | "blockquote"; class?: string; children: ComponentChildren }) {
  return (
    <Tag class={className} translate={false}>
      {children}
    </Tag>
  );
}

/**
 * A status line that announces itself to screen readers (an error as an alert). An error in
 * people's words (web/errors.ts) offers the daemon's technical words under "Technical details".
 */
export function Notice({ kind = "info", children }: { kind?: "info" | "error" | "ok"; children: ComponentChildren }) {
  const detail = kind === "error" && typeof children === "string" ? detailOf(children) : undefined;
  if (detail)
    return (
      <div class="notice error" role="alert">
        <p>{children}</p>
        <details class="detail">
          <summary>{t("look.technical")}</summary>
          <Data as="code">{detail}</Data>
        </details>
      </div>
    );
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

/** The colour scheme chooser: light, dark, or the system's; the choice is remembered. */
export function ThemeSwitch() {
  return (
    <select id="theme" class="language" aria-label={t("look.theme")} onChange={(e) => setTheme(e.currentTarget.value as Theme)}>
      {THEMES.map((id) => (
        <option key={id} value={id} selected={id === theme()}>
          {t(`look.theme_${id}`)}
        </option>
      ))}
    </select>
  );
}

/** A table wider than a phone: it scrolls sideways inside a region a keyboard can reach and scroll. */
export function ScrollRegion({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <section class="scroll" aria-label={label} tabindex={0}>
      {children}
    </section>
  );
}

/** What shows while a page is being fetched: a labelled busy status with a placeholder skeleton. */
export function Loading({ label = t("look.loading") }: { label?: string }) {
  return (
    <div class="loading" role="status" aria-busy="true">
      <span class="sr-only">{label}</span>
      <span class="skeleton" aria-hidden="true" />
      <span class="skeleton" aria-hidden="true" />
      <span class="skeleton short" aria-hidden="true" />
    </div>
  );
}
