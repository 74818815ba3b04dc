/**
 * Distillation of one cold event into facts. The model is asked for strict JSON, validated with
 * zod; when no model is configured, it fails, or its answer does not validate, a deterministic
 * distillation keeps the verbatim text as one `event` fact — nothing is lost because a model
 * was down.
 */
import type { PrivateScope } from "./scope.ts";
import { z } from "zod";
import { TRIPLE_KINDS, type NewFact } from "./stable-facts.ts";

export const DistilledSchema = z.object({
  triples: z
    .array(
      z.object({
        subject: z.string().trim().min(1).max(200),
        predicate: z.string().trim().min(1).max(100),
        object: z.string().trim().min(1).max(2000),
        kind: z.enum(TRIPLE_KINDS),
        scope: z.enum(["user", "conversation"]).default("conversation"),
        confidence: z.number().min(0).max(1),
        importance: z.number().min(0).max(1),
      }),
    )
    .max(20),
});

export const DISTILL_SYSTEM_PROMPT = `You turn one message from a conversation into durable facts for long-term memory.
Answer with JSON only: {"triples":[{"subject","predicate","object","kind","scope","confidence","importance"}]}.
- kind: preference, decision, convention, entity, todo, correction or event.
- scope: "user" for facts about the person that hold everywhere, "conversation" for facts tied to this conversation.
- confidence and importance: numbers from 0 to 1.
- Use the speaker's name as subject for facts about them. Keep objects short and literal; copy names, numbers and dates exactly.
- If the message holds nothing worth remembering, answer {"triples":[]}.`;

export type ColdEventRow = {
  id: string;
  sessionId: string;
  seq: number;
  conversation: string;
  /** Facts distilled from a private event stay as private (DESIGN §3 Scopes). */
  privateTo?: PrivateScope | null;
  speaker: string | null;
  text: string;
  time: number;
};

/** Asks a model: system + user text in, the answer's text out. */
export type Ask = (system: string, user: string) => Promise<string>;

export type Distillation = { facts: NewFact[]; method: "model" | "fallback"; reason?: string };

function sourceOf(event: ColdEventRow) {
  return { session: event.sessionId, turn: event.seq, eventId: event.id, text: event.text };
}

/** The deterministic distillation: the speaker said the verbatim text. */
export function fallbackFacts(event: ColdEventRow): NewFact[] {
  return [
    {
      subject: event.speaker ?? "conversation",
      predicate: "said",
      object: event.text,
      kind: "event",
      scope: event.conversation,
      privateTo: event.privateTo ?? null,
      confidence: 1,
      importance: 0.3,
      evidence: "verbatim",
      source: sourceOf(event),
    },
  ];
}

/**
 * A model's fact is backed verbatim when its object is in the source's words (case and spacing
 * aside: "jasmine tea" in "I switched to jasmine tea"); otherwise the model summarised, and the
 * fact says "summary only" — the excerpt it keeps is the source, not the fact.
 */
export function verbatimIn(object: string, source: string): boolean {
  const squeeze = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
  return squeeze(source).includes(squeeze(object));
}

/** Reads a JSON object out of a model's answer, tolerating a ```json fence around it. */
function jsonOf(answer: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(answer);
  return JSON.parse((fenced?.[1] ?? answer).trim());
}

export async function distillEvent(event: ColdEventRow, ask?: Ask): Promise<Distillation> {
  if (!ask) return { facts: fallbackFacts(event), method: "fallback", reason: "no model configured" };
  const when = new Date(event.time).toISOString();
  let answer: string;
  try {
    answer = await ask(DISTILL_SYSTEM_PROMPT, `[${when}] ${event.speaker ?? "someone"}: ${event.text}`);
  } catch (error) {
    return { facts: fallbackFacts(event), method: "fallback", reason: `model failed: ${(error as Error).message}` };
  }
  let parsed: z.infer<typeof DistilledSchema>;
  try {
    const result = DistilledSchema.safeParse(jsonOf(answer));
    if (!result.success) return { facts: fallbackFacts(event), method: "fallback", reason: `invalid model JSON: ${result.error.issues[0]?.message}` };
    parsed = result.data;
  } catch (error) {
    return { facts: fallbackFacts(event), method: "fallback", reason: `model answer is not JSON: ${(error as Error).message}` };
  }
  // A model that found nothing still must not lose the message: keep it verbatim.
  if (parsed.triples.length === 0) return { facts: fallbackFacts(event), method: "model", reason: "model found no facts; kept verbatim" };
  return {
    method: "model",
    facts: parsed.triples.map((t) => ({
      ...t,
      scope: t.scope === "user" ? "user" : event.conversation,
      privateTo: event.privateTo ?? null,
      evidence: verbatimIn(t.object, event.text) ? ("verbatim" as const) : ("summary" as const),
      source: sourceOf(event),
    })),
  };
}

/** An `Ask` over an OpenAI-compatible chat client, asking for a JSON object answer. */
export function askWithChat(
  complete: (request: { model: string; messages: { role: "system" | "user"; content: string }[]; extra?: Record<string, unknown> }) => Promise<{ message: { content?: unknown } }>,
  model: string,
): Ask {
  return async (system, user) => {
    const result = await complete({
      model,
      messages: [
        { role: "system", content: system },
        { role: "user", content: user },
      ],
      extra: { response_format: { type: "json_object" } },
    });
    return typeof result.message.content === "string" ? result.message.content : "";
  };
}
