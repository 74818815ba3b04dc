// Providers: presets, add/edit, a write-only key, activate, delete, and "test connection".
import { useRef, useState } from "preact/hooks";
import { api } from "./api.ts";
import { VOICE_FIELDS, VoiceModelFields } from "./voice.tsx";
import type { ModelsAnswer, ProviderInputBody, ProvidersAnswer, TestAnswer } from "./api-types.ts";
import { Data, Notice, type PageProps, ScrollRegion, useLoad } from "./components.tsx";
import { errorText } from "./errors.ts";
import { t } from "./i18n.ts";

type Provider = ProvidersAnswer["providers"][number];
type Preset = ProvidersAnswer["presets"][number];
/** The form's fields as typed (an untouched key field is left out: the stored key stays). */
type Typed = { preset?: string; name: string; baseUrl: string; model: string; apiKey?: string; contextWindow?: number; transcriptionModel?: string; speechModel?: string; speechVoice?: string };

/** Fields left out when empty: the stored key stays; no window, no voice model means none. */
const OPTIONAL_FIELDS: readonly string[] = ["apiKey", "contextWindow", ...VOICE_FIELDS];

function TestResult({ result }: { result: TestAnswer }) {
  if (result.ok) {
    const window = result.contextWindow;
    return (
      <Notice kind="ok">
        {t("providers.connected", { ms: result.latencyMs, model: result.model, reply: JSON.stringify(result.reply ?? "") })} {t(`providers.window_${window.source}`, { n: window.tokens ?? 0 })}
      </Notice>
    );
  }
  const details = [result.status ? `HTTP ${result.status}` : null, result.error, result.message].filter(Boolean).join(" · ");
  return (
    <div class="notice error" role="alert">
      <p>{t("providers.failed", { ms: result.latencyMs, details })}</p>
      {result.body ? (
        <Data as="pre" class="verbatim">
          {String(result.body)}
        </Data>
      ) : null}
    </div>
  );
}

/** What the form says below it: a status, an error, or a connection test's result. */
type Said = { notice: string; kind?: "info" | "error" } | { test: TestAnswer } | null;

function ProviderForm({ presets, existing, done }: { presets: readonly Preset[]; existing: Provider | null; done: (added?: string) => void }) {
  const form = useRef<HTMLFormElement>(null);
  const [said, setSaid] = useState<Said>(null);
  // The provider's own model list, offered as the Model field's suggestions.
  const [models, setModels] = useState<string[]>([]);
  const [modelsSaid, setModelsSaid] = useState<Said>(null);
  const title = existing ? t("providers.editTitle", { name: existing.name }) : t("providers.add");
  const field = (name: "name" | "baseUrl" | "model") => form.current!.elements.namedItem(name) as HTMLInputElement;
  // An empty key keeps the stored one; an empty window or voice field means none. The window is a number on the wire.
  const values = (): Typed =>
    Object.fromEntries([...new FormData(form.current!)].filter(([k, v]) => !OPTIONAL_FIELDS.includes(k) || v !== "").map(([k, v]) => [k, k === "contextWindow" ? Number(v) : v])) as Typed;

  function choosePreset(id: string) {
    const p = presets.find((x) => x.id === id);
    if (!p) return;
    field("name").value ||= p.name;
    field("baseUrl").value = p.baseUrl;
    field("model").value = p.defaultModel;
  }

  async function fetchModels() {
    const v = values();
    setModelsSaid({ notice: t("providers.fetchingModels") });
    try {
      const body = existing && !v.apiKey && v.baseUrl === existing.baseUrl ? { id: existing.id } : { baseUrl: v.baseUrl, apiKey: v.apiKey };
      const r = await api<ModelsAnswer>("POST", "/api/providers/models", body);
      if (!r.ok) return setModelsSaid({ notice: t("providers.modelsFailed", { details: [r.status ? `HTTP ${r.status}` : null, r.message].filter(Boolean).join(" · ") }), kind: "error" });
      setModels(r.models);
      setModelsSaid({ notice: t("providers.modelsFound", { n: r.models.length }) });
      if (!field("model").value && r.models[0]) field("model").value = r.models[0];
    } catch (error) {
      setModelsSaid({ notice: errorText(error), kind: "error" });
    }
  }

  async function test() {
    const v = values();
    setSaid({ notice: t("providers.testing") });
    try {
      // A saved provider with an untouched key is tested with its stored key.
      const body = existing && !v.apiKey && v.baseUrl === existing.baseUrl && v.model === existing.model ? { id: existing.id } : { baseUrl: v.baseUrl, model: v.model, apiKey: v.apiKey };
      setSaid({ test: await api<TestAnswer>("POST", "/api/providers/test", body) });
    } catch (error) {
      setSaid({ notice: errorText(error), kind: "error" });
    }
  }

  async function submit(event: Event) {
    event.preventDefault();
    const { preset, ...rest } = values();
    const input: ProviderInputBody = preset ? { ...rest, preset } : rest;
    try {
      await api(existing ? "PUT" : "POST", existing ? `/api/providers/${existing.id}` : "/api/providers", input);
      done(existing ? undefined : input.name);
    } catch (error) {
      setSaid({ notice: errorText(error), kind: "error" });
    }
  }

  const show = (s: Said) => (!s ? null : "test" in s ? <TestResult result={s.test} /> : s.kind === "error" ? <Notice kind="error">{s.notice}</Notice> : s.notice);
  return (
    <form ref={form} class="card grid" aria-label={title} onSubmit={submit}>
      <h2>{title}</h2>
      <label for="p-preset">{t("providers.preset")}</label>
      <select id="p-preset" name="preset" onChange={(e) => choosePreset(e.currentTarget.value)}>
        <option value="">{t("providers.custom")}</option>
        {presets.map((p) => (
          <option key={p.id} value={p.id} selected={existing?.preset === p.id} translate={false}>
            {/* The product's name stays as it is; "(local)" is the console's word. */}
            {p.name.replace(/ \(local\)$/, ` ${t("look.local")}`)}
          </option>
        ))}
      </select>
      <label for="p-name">{t("providers.name")}</label>
      <input id="p-name" name="name" defaultValue={existing?.name ?? ""} required />
      <label for="p-baseUrl">{t("providers.baseUrl")}</label>
      <input id="p-baseUrl" name="baseUrl" defaultValue={existing?.baseUrl ?? ""} required type="url" placeholder="https://…/v1" />
      <label for="p-model">{t("providers.model")}</label>
      <div class="inline-row">
        <input id="p-model" name="model" defaultValue={existing?.model ?? ""} required list="p-models" autocomplete="off" />
        <datalist id="p-models">
          {models.map((id) => (
            <option key={id} value={id} />
          ))}
        </datalist>
        <button type="button" class="quiet" onClick={fetchModels}>
          {t("providers.fetchModels")}
        </button>
        <span aria-live="polite" class="muted">
          {show(modelsSaid)}
        </span>
      </div>
      <label for="p-apiKey">{t("providers.apiKey")}</label>
      <input id="p-apiKey" name="apiKey" type="password" autocomplete="off" placeholder={existing?.hasKey ? t("providers.keyReplace") : t("providers.keyNotSet")} />
      <label for="p-contextWindow">{t("providers.contextWindow")}</label>
      <input
        id="p-contextWindow"
        name="contextWindow"
        type="number"
        inputMode="numeric"
        min={1024}
        max={10_000_000}
        step={1}
        defaultValue={existing?.contextWindow === undefined ? "" : String(existing.contextWindow)}
        placeholder="131072"
        aria-describedby="p-contextWindow-help"
      />
      <p id="p-contextWindow-help" class="small muted full">
        {t("providers.contextWindowHelp")}
      </p>
      <VoiceModelFields existing={existing} />
      <div class="actions">
        <button type="submit">{existing ? t("providers.save") : t("providers.addButton")}</button>
        <button type="button" class="quiet" id="p-test" onClick={test}>
          {t("providers.test")}
        </button>
        {existing ? (
          <button type="button" class="quiet" onClick={() => done()}>
            {t("providers.cancel")}
          </button>
        ) : null}
      </div>
      <div aria-live="polite">{said && ("test" in said || said.kind === "error" ? show(said) : <Notice>{said.notice}</Notice>)}</div>
    </form>
  );
}

