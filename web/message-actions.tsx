// What a person can do with one message: copy it, and (when the conversation is not answering)
// edit and send again, regenerate the last answer, or retry a turn that failed.
import { useEffect, useRef, useState } from "preact/hooks";
import { sendsMessage } from "./chat-keys.ts";
import { t } from "./i18n.ts";

/** Copies `text`; the button says "Copied" for a moment (announced: its label changes in place). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button type="button" class="quiet small" aria-label={copied ? t("turn.copied") : label} onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true))}>
      {copied ? t("turn.copied") : t("turn.copy")}
    </button>
  );
}

/** A user message opened for editing: Send replaces it (and what followed it) with the new text. */
export function EditMessage({ text, send, cancel }: { text: string; send: (text: string) => void; cancel: () => void }) {
  const box = useRef<HTMLTextAreaElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <form
      ref={form}
      class="edit-message"
      aria-label={t("turn.editing")}
      onSubmit={(e) => {
        e.preventDefault();
        const value = box.current!.value;
        if (value.trim()) send(value);
      }}
    >
      <label for="edit-message" class="sr-only">
        {t("turn.editLabel")}
      </label>
      <textarea
        ref={box}
        id="edit-message"
        rows={3}
        defaultValue={text}
        onKeyDown={(e) => {
          if (e.key === "Escape") cancel();
          else if (sendsMessage(e)) {
            e.preventDefault();
            form.current?.requestSubmit();
          }
        }}
      />
      <div class="actions">
        <button type="submit">{t("turn.sendEdited")}</button>
        <button type="button" class="quiet" onClick={cancel}>
          {t("chat.cancel")}
        </button>
      </div>
    </form>
  );
}
