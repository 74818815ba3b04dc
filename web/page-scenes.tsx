// Scenes: recurring situations, how often they came back, and how their strength fades.
import { api } from "./api.ts";
import type { ScenesAnswer } from "./api-types.ts";
import { LineChart } from "./charts.tsx";
import { Data, Notice, type PageProps, useLoad } from "./components.tsx";
import { num, t, when } from "./i18n.ts";

const DAY = 86_400_000;
type Scene = ScenesAnswer["scenes"][number];
/** Older scenes kept only search stems (`topic`); newer ones the words as written too. */
type Features = { partner?: string; channel?: string; words?: string[]; topic?: string[] };

/**
 * A scene in words: partner · channel · its topic words as the person wrote them (older scenes
 * kept only search stems: those are shown when there is nothing better). The id is one click away.
 */
export function sceneName(s: Pick<Scene, "key" | "features">): string {
  const f = s.features as Features;
  const topic = (f.words ?? f.topic ?? []).slice(0, 4).join(" ");
  return [f.partner, f.channel, topic].filter(Boolean).join(" · ") || s.key;
}

const strength = (n: number) => num(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Each scene's strength from its last recurrence to two weeks ahead, by the half-life decay. */
function StrengthChart({ scenes, now, halfLifeMs }: ScenesAnswer) {
  const shown = scenes.slice(0, 5);
  const start = Math.min(...shown.map((s) => s.lastSeen));
  const steps = Math.max(2, Math.ceil((now + 14 * DAY - start) / (DAY / 4)));
  const times = Array.from({ length: steps + 1 }, (_, i) => start + (i * (now + 14 * DAY - start)) / steps);
  return (
    <LineChart
      title={t("scenes.chart", { days: Math.round(halfLifeMs / DAY) })}
      x={times.map((at) => at / 1000)}
      time
      series={shown.map((s) => ({ label: sceneName(s), values: times.map((at) => (at < s.lastSeen ? null : s.strengthAtLastSeen * 0.5 ** ((at - s.lastSeen) / halfLifeMs))) }))}
      summary={shown.map((s) => t("scenes.chartSummary", { name: sceneName(s), strength: strength(s.strength) })).join("; ")}
    />
  );
}

export function Scenes({ fail }: PageProps) {
  const [list] = useLoad(() => api<ScenesAnswer>("GET", "/api/scenes"), fail);
  if (!list) return null;
  return (
    <>
      <h1>{t("scenes.title")}</h1>
      <p class="help">{t("scenes.help")}</p>
      {!list.scenes.length ? (
        <Notice>{t("scenes.none")}</Notice>
      ) : (
        <>
          <StrengthChart {...list} />
          <div class="scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("scenes.colScene")}</th>
                  <th scope="col">{t("scenes.colKind")}</th>
                  <th scope="col">{t("scenes.colOccurrences")}</th>
                  <th scope="col">{t("scenes.colStrength")}</th>
                  <th scope="col">{t("scenes.colLastSeen")}</th>
                </tr>
              </thead>
              <tbody>
                {list.scenes.map((s) => (
                  <tr key={s.key} data-scene={s.key}>
                    <td>
                      <Data as="strong" class="scene-name">
                        {sceneName(s)}
                      </Data>
                      <details class="scene-id">
                        <summary>{t("scenes.id")}</summary>
                        <code>{s.key}</code>
                        <pre translate={false}>{JSON.stringify(s.features)}</pre>
                      </details>
                    </td>
                    <td>{s.declared ? t("scenes.declared") : t("scenes.recognised")}</td>
                    <td class="num">{num(s.occurrences)}</td>
                    <td class="num">{strength(s.strength)}</td>
                    <td>{when(s.lastSeen)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
