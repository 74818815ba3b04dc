// Doctor: the same checks as `homed doctor`, on demand.
import { useState } from "preact/hooks";
import { api } from "./api.ts";
import type { DoctorAnswer, Health } from "./api-types.ts";
import { Notice, type PageProps, useLoad } from "./components.tsx";
import { CheckOutcome } from "./doctor-words.tsx";
import { errorText } from "./errors.ts";
import { named, t } from "./i18n.ts";

/** /healthz's answer, or what went wrong asking. */
type HealthSeen = Health | { ok: false; error?: string; message?: string };

export function Doctor({ fail }: PageProps) {
  const [health] = useLoad(
    () =>
      fetch("/healthz")
        .then((r) => r.json() as Promise<HealthSeen>)
        .catch((error: Error): HealthSeen => ({ ok: false, error: error.message })),
    fail,
  );
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<DoctorAnswer | Error | null>(null);

  async function run() {
    setRunning(true);
    setOutcome(null);
    try {
      setOutcome(await api<DoctorAnswer>("POST", "/api/doctor"));
    } catch (error) {
      setOutcome(error as Error);
    } finally {
      setRunning(false);
    }
  }

  if (!health) return null;
  return (
    <>
      <h1>{t("doctor.title")}</h1>
      {health.ok ? (
        <Notice kind="ok">{t("doctor.healthy", { version: health.version })}</Notice>
      ) : (
        <Notice kind="error">{t("doctor.problem", { message: health.error ?? health.message ?? t("doctor.unknown") })}</Notice>
      )}
      <p class="help">
        {t("doctor.helpBefore")}
        <code>homed doctor</code>
        {t("doctor.helpAfter")}
      </p>
      <button type="button" disabled={running} onClick={run}>
        {t("doctor.run")}
      </button>
      <div aria-live="polite">
        {running && <Notice>{t("doctor.running")}</Notice>}
        {outcome instanceof Error && <Notice kind="error">{errorText(outcome)}</Notice>}
        {outcome && !(outcome instanceof Error) && (
          <>
            <Notice kind={outcome.ok ? "ok" : "error"}>{outcome.ok ? t("doctor.passed", { ms: outcome.ms }) : t("doctor.failed", { ms: outcome.ms })}</Notice>
            <ul class="checks">
              {outcome.results.map((c) => (
                <li key={c.name} class={!c.ok ? "fail" : c.warn ? "warn" : "ok"}>
                  <strong>{`${!c.ok ? "✗" : c.warn ? "!" : "✓"} ${named("check", c.name)}`}</strong> <CheckOutcome result={c} />
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </>
  );
}
