// Local models: the catalog `homed model pull` knows, what is installed, and a Download button
// per model whose progress (file i of n, bytes) is read back from the daemon while it pulls.
import { useEffect, useState } from "preact/hooks";
import { api } from "./api.ts";
import type { ModelCatalogAnswer, ModelPullState } from "./api-types.ts";
import { Data, Notice } from "./components.tsx";
import { errorText } from "./errors.ts";
import { bytes } from "./format.ts";
import { t } from "./i18n.ts";

/** The setting that chose a mirror, by its own name (the Hub itself needs none; the console never passes a flag). */
const SETTING: Partial<Record<ModelCatalogAnswer["source"]["via"], string>> = { env: "HOMED_MODELS_MIRROR / HF_ENDPOINT", "homed.json": "homed.json: models.mirror" };
function Via({ via }: { via: ModelCatalogAnswer["source"]["via"] }) {
  const setting = SETTING[via];
  if (!setting) return null;
  return (
    <>
      {t("models.viaOpen")}
      <code>{setting}</code>
      {t("models.viaClose")}
    </>
  );
}

/** How often the page asks for a running pull's progress. */
const POLL_MS = 400;

function PullLine({ pull }: { pull: ModelPullState }) {
  if (pull.state === "done") return <Notice kind="ok">{t("models.done", { name: pull.name, dir: pull.message ?? "" })}</Notice>;
  if (pull.state === "failed") return <Notice kind="error">{t("models.failed", { name: pull.name, message: pull.message ?? "" })}</Notice>;
  return (
    <>
      <progress data-pull={pull.name} max={pull.total ?? 1} value={pull.total ? pull.received : 0} aria-label={pull.name} />
      <Notice>{t("models.progress", { name: pull.name, i: pull.fileIndex, n: pull.files, received: bytes(pull.received), total: pull.total ? bytes(pull.total) : "?" })}</Notice>
    </>
  );
}

export function ModelsCard() {
  const [answer, setAnswer] = useState<ModelCatalogAnswer | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api<ModelCatalogAnswer>("GET", "/api/models").then(
      (a) => setAnswer(a),
      // A daemon without a data folder has no /api/models: the card stays away.
      () => setAnswer(undefined),
    );
  useEffect(() => {
    void load();
  }, []);
  const running = answer?.pull?.state === "running";
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void load(), POLL_MS);
    return () => clearInterval(timer);
  }, [running]);

  async function pull(name: string) {
    setError(null);
    try {
      await api<ModelPullState>("POST", "/api/models/pull", { name });
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  }

  if (!answer) return null;
  return (
    <section class="card models" aria-labelledby="models-title">
      <h2 id="models-title">{t("models.title")}</h2>
      <p>{t("models.why")}</p>
      <p>
        <small>
          {t("models.from")}
          <Data>{answer.source.url}</Data>
          <Via via={answer.source.via} />
        </small>
      </p>
      <ul>
        {answer.models.map((m) => (
          <li key={m.name} data-model={m.name}>
            <Data as="strong">{m.name}</Data> · {t(m.kind === "clip" ? "models.kind_clip" : "models.kind_sentence")} · <Data>{m.size}</Data>
            <br />
            <small>
              {/* The catalog's own description, in English as published. */}
              <Data>{m.about}</Data> · {t("models.languages")}
              <Data>{m.languages.join(", ")}</Data> · {t("models.licence")}
              <Data>{m.licence}</Data>
            </small>
            <br />
            {m.installed ? (
              <span class="badge">{t("models.installed")}</span>
            ) : (
              <button type="button" data-action="pull-model" disabled={running} onClick={() => void pull(m.name)} aria-label={`${t("models.pull")} ${m.name}`}>
                {t("models.pull")}
              </button>
            )}
          </li>
        ))}
      </ul>
      <div aria-live="polite">
        {answer.pull ? <PullLine pull={answer.pull} /> : null}
        {error ? <Notice kind="error">{error}</Notice> : null}
      </div>
    </section>
  );
}
