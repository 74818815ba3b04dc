// Memory in plain words, shared by "What homed remembers" (remembered.tsx) and the chat's recall
// cards (recall-cards.tsx): a fact as a sentence, and where a memory came from.
import type { ComponentChildren } from "preact";
import type { MemorySource } from "./api-types.ts";
import { Data } from "./components.tsx";
import { t, type TextKey, when } from "./i18n.ts";

const CJK = /[\u3000-\u9fff\uff00-\uffef]/;
const SAID = /^(said|says|说|说过)$/i;

/**
 * A fact's parts as one sentence in the words it was said in: "我过敏花生。", "alice said:
 * “My boat is blue.”", "I allergic to peanuts." — Chinese parts join without spaces, a
 * predicate's underscores become spaces, and the sentence ends with a full stop of its script.
 */
export function factSentence(f: { subject: string; predicate: string; object: string }): string {
  const predicate = f.predicate.replace(/_/g, " ").trim();
  if (SAID.test(predicate)) return CJK.test(f.subject) ? `${f.subject}说：“${f.object}”` : `${f.subject} said: “${f.object}”`;
  const parts = [f.subject.trim(), predicate, f.object.trim()].filter(Boolean);
  let text = parts[0] ?? "";
  for (const part of parts.slice(1)) text += CJK.test(text.at(-1) ?? "") && CJK.test(part[0] ?? "") ? part : ` ${part}`;
  if (/[.!?。！？”"]$/.test(text)) return text;
  return text + (CJK.test(text.at(-1) ?? "") ? "。" : ".");
}

/**
 * A text of the console's with data in it: each {name} filled with its value marked as data
 * (translate="no"), so a name or title is never taken for an untranslated word.
 */
export function Sentence({ k, data }: { k: TextKey; data: Record<string, string | null | undefined> }) {
  const mark = "\u0001";
  const filled = t(k, Object.fromEntries(Object.keys(data).map((name) => [name, `${mark}${name}${mark}`])));
  const pieces: ComponentChildren[] = filled.split(mark).map((piece, i) => (i % 2 ? <Data key={i}>{data[piece] ?? ""}</Data> : piece));
  return <>{pieces}</>;
}

/** "From the chat “Trip plans” with alice, 5 Jan 2026, 10:00", "From imported history (alice), …", "Written by you, …". */
export function SourceLine({ source, written }: { source: MemorySource; written: number }) {
  const at = when(source.time ?? written);
  if (source.via === "chat")
    return source.title ? (
      <Sentence k="remembers.fromChatTitled" data={{ title: source.title, partner: source.partner, when: at }} />
    ) : (
      <Sentence k="remembers.fromChat" data={{ partner: source.partner, when: at }} />
    );
  if (source.via === "import") return <Sentence k="remembers.fromImport" data={{ conversation: source.conversation ?? source.sessionId, when: at }} />;
  if (source.via === "note") return <>{t("remembers.byHand", { when: at })}</>;
  return <>{t("remembers.sourceGone")}</>;
}
