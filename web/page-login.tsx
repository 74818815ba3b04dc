// First run and login: where the admin token is, and a form that trades it for a session cookie.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "./api.ts";
import type { AuthStatus } from "./api-types.ts";
import { LanguageSwitch, Notice } from "./components.tsx";
import { errorText } from "./errors.ts";
import { t } from "./i18n.ts";

export function Login({ status, onLoggedIn }: { status: AuthStatus; onLoggedIn: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [refused, setRefused] = useState<string | null>(null);
  useEffect(() => input.current?.focus(), []);

  async function submit(event: Event) {
    event.preventDefault();
    setRefused(null);
    try {
      await api("POST", "/api/login", { token: input.current!.value });
      input.current!.value = "";
      onLoggedIn();
    } catch (error) {
      const code = error instanceof ApiError ? error.code : "";
      setRefused(code === "unauthorized" ? t("login.wrong") : code === "rate_limited" ? t("login.tooMany") : errorText(error));
      input.current?.focus();
    }
  }

  return (
    <>
      <div class="login-language">
        <LanguageSwitch id="login" />
      </div>
      <h1>{t("login.title")}</h1>
      <div id="token-help" class="help">
        <p>{t("login.where")}</p>
        <pre class="path">{status.tokenFile}</pre>
        <p>
          {t("login.copyBefore")}
          <code>cat {status.tokenFile}</code>
          {t("login.copyAfter")}
        </p>
        <p>
          {t("login.lostBefore")}
          <code>homed token reset -data DIR</code>
          {t("login.lostAfter")}
        </p>
      </div>
      <form class="card login" onSubmit={submit}>
        <label for="token">{t("login.tokenLabel")}</label>
        <input ref={input} id="token" name="token" type="password" autocomplete="current-password" required aria-describedby="token-help" />
        <button type="submit">{t("login.submit")}</button>
        <div aria-live="polite">{refused && <Notice kind="error">{refused}</Notice>}</div>
      </form>
    </>
  );
}
