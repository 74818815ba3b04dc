// Recall audit: what memory injected into each of the last 1000 turns, and how fast recall is.
import { useState } from "preact/hooks";
import { api } from "./api.ts";
import type { AuditAnswer, ReplayAnswer } from "./api-types.ts";
import { LineChart } from "./charts.tsx";
import { Data, Notice, type PageProps, ScrollRegion, useLoad } from "./components.tsx";
import { errorText } from "./errors.ts";
import { named, num, t, when, word } from "./i18n.ts";

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const fixed = (n: number) => num(n, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** Replays the audited queries and draws the latency distribution (sorted: the percentile curve). */
function LatencyPanel() {
  const [measuring, setMeasuring] = useState(false);
  const [outcome, setOutcome] = useState<ReplayAnswer | Error | null>(null);

  async function measure() {
    setMeasuring(true);
    setOutcome(null);
    try {
      setOutcome(await api<ReplayAnswer>("POST", "/api/audit/replay"));
    } catch (error) {
      setOutcome(error as Error);
    } finally {
      setMeasuring(false);
    }
  }

  let shown = null;
  if (outcome instanceof Error) shown = <Notice kind="error">{errorText(outcome)}</Notice>;
  else if (outcome) {
    const ms = outcome.samples.map((s) => s.ms).sort((a, b) => a - b);
    if (!ms.length) shown = <Notice>{t("audit.noQueries")}</Notice>;
    else {
      // The percentile curve over 0–100; one replay is one latency for every percentile: a flat line across, not a dot at 100.
      const curve = ms.length === 1 ? [ms[0]!, ms[0]!] : ms;
      const percentiles = curve.map((_, i) => (i / (curve.length - 1)) * 100);
      const stats = t("audit.stats", { n: ms.length, p50: fixed(percentile(ms, 50)), p95: fixed(percentile(ms, 95)), max: fixed(ms.at(-1) ?? 0), embedder: outcome.embedder });
      shown = (
        <>
          <p class="latency-stats">{stats}</p>
          <LineChart title={t("audit.latencyChart")} x={percentiles} range={[0, 100]} series={[{ label: "ms", values: curve }]} summary={stats} />
        </>
      );
    }
  }
  return (
    <section class="card">
      <h2>{t("audit.latency")}</h2>
      <p class="help">{t("audit.latencyHelp")}</p>
      <button type="button" disabled={measuring} onClick={measure}>
        {t("audit.measure")}
      </button>
      <div aria-live="polite">
        {measuring && <Notice>{t("audit.measuring")}</Notice>}
        {shown}
      </div>
    </section>
  );
}

export function Audit({ fail }: PageProps) {
  const [audit] = useLoad(() => api<AuditAnswer>("GET", "/api/audit"), fail);
  if (!audit) return null;
  const { entries } = audit;
  const ordered = [...entries].reverse();
  return (
    <>
      <h1>{t("audit.title")}</h1>
      <p class="help">{t("audit.help")}</p>
      {!entries.length ? (
        <Notice>{t("audit.none")}</Notice>
      ) : (
        <>
          <LineChart
            title={t("audit.chart")}
            x={ordered.map((e) => e.time / 1000)}
            time
            series={[{ label: t("audit.chars"), values: ordered.map((e) => e.chars) }]}
            summary={t("audit.turns", { n: entries.length })}
          />
          <LatencyPanel />
          <ScrollRegion label={t("audit.turns", { n: entries.length })}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("audit.colTime")}</th>
                  <th scope="col">{t("audit.colQuery")}</th>
                  <th scope="col">{t("audit.colInjected")}</th>
                  <th scope="col">{t("audit.colChars")}</th>
                  <th scope="col">{t("audit.colIds")}</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e.id}>
                    <td>{when(e.time)}</td>
                    <td translate={false}>{e.query}</td>
                    <td>
                      {Object.entries(e.counts)
                        .map(([k, v]) => `${k}×${v}`)
                        .join(" ")}
                    </td>
                    <td class="num">{e.chars}</td>
                    <td class="ids">
                      {e.ids.map((i, n) => (
                        <span key={i.id}>
                          {n ? ", " : ""}
                          <Data>{i.id}</Data>
                          {` (${i.layer} · ${named("band", i.band)} · ${word(i.evidence)})`}
                        </span>
                      ))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
    </>
  );
}
