// What the memory page's import reads, one line a format: homed's own JSON Lines and the
// ChatGPT and Claude exports (both called conversations.json), which the daemon tells apart by
// their content (src/memory/import-exports.ts), so the person only picks the file.
import { t } from "./i18n.ts";

export function ImportFormats() {
  return (
    <ul class="import-formats help" aria-label={t("console27.formatsLabel")}>
      <li>
        {t("console27.formatJsonl")} <code>homed import</code>
      </li>
      <li>
        {t("console27.formatChatgpt")} <code>conversations.json</code>
      </li>
      <li>
        {t("console27.formatClaude")} <code>conversations.json</code>
      </li>
    </ul>
  );
}
