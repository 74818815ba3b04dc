/**
 * A chat turn's event with secrets masked before it is written to L1 (issue 15: secrets are
 * never stored as memory — an L1 event sinks into L2 and is kept for good). Text content, text
 * parts and tool-call arguments are masked; image URLs are not text and stay. Arguments stay
 * valid JSON: each string value is masked with its key in view (so `{"password": "…"}` is
 * caught), and a number that is a card number becomes the marker string.
 */
import { maskSecrets, mergeMasked, type MaskedSecret } from "../text/index.ts";
import type { ChatMessage, Content, ContextEvent } from "./messages.ts";

export function maskEventSecrets(event: ContextEvent): { event: ContextEvent; masked: MaskedSecret[] } {
  const masked: MaskedSecret[] = [];
  const mask = (text: string) => {
    const r = maskSecrets(text);
    mergeMasked(masked, r.masked);
    return r.text;
  };
  const content = (c: Content): Content => (typeof c === "string" ? mask(c) : c.map((p) => (p.type === "text" ? { ...p, text: mask(p.text) } : p)));
  const json = (value: unknown, key?: string): unknown => {
    if (typeof value === "string") {
      if (key === undefined) return mask(value);
      // With its key in view, then the key taken off again: `password=…` is a pair the rules know.
      return mask(`${key}=${value}`).slice(key.length + 1);
    }
    if (typeof value === "number") {
      const r = maskSecrets(String(value));
      return r.masked.length > 0 ? mask(String(value)) : value;
    }
    if (Array.isArray(value)) return value.map((v) => json(v));
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, json(v, k)]));
    return value;
  };
  const found = () => masked.reduce((n, m) => n + m.count, 0);
  // Arguments with nothing to mask keep their exact text (re-serialising would reformat them).
  const args = (text: string) => {
    const before = found();
    let out: string;
    try {
      out = JSON.stringify(json(JSON.parse(text)));
    } catch {
      out = mask(text);
    }
    return found() === before ? text : out;
  };
  const messages = event.messages.map((m): ChatMessage => {
    if (m.role !== "assistant") return { ...m, content: content(m.content) } as ChatMessage;
    return {
      ...m,
      ...(m.content == null ? {} : { content: content(m.content) }),
      ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ ...c, function: { ...c.function, arguments: args(c.function.arguments) } })) } : {}),
    };
  });
  return masked.length > 0 ? { event: { ...event, messages }, masked } : { event, masked };
}
