// Plugins: state, restarts, last exit, log tail, and a restart button (the way out of "failed");
// then the events they pushed lately (what reached, or will reach, a session's turn).
import { useState } from "preact/hooks";
import { api, ApiError } from "./api.ts";
import type { PluginEventsAnswer, PluginsAnswer } from "./api-types.ts";
import { Data, Notice, type PageProps, useLoad } from "./components.tsx";
import { errorText } from "./errors.ts";
import { named, t, when } from "./i18n.ts";
import { MuteToggle } from "./mute-toggle.tsx";

type Plugin = PluginsAnswer["plugins"][number];
type Pushed = { type?: string; session?: string; urgent?: boolean };

const exitText = (e: Plugin["lastExit"]) => (e ? (e.signal ? t("plugins.exitSignal", { signal: e.signal, at: when(e.at) }) : t("plugins.exitCode", { code: e.code, at: when(e.at) })) : "");

/** The plugins, or null when this daemon runs no plugin host (the API answers 404). */
async function loadPlugins(): Promise<{ plugins: Plugin[] | null; events: PluginEventsAnswer["events"] }> {
  try {
    const { plugins } = await api<PluginsAnswer>("GET", "/api/plugins");
    if (!plugins.length) return { plugins, events: [] };
    return { plugins, events: (await api<PluginEventsAnswer>("GET", "/api/plugins/events")).events };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { plugins: null, events: [] };
    throw error;
  }
}

export function Plugins({ fail }: PageProps) {
  const [loaded, reload] = useLoad(loadPlugins, fail);
  const [refused, setRefused] = useState<string | null>(null);

  async function restart(name: string) {
    try {
      await api("POST", `/api/plugins/${encodeURIComponent(name)}/restart`);
      reload();
    } catch (error) {
      setRefused(t("plugins.cannotRestart", { name, message: errorText(error) }));
    }
  }

  if (!loaded) return null;
  const { plugins, events } = loaded;
  if (refused) return <Notice kind="error">{refused}</Notice>;
  return (
    <>
      <h1>{t("plugins.title")}</h1>
      {plugins === null ? (
        <Notice>{t("plugins.noHost")}</Notice>
      ) : !plugins.length ? (
        <Notice>{t("plugins.none")}</Notice>
      ) : (
        <>
          <ul class="records">
            {plugins.map((p) => (
              <li key={p.name} class="record plugin" data-plugin={p.name} data-state={p.state}>
                <div class="meta">
                  <strong translate={false}>{p.name}</strong>
                  <span class={`badge state-${p.state}`}>{named("state", p.state)}</span>
                  {t("plugins.restarts", { n: p.restarts })}
                  {p.pid ? t("plugins.pid", { pid: String(p.pid) }) : ""}
                  {exitText(p.lastExit)}
                </div>
                {p.error && (
                  <Data as="p" class="notice error">
                    {p.error}
                  </Data>
                )}
                {p.tools.length > 0 && (
                  <p class="muted">
                    {t("plugins.tools", { tools: "" })}
                    <Data>{p.tools.join(", ")}</Data>
                  </p>
                )}
                <details>
                  <summary>{t("plugins.logTail")}</summary>
                  <Data as="pre" class="verbatim">
                    {p.logTail.join("\n")}
                  </Data>
                </details>
                <MuteToggle kind="source" name={p.name} label={t("proactive.muteSource")} />
                <button type="button" aria-label={t("plugins.restartLabel", { name: p.name })} onClick={() => restart(p.name)}>
                  {t("plugins.restart")}
                </button>
              </li>
            ))}
          </ul>
          <h2>{t("plugins.events")}</h2>
          {!events.length ? (
            <p class="muted">{t("plugins.noEvents")}</p>
          ) : (
            <ul class="records">
              {events.map((e, i) => {
                const event = (e.event ?? {}) as Pushed;
                return (
                  <li key={i} class="record pushed-event" data-plugin={e.plugin}>
                    <div class="meta">
                      {when(e.at)}
                      {" · "}
                      <strong translate={false}>{e.plugin}</strong>
                      {event.type && <Data>{` · ${event.type}`}</Data>}
                      {event.session && <Data>{t("plugins.eventSession", { session: event.session })}</Data>}
                      {event.urgent && <span class="badge">{t("plugins.urgent")}</span>}
                    </div>
                    <Data as="pre" class="verbatim">
                      {JSON.stringify(e.event)}
                    </Data>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </>
  );
}
