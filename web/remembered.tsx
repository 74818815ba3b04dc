// "What homed remembers": the facts (L3) as sentences, each with where it came from (which chat
// or import, when, the words said) and when a chat last used it; correct one, or forget it after
// a confirmation. The memory page shows it first; its search below stays the engineer's view.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "./api.ts";
import type { CorrectAnswer, FactsAnswer, RememberedFact } from "./api-types.ts";
import { Data, Notice } from "./components.tsx";
import { errorText } from "./errors.ts";
import { t, when } from "./i18n.ts";
import { factSentence, SourceLine } from "./memory-words.tsx";

/** "Last used in a chat on …, cited 2 times" — the newest of its injection into a turn and its citation by the model. */
function usedLine(f: RememberedFact): string {
  const last = Math.max(f.used.lastInjected ?? 0, f.used.lastCited ?? 0);
  if (!last) return t("remembers.notUsed");
  return t("remembers.lastUsed", { when: when(last) }) + (f.used.cited ? t("remembers.cited", { n: f.used.cited }) : "");
}

/** The correction form: the fact's three parts, each labelled in words. */
function EditFact({ fact, onSaved, onCancel }: { fact: RememberedFact; onSaved: () => void; onCancel: () => void }) {
  const [said, setSaid] = useState<string | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    const body = Object.fromEntries(new FormData(event.currentTarget as HTMLFormElement)) as Record<string, string>;
    try {
      await api<CorrectAnswer>("PUT", `/api/memory/facts/${encodeURIComponent(fact.id)}`, body);
      onSaved();
    } catch (error) {
      setSaid(errorText(error));
    }
  }
  const field = (name: "subject" | "predicate" | "object", label: Parameters<typeof t>[0]) => (
    <>
      <label for={`f-${name}-${fact.id}`}>{t(label)}</label>
      <input id={`f-${name}-${fact.id}`} name={name} required defaultValue={fact[name]} translate={false} />
    </>
  );
  return (
    <form class="fact-edit" aria-label={t("remembers.editForm")} onSubmit={submit}>
      {field("subject", "remembers.subject")}
      {field("predicate", "remembers.predicate")}
      {field("object", "remembers.object")}
      <div class="actions">
        <button type="submit">{t("remembers.save")}</button>
        <button type="button" class="quiet" onClick={onCancel}>
          {t("remembers.cancel")}
        </button>
      </div>
      {said && <Notice kind="error">{said}</Notice>}
    </form>
  );
}

function FactItem({ fact, onChanged, onForget }: { fact: RememberedFact; onChanged: () => void; onForget: (f: RememberedFact) => void }) {
  const [editing, setEditing] = useState(false);
  const sentence = factSentence(fact);
  // The words said, when they are more than the sentence already shows.
  const said = fact.source.said && !sentence.includes(fact.source.said.trim()) ? fact.source.said : null;
  return (
    <li class="fact" data-id={fact.id}>
      <Data as="p" class="sentence">
        {sentence}
      </Data>
      <p class="muted source">
        <SourceLine source={fact.source} written={fact.updatedAt} />
      </p>
      {said ? (
        <div class="said">
          <span class="muted">{t("remembers.wordsSaid")}</span>
          <Data as="blockquote">{said}</Data>
        </div>
      ) : null}
      <p class="muted used">{usedLine(fact)}</p>
      {editing ? (
        <EditFact
          fact={fact}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onChanged();
          }}
        />
      ) : (
        <div class="actions">
          <button type="button" class="quiet" data-action="edit" onClick={() => setEditing(true)}>
            {t("remembers.edit")}
          </button>
          <button type="button" class="quiet danger" data-action="forget" onClick={() => onForget(fact)}>
            {t("remembers.forget")}
          </button>
        </div>
      )}
    </li>
  );
}

/** The confirmation before forgetting: a modal dialog saying what goes and that it cannot come back. */
function ForgetDialog({ fact, onClose, onForgotten }: { fact: RememberedFact; onClose: () => void; onForgotten: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => dialog.current?.showModal(), []);
  async function forget() {
    try {
      await api("DELETE", `/api/memory/records/${encodeURIComponent(fact.id)}`);
      onForgotten();
    } catch (error) {
      setSaid(errorText(error));
    }
  }
  return (
    <dialog ref={dialog} class="confirm" aria-labelledby="forget-title" onClose={onClose}>
      <h3 id="forget-title">{t("remembers.forgetTitle")}</h3>
      <Data as="p">{factSentence(fact)}</Data>
      <p>{t("remembers.forgetExplain")}</p>
      <div class="actions">
        <button type="button" class="quiet" onClick={() => dialog.current?.close()}>
          {t("remembers.keep")}
        </button>
        <button type="button" class="confirm-forget" onClick={forget}>
          {t("remembers.forgetConfirm")}
        </button>
      </div>
      {said && <Notice kind="error">{said}</Notice>}
    </dialog>
  );
}

/** The view: loading and empty states are paragraphs beside the list, never inside it (axe: a list holds only items). */
export function Remembered({ onChanged }: { onChanged?: () => void }) {
  const [facts, setFacts] = useState<RememberedFact[] | Error | null>(null);
  const [forgetting, setForgetting] = useState<RememberedFact | null>(null);
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let current = true;
    api<FactsAnswer>("GET", "/api/memory/facts").then(
      (a) => current && setFacts(a.facts),
      (error: Error) => current && setFacts(error),
    );
    return () => {
      current = false;
    };
  }, [asked]);
  const changed = () => {
    setAsked((n) => n + 1);
    onChanged?.();
  };
  let body: ComponentChildren;
  if (facts === null)
    body = (
      <p class="muted" role="status">
        {t("remembers.loading")}
      </p>
    );
  else if (facts instanceof Error) body = <Notice kind="error">{errorText(facts)}</Notice>;
  else if (facts.length === 0)
    body = (
      <p class="muted" role="status">
        {t("remembers.empty")}
      </p>
    );
  else
    body = (
      <ul class="facts">
        {facts.map((f) => (
          <FactItem key={`${f.id}/${f.revision}`} fact={f} onChanged={changed} onForget={setForgetting} />
        ))}
      </ul>
    );
  return (
    <section class="remembered card" aria-labelledby="remembered-title">
      <h2 id="remembered-title">{t("remembers.title")}</h2>
      <p class="muted">{t("remembers.intro")}</p>
      {body}
      {forgetting && (
        <ForgetDialog
          key={forgetting.id}
          fact={forgetting}
          onClose={() => setForgetting(null)}
          onForgotten={() => {
            setForgetting(null);
            changed();
          }}
        />
      )}
    </section>
  );
}
