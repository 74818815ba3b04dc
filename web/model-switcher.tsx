// The model that answers the next turn, chosen in the chat when there is more than one. The
// choice is the daemon's active provider (POST /api/providers/:id/activate, the Providers page's
// Activate): one choice for every conversation and every client of homed, kept across reloads
// and restarts. Simpler and more honest than a per-conversation choice the daemon would not
// know about: what the switcher shows is what answers, wherever the next turn comes from.
import { useState } from "preact/hooks";
import { api } from "./api.ts";
import type { ProvidersAnswer } from "./api-types.ts";
import { Notice } from "./components.tsx";
import { errorText } from "./errors.ts";
import { t } from "./i18n.ts";

export function ModelSwitcher({ providers }: { providers: ProvidersAnswer["providers"] }) {
  const [active, setActive] = useState(() => providers.find((p) => p.active)?.id ?? "");
  const [refused, setRefused] = useState<string | null>(null);
  if (providers.length < 2) return null;

  async function choose(id: string) {
    const before = active;
    setActive(id);
    setRefused(null);
    try {
      await api("POST", `/api/providers/${encodeURIComponent(id)}/activate`);
    } catch (error) {
      setActive(before);
      setRefused(errorText(error));
    }
  }

  return (
    <div class="model-switcher">
      <label for="model-switcher">{t("console27.model")}</label>
      <select id="model-switcher" value={active} aria-describedby="model-switcher-help" onChange={(e) => void choose(e.currentTarget.value)}>
        {providers.map((p) => (
          <option key={p.id} value={p.id} translate={false}>
            {p.name} · {p.model}
          </option>
        ))}
      </select>
      <small id="model-switcher-help" class="muted">
        {t("console27.modelHelp")}
      </small>
      {refused && <Notice kind="error">{refused}</Notice>}
    </div>
  );
}
