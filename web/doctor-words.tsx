// A doctor check's outcome in people's words, in the reader's language: what passing, warning or
// failing means for this check ("Search by meaning works"), with the check's own detail (paths,
// versions, counts, the error) one click away, as errors show theirs. The daemon's details are
// measurements and messages in English; the sentence is what a person reads first.
import type { DoctorAnswer } from "./api-types.ts";
import { Data } from "./components.tsx";
import { has, type TextKey, t } from "./i18n.ts";

type CheckResult = DoctorAnswer["results"][number];
type Outcome = "ok" | "warn" | "fail";

/** The outcome, with the two dependency checks' own states ("absent", no sandbox here) told apart: they pass, but something is off. */
function outcomeOf(result: CheckResult): Outcome | "absent" | "unsandboxed" | "skipped" {
  if (!result.ok) return result.detail.startsWith("skipped:") ? "skipped" : "fail";
  if (result.warn) return "warn";
  if (result.detail.startsWith("absent:")) return "absent";
  if (/cannot create its namespaces/.test(result.detail)) return "unsandboxed";
  return "ok";
}

/** The sentence for a check's outcome: its own when the console knows the check, else the outcome's in general. */
export function checkSentence(result: CheckResult): string {
  const outcome = outcomeOf(result);
  const own = `console27.doctor_${result.name.replace(/\W+/g, "_")}_${outcome}`;
  if (has(own)) return t(own as TextKey);
  return t(`console27.doctor_${outcome}` as TextKey);
}

export function CheckOutcome({ result }: { result: CheckResult }) {
  return (
    <>
      <span class="check-said">{checkSentence(result)}</span>
      {result.detail && (
        <details class="detail">
          <summary>{t("look.technical")}</summary>
          <Data as="code">{result.detail}</Data>
        </details>
      )}
    </>
  );
}
