// Context inspector: what the model would see now — the budget bar, each live event with its
// tokens, relevance score and pin, and what sank to cold memory.
import { api } from "./api.ts";
import type { Inspection, SessionsAnswer } from "./api-types.ts";
import { LineChart } from "./charts.tsx";
import { Data, Notice, type PageProps, ScrollRegion, useLoad } from "./components.tsx";
import { named, num, t, when } from "./i18n.ts";

function BudgetBar({ c }: { c: Inspection }) {
  const pct = (n: number) => `${Math.min(100, (n / (c.budget * c.threshold)) * 100).toFixed(1)}%`;
  return (
    <div class="budget">
      <p>{t("context.used", { used: c.usedTokens, budget: c.budget, pct: num(c.ratio, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 }), threshold: c.threshold })}</p>
      <p class="tool-tokens">{t("context.toolTokens", { n: c.toolTokens })}</p>
      {/* biome-ignore lint/a11y/useSemanticElements: the bar also marks where the budget ends, which <meter> cannot draw */}
      <div class="bar" role="meter" aria-valuemin={0} aria-valuemax={c.budget} aria-valuenow={c.usedTokens} aria-label={t("context.budgetUse")}>
        {/* Set through the CSSOM: the content security policy forbids inline style attributes. */}
        <span class="fill" style={{ width: pct(c.usedTokens) }} />
        <span class="mark" style={{ left: pct(c.budget) }} title={t("context.budget")} />
      </div>
    </div>
  );
}

/** Tokens in the session after each event (live and sunk alike) against the budget. */
function TokensChart({ c }: { c: Inspection }) {
  const all = [...c.live, ...c.sunk].sort((a, b) => a.time - b.time);
  if (all.length < 2) return null;
  let total = 0;
  const values = all.map((e) => (total += e.tokens));
  // Far under the budget, its line would squash the conversation's to a flat 0: then it is only named.
  const budgetShown = total >= c.budget / 4;
  return (
    <LineChart
      title={budgetShown ? t("context.chartTitle") : t("context.chartTitleUnder", { budget: c.budget })}
      x={all.map((_, i) => i + 1)}
      series={[{ label: t("context.said"), values }, ...(budgetShown ? [{ label: t("context.budget"), values: all.map(() => c.budget), dash: [6, 4] }] : [])]}
      summary={t("context.chartSummary", { total, n: all.length, budget: c.budget })}
    />
  );
}

/** The sessions, and the chosen one's inspection (the first session's when none is chosen). */
async function load(sessionId: string | undefined): Promise<{ sessions: SessionsAnswer["sessions"]; id?: string; c?: Inspection }> {
  const { sessions } = await api<SessionsAnswer>("GET", "/api/sessions");
  const id = sessionId ?? sessions[0]?.id;
  if (!id) return { sessions };
  return { sessions, id, c: await api<Inspection>("GET", `/api/inspect/${encodeURIComponent(id)}`) };
}

export function Context({ params: [sessionId], fail }: PageProps) {
  const [loaded] = useLoad(() => load(sessionId), fail);
  if (!loaded) return <h1>{t("context.title")}</h1>;
  const { sessions, id, c } = loaded;
  return (
    <>
      <h1>{t("context.title")}</h1>
      <nav class="pills" aria-label={t("context.sessions")}>
        {sessions.map((s) => (
          <a key={s.id} href={`#/context/${s.id}`} aria-current={s.id === id ? "page" : undefined} translate={false}>
            {s.title ?? s.partner}
          </a>
        ))}
      </nav>
      {!c ? (
        <Notice>{t("context.none")}</Notice>
      ) : (
        <>
          <BudgetBar c={c} />
          <TokensChart c={c} />
          <h2>{t("context.live", { n: c.live.length })}</h2>
          <p class="muted">{c.scoredAgainst ? t("context.scoredAgainst", { text: c.scoredAgainst.slice(0, 120) }) : t("context.noScore")}</p>
          <ScrollRegion label={t("context.live", { n: c.live.length })}>
            <table class="events">
              <thead>
                <tr>
                  <th scope="col">{t("context.colTime")}</th>
                  <th scope="col">{t("context.colMessages")}</th>
                  <th scope="col">{t("context.colTokens")}</th>
                  <th scope="col">{t("context.colScore")}</th>
                  <th scope="col">{t("context.colPinned")}</th>
                  <th scope="col">{t("context.colText")}</th>
                </tr>
              </thead>
              <tbody>
                {c.live.map((e) => (
                  <tr key={e.id} data-id={e.id}>
                    <td>{when(e.time)}</td>
                    <td>{e.roles.map((r) => named("role", r)).join(", ")}</td>
                    <td class="num">{e.tokens}</td>
                    <td class="num">{e.score.toFixed(3)}</td>
                    <td>{e.pinned ? t("context.pinned") : ""}</td>
                    <td class="text" translate={false}>
                      {e.text}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <h2>{t("context.sank", { n: c.sunk.length })}</h2>
          {c.sunk.length ? (
            <ul class="records">
              {c.sunk.map((e) => (
                <li key={e.id} class="record" data-id={e.id}>
                  <div class="meta">
                    <span class={`badge ${e.layer}`}>{e.layer}</span>
                    <code>{e.id}</code>
                    {t("context.sankLine", { said: when(e.time) })}
                    {e.sunkAt ? t("context.sankAt", { at: when(e.sunkAt) }) : ""}
                    {t("context.tokens", { n: e.tokens })}
                    {e.lastAccess ? t("context.lastRecalled", { at: when(e.lastAccess) }) : ""}
                  </div>
                  <Data as="p" class="text">
                    {e.text}
                  </Data>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">{t("context.nothingSank")}</p>
          )}
        </>
      )}
    </>
  );
}
