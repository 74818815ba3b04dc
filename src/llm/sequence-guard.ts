/**
 * The last check before a request leaves for a provider: every assistant tool_call must be
 * answered by a tool message before the next user/assistant message (DeepSeek, OpenAI and
 * others answer HTTP 400 otherwise). A violation is a bug upstream: in tests (`throw`) it fails
 * loudly; in production (`repair`) it is repaired — an unanswered call gets a synthetic
 * "interrupted" result, a result that answers no call is dropped — and logged, never sent broken.
 */
import type { ProviderMessage } from "./types.ts";
import { HomedError } from "../errors/index.ts";

export type SequenceGuardMode = "throw" | "repair";

export class SequenceViolationError extends HomedError {
  constructor(readonly repairs: string[]) {
    super("sequence_violation", `Cannot send the request: the message sequence breaks the tool-call rule: ${repairs.join("; ")}`);
    this.name = "SequenceViolationError";
  }
}

export const INTERRUPTED_RESULT = JSON.stringify({
  error: "interrupted",
  message: "This tool call was interrupted before it returned a result.",
});

/** Returns a sequence that obeys the rule, and what had to change to get there. */
export function repairSequence(messages: readonly ProviderMessage[]): { messages: ProviderMessage[]; repairs: string[] } {
  const out: ProviderMessage[] = [];
  const repairs: string[] = [];
  let open: string[] = [];
  const closeOpen = (before: string) => {
    for (const id of open) {
      out.push({ role: "tool", tool_call_id: id, content: INTERRUPTED_RESULT });
      repairs.push(`tool call ${id} unanswered before ${before}: answered as interrupted`);
    }
    open = [];
  };
  messages.forEach((message, i) => {
    if (message.role === "tool") {
      const at = open.indexOf(message.tool_call_id);
      if (at === -1) {
        repairs.push(`messages[${i}]: tool result for ${message.tool_call_id} answers no open call: dropped`);
        return;
      }
      open.splice(at, 1);
      out.push(message);
      return;
    }
    closeOpen(`messages[${i}]`);
    out.push(message);
    if (message.role === "assistant") open = (message.tool_calls ?? []).map((c) => c.id);
  });
  closeOpen("the end");
  return { messages: out, repairs };
}

/** Checks a request's messages; throws or repairs per `mode`. `onRepair` hears what changed. */
export function guardSequence(messages: ProviderMessage[], mode: SequenceGuardMode, onRepair: (repairs: string[]) => void = () => {}): ProviderMessage[] {
  // One walk finds and fixes: no repairs means the sequence was valid and goes out unchanged.
  const repaired = repairSequence(messages);
  if (repaired.repairs.length === 0) return messages;
  if (mode === "throw") throw new SequenceViolationError(repaired.repairs);
  onRepair(repaired.repairs);
  return repaired.messages;
}
