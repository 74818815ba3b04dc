// App keys: one per app (Open WebUI, a script, an MCP client) for /v1 and /mcp, never /api.
// A new key is shown once, with a copy button; the list shows when each was last used; revoking
// asks first, and the app holding the key is refused from its next request on.
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "./api.ts";
import type { KeysAnswer, NewKeyAnswer } from "./api-types.ts";
import { Data, Notice } from "./components.tsx";
import { errorText } from "./errors.ts";
import { t, when } from "./i18n.ts";

const SCOPES = ["v1", "mcp"] as const;
type AppKey = KeysAnswer["keys"][number];

/** Copies the key, by the clipboard API where the browser allows it, else by selecting it. */
async function copy(input: HTMLInputElement): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(input.value);
    return true;
  } catch {
    input.select();
    return document.execCommand("copy");
  }
}

/** The new key, in a read-only field with a copy button: this is the only time it is shown. */
function SecretCard({ made }: { made: NewKeyAnswer }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string>("");
  return (
    <section class="card" aria-label={t("keys.newKey")} style={{ maxWidth: "720px" }}>
      <h2>
        {t("keys.keyFor")}
        <Data>{made.name}</Data>
      </h2>
      <p class="notice ok">{t("keys.copyNow")}</p>
      <p>
        <label for="k-secret">{t("keys.key")}</label>
        <input ref={field} id="k-secret" readOnly value={made.key} spellcheck={false} autocomplete="off" class="ids" style={{ width: "100%" }} />
      </p>
      <div class="actions">
        <button type="button" onClick={async () => setCopied((await copy(field.current!)) ? t("keys.copied") : t("keys.copyByHand"))}>
          {t("keys.copy")}
        </button>
        <span role="status" class="muted">
          {copied}
        </span>
      </div>
      <p class="help">
        {t("keys.useOpenAI")}
        <code>{`${location.origin}/v1`}</code>
        {t("keys.useMcp")}
        <code>{`${location.origin}/mcp`}</code>
        {t("keys.useHeader")}
        <code>Authorization: Bearer &lt;key&gt;</code>
        {t("keys.useEnd")}
      </p>
    </section>
  );
}

function KeyForm({ onMade }: { onMade: (made: NewKeyAnswer) => void }) {
  const [refused, setRefused] = useState<string | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const fields = new FormData(form);
    const scopes = fields.getAll("scopes").map(String);
    if (scopes.length === 0) return setRefused(t("keys.chooseScope"));
    const partner = String(fields.get("partner") ?? "").trim();
    try {
      const made = await api<NewKeyAnswer>("POST", "/api/keys", { name: String(fields.get("name")), scopes, ...(partner ? { partner } : {}) });
      form.reset();
      setRefused(null);
      onMade(made);
    } catch (error) {
      setRefused(errorText(error));
    }
  }

  return (
    <form class="card grid" aria-label={t("keys.create")} onSubmit={submit}>
      <h2>{t("keys.create")}</h2>
      <label for="k-name">{t("keys.name")}</label>
      <input id="k-name" name="name" required pattern="[A-Za-z0-9._\-]{1,64}" placeholder="webui" title={t("keys.nameRule")} />
      <label for="k-partner">{t("keys.partner")}</label>
      <input id="k-partner" name="partner" placeholder={t("keys.partnerPlaceholder")} />
      <span>{t("keys.opens")}</span>
      {/* biome-ignore lint/a11y/useSemanticElements: one cell of the form's grid; a fieldset would bring its own box and legend */}
      <div class="actions" role="group" aria-label={t("keys.opens")}>
        {SCOPES.map((s) => (
          <label key={s}>
            <input type="checkbox" name="scopes" value={s} defaultChecked />
            {` /${s}`}
          </label>
        ))}
      </div>
      <div class="actions">
        <button type="submit">{t("keys.createButton")}</button>
      </div>
      <div aria-live="polite">{refused && <Notice kind="error">{refused}</Notice>}</div>
    </form>
  );
}

function KeyTable({ keys, reload }: { keys: AppKey[]; reload: () => void }) {
  if (keys.length === 0) return <Notice>{t("keys.none")}</Notice>;
  const revoke = async (k: AppKey) => {
    if (!confirm(t("keys.confirmRevoke", { name: k.name }))) return;
    await api("DELETE", `/api/keys/${encodeURIComponent(k.name)}`);
    reload();
  };
  return (
    <div class="scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">{t("keys.colName")}</th>
            <th scope="col">{t("keys.colPartner")}</th>
            <th scope="col">{t("keys.colOpens")}</th>
            <th scope="col">{t("keys.colCreated")}</th>
            <th scope="col">{t("keys.colLastUsed")}</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.name} data-key={k.name}>
              <td translate={false}>{k.name}</td>
              <td translate={false}>{k.partner ?? <span class="muted">{k.name}</span>}</td>
              <td translate={false}>{k.scopes.map((s) => `/${s}`).join(" ")}</td>
              <td>{when(k.createdAt)}</td>
              <td>{k.lastUsedAt ? when(k.lastUsedAt) : <span class="muted">{t("keys.never")}</span>}</td>
              <td class="actions">
                <button type="button" class="quiet danger" aria-label={t("keys.revokeLabel", { name: k.name })} onClick={() => revoke(k)}>
                  {t("keys.revoke")}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Keys() {
  const [keys, setKeys] = useState<AppKey[] | Error | undefined>(undefined);
  const [made, setMade] = useState<NewKeyAnswer | null>(null);
  const reload = () =>
    api<KeysAnswer>("GET", "/api/keys").then(
      (answer) => setKeys(answer.keys),
      (error: Error) => setKeys(error),
    );
  useEffect(() => void reload(), []);
  return (
    <>
      <h1>{t("keys.title")}</h1>
      <p class="help">{t("keys.help")}</p>
      <div>{made && <SecretCard made={made} />}</div>
      <div>{keys instanceof Error ? <Notice kind="error">{errorText(keys)}</Notice> : keys && <KeyTable keys={keys} reload={reload} />}</div>
      <KeyForm
        onMade={(m) => {
          setMade(m);
          reload();
        }}
      />
    </>
  );
}