export function Providers({ fail }: PageProps) {
  const [list, reload] = useLoad(() => api<ProvidersAnswer>("GET", "/api/providers"), fail);
  /** The name of a provider just added: the first one leads on into a first chat. */
  const [added, setAdded] = useState<string | undefined>(undefined);
  const [editing, setEditing] = useState<Provider | null>(null);
  /** Each save or cancel draws a fresh, empty form. */
  const [forms, setForms] = useState(0);
  if (!list) return null;

  const done = (name?: string) => {
    setAdded(name);
    setEditing(null);
    setForms((n) => n + 1);
    reload();
  };
  const activate = async (p: Provider) => {
    await api("POST", `/api/providers/${p.id}/activate`);
    done();
  };
  const remove = async (p: Provider) => {
    if (!confirm(t("providers.confirmDelete", { name: p.name }))) return;
    await api("DELETE", `/api/providers/${p.id}`);
    done();
  };
  return (
    <>
      <h1>{t("providers.title")}</h1>
      {added && list.providers.length === 1 ? (
        <p class="notice ok" role="status">
          {t("providers.firstAdded", { name: added })}
          <a href="#/chat">{t("providers.startChat")}</a>
        </p>
      ) : null}
      <p class="help">{t("providers.help")}</p>
      {list.providers.length ? (
        <ScrollRegion label={t("providers.title")}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("providers.colName")}</th>
                <th scope="col">{t("providers.colBaseUrl")}</th>
                <th scope="col">{t("providers.colModel")}</th>
                <th scope="col">{t("providers.colKey")}</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {list.providers.map((p) => (
                <tr key={p.id} data-provider={p.name}>
                  <td>
                    <Data>{p.name}</Data>
                    {p.active ? <span class="badge">{t("providers.active")}</span> : null}
                  </td>
                  <td>
                    <code>{p.baseUrl}</code>
                  </td>
                  <td>
                    <Data>{p.model}</Data>
                  </td>
                  <td>{p.hasKey ? t("providers.keySet") : "—"}</td>
                  <td class="actions">
                    {p.source === "stored" && !p.active ? (
                      <button type="button" class="quiet" onClick={() => activate(p)}>
                        {t("providers.use")}
                      </button>
                    ) : null}
                    {p.source === "stored" ? (
                      <button type="button" class="quiet" onClick={() => (setEditing(p), setForms((n) => n + 1))}>
                        {t("providers.edit")}
                      </button>
                    ) : (
                      <span class="muted">{t("providers.fromEnv")}</span>
                    )}
                    {p.source === "stored" ? (
                      <button type="button" class="quiet danger" onClick={() => remove(p)}>
                        {t("providers.delete")}
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <Notice>{t("providers.none")}</Notice>
      )}
      <div>
        <ProviderForm key={forms} presets={list.presets} existing={editing} done={done} />
      </div>
    </>
  );
}
