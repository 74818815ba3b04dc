/**
 * A conversation's name by the model: after its first exchange the console asks
 * (`POST /api/sessions/:id/title`) and homed sends the active provider one small request — the
 * first question and answer, cut short, with a few tokens to answer in, no retries and a short
 * timeout — so a title costs little and never holds anything up. Any failure (no provider, the
 * provider refusing, an empty or unusable answer) leaves the title the console already gave the
 * conversation from its first message (web/auto-title.ts).
 */
import { contentText, type ContextEvent } from "../context/index.ts";
import type { ProviderTarget } from "../kernel/index.ts";
import { ChatClient } from "../llm/index.ts";

/** What of each side of the exchange the model reads: a title needs the topic, not the whole text. */
const EXCHANGE_CHARS = 1_500;
/** A title's room: a few words in any language (a Chinese character can be a token or two). */
const TITLE_TOKENS = 32;
/** The longest title kept, in characters (the list cuts longer ones anyway). */
export const TITLE_MAX_CHARS = 80;
/** Past this the request is dropped: a title is not worth a longer wait. */
const TITLE_TIMEOUT_MS = 15_000;

const INSTRUCTION = "Name this conversation in at most six words, in the language the user wrote in. Answer with the name alone: no quotes, no final full stop, no 'Title:'.";

/** The conversation's first question and first answer, as text; undefined until both exist. */
export function firstExchange(events: ContextEvent[]): { asked: string; answered: string } | undefined {
  const messages = events.flatMap((e) => e.messages);
  const asked = messages.find((m) => m.role === "user");
  const answered = messages.find((m) => m.role === "assistant" && contentText(m.content).trim() !== "");
  if (!asked || !answered) return undefined;
  return { asked: contentText(asked.content).slice(0, EXCHANGE_CHARS), answered: contentText(answered.content).slice(0, EXCHANGE_CHARS) };
}

/** The model's answer as a title: its first line, without quotes, a "Title:" label, Markdown marks or a full stop; empty when nothing is left. */
export function cleanTitle(answer: string): string {
  const line = (answer.split("\n").find((l) => l.trim()) ?? "").trim();
  const bare = line
    .replace(/^[#*_`\s]+|[*_`\s]+$/g, "")
    .replace(/^(title|标题)\s*[:：]\s*/i, "")
    .replace(/^["'“‘「《]+|["'”’」》]+$/g, "")
    .replace(/[.。]+$/, "")
    .trim();
  return [...bare].slice(0, TITLE_MAX_CHARS).join("");
}

/** Asks `provider` to name the exchange: its title, or undefined when the answer is no usable title; throws the provider's error. */
export async function modelTitle(provider: ProviderTarget, exchange: { asked: string; answered: string }): Promise<string | undefined> {
  const client = new ChatClient({ baseUrl: provider.baseUrl, apiKey: provider.apiKey, timeoutMs: TITLE_TIMEOUT_MS, retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 } });
  const result = await client.complete({
    model: provider.model,
    messages: [
      { role: "system", content: INSTRUCTION },
      { role: "user", content: `User: ${exchange.asked}\n\nAssistant: ${exchange.answered}` },
    ],
    max_tokens: TITLE_TOKENS,
  });
  return cleanTitle(typeof result.message.content === "string" ? result.message.content : "") || undefined;
}
