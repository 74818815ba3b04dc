// A person's switch for homed's proactive turns: a muted conversation is neither woken nor told
// (its events wait for the next message there); a muted plugin wakes no conversation.
import { useEffect, useState } from "preact/hooks";
import { errorText } from "./errors.ts";
import { t } from "./i18n.ts";
import { readMutes, setMute } from "./proactive.ts";

export function MuteToggle({ kind, name, label }: { kind: "source" | "session"; name: string; label: string }) {
  const [muted, setMuted] = useState<boolean | undefined>(undefined);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    readMutes().then(
      (m) => current && setMuted((kind === "source" ? m.sources : m.sessions).includes(name)),
      (error: Error) => current && setProblem(errorText(error)),
    );
    return () => {
      current = false;
    };
  }, [kind, name]);
  async function change(next: boolean) {
    try {
      const m = await setMute(kind, name, next);
      setMuted((kind === "source" ? m.sources : m.sessions).includes(name));
      setProblem(null);
    } catch (error) {
      setProblem(errorText(error as Error));
    }
  }
  if (muted === undefined && !problem) return null;
  return (
    <label class="mute-toggle" data-mute={kind}>
      <input type="checkbox" checked={muted === true} onChange={(e) => void change((e.target as HTMLInputElement).checked)} /> {label}
      {problem && <span class="notice error">{t("proactive.muteFailed", { message: problem })}</span>}
    </label>
  );
}
