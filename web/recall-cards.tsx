// A chat turn's recall for people: "Used 3 memories", expanding to a card per memory — what it
// says, where it came from (a chat or an import, and when), why it matched in words — with the
// engineer's detail (layer, band, score, channels, id) one more click away. The page's recall
// line beside it keeps the query and the injected lines as they were.
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { api } from "./api.ts";
import type { ExplainAnswer, RecallCard } from "./api-types.ts";
import { Data, Notice } from "./components.tsx";
import { errorText } from "./errors.ts";
import { t, word } from "./i18n.ts";
import { factSentence, Sentence, SourceLine } from "./memory-words.tsx";

/** What the chat page knows of a turn's recall (the live report, or the one rebuilt from the audit). */
export type RecalledTurn = { query?: string; ids?: string[] };

/** Why a memory matched, in words: the words it shares with the question, else how it was found. */
function Why({ card }: { card: RecallCard }) {
  if (card.sharedWords.length) return <Sentence k="recallCards.sharesWords" data={{ words: card.sharedWords.join(t("recallCards.wordSeparator")) }} />;
  if (card.channels.includes("vector")) return <>{t("recallCards.closeMeaning")}</>;
  if (card.channels.length) return <>{t("recallCards.closeSpelling")}</>;
  return <>{t("recallCards.keptAtHand")}</>;
}

function Card({ card }: { card: RecallCard }) {
  return (
    <li class="recall-card" data-id={card.id}>
      <Data as="p" class="memory">
        {card.fact ? factSentence(card.fact) : card.text}
      </Data>
      <p class="muted source">
        <SourceLine source={card.source} written={card.source.time ?? 0} />
      </p>
      <p class="why">
        <Why card={card} />
      </p>
      <details class="engineer">
        <summary>{t("recallCards.detail")}</summary>
        <dl>
          <dt>{t("recallCards.layer")}</dt>
          <dd>
            <code>{card.layer}</code>
          </dd>
          <dt>{t("recallCards.band")}</dt>
          <dd>
            <code>{card.band ?? "—"}</code>
          </dd>
          <dt>{t("recallCards.score")}</dt>
          <dd>
            <code>{card.score === null ? "—" : card.score.toFixed(4)}</code>
          </dd>
          <dt>{t("recallCards.channels")}</dt>
          <dd>
            <code>{card.channels.join("+") || "—"}</code>
          </dd>
          <dt>{t("recallCards.evidence")}</dt>
          <dd>{card.evidence ? word(card.evidence) : "—"}</dd>
          <dt>{t("recallCards.id")}</dt>
          <dd>
            <code>{card.id}</code>
          </dd>
        </dl>
      </details>
    </li>
  );
}

/** Collapsed to "Used N memories"; the cards are asked for when it is first opened. */
export function RecallCards({ report }: { report: RecalledTurn }) {
  const ids = report.ids ?? [];
  const [cards, setCards] = useState<RecallCard[] | Error | null>(null);
  const [asked, setAsked] = useState(false);
  if (ids.length === 0) return null;
  function toggled(event: Event) {
    if (!(event.currentTarget as HTMLDetailsElement).open || asked) return;
    setAsked(true);
    const params = new URLSearchParams({ q: report.query ?? "", ids: ids.join(",") });
    api<ExplainAnswer>("GET", `/api/memory/explain?${params}`).then(
      (a) => setCards(a.cards),
      (error: Error) => setCards(error),
    );
  }
  let body: ComponentChildren;
  if (cards === null)
    body = (
      <p class="muted" role="status">
        {t("recallCards.loading")}
      </p>
    );
  else if (cards instanceof Error) body = <Notice kind="error">{errorText(cards)}</Notice>;
  else if (cards.length === 0) body = <p class="muted">{t("recallCards.gone")}</p>;
  else
    body = (
      <ul class="recall-cards-list">
        {cards.map((c) => (
          <Card key={c.id} card={c} />
        ))}
      </ul>
    );
  return (
    <details class="recall-cards" onToggle={toggled}>
      <summary>{t("recallCards.used", { n: ids.length })}</summary>
      {body}
    </details>
  );
}
