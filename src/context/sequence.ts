/**
 * Checks a message sequence against the providers' rule: every assistant tool call is
 * answered by a tool result before the next non-tool message, and every tool result answers
 * such an open call. Independent of how the sequence was built, so it can audit any render
 * (the CLI's stderr line, the property tests, the kernel before a request leaves).
 */
import type { ChatMessage } from "./messages.ts";
import { messageTokens } from "./tokens.ts";

export type SequenceReport = {
  messages: number;
  /** Tool calls made by assistant messages. */
  calls: number;
  /** Calls answered by a tool result before the next non-tool message. */
  answered: number;
  /** Calls never answered in time. */
  dangling: number;
  /** Tool results that answer no open call. */
  orphans: number;
  /** Sum of the messages' token estimates. */
  tokens: number;
};

export function inspectSequence(messages: readonly ChatMessage[]): SequenceReport {
  const report: SequenceReport = { messages: messages.length, calls: 0, answered: 0, dangling: 0, orphans: 0, tokens: 0 };
  let open = new Set<string>();
  for (const message of messages) {
    report.tokens += messageTokens(message);
    if (message.role === "tool") {
      if (open.delete(message.tool_call_id)) report.answered++;
      else report.orphans++;
      continue;
    }
    report.dangling += open.size;
    open = new Set();
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) {
        report.calls++;
        open.add(call.id);
      }
    }
  }
  report.dangling += open.size;
  return report;
}

/** The one-line summary `homed context render` prints on stderr. */
export function formatSequenceReport(r: SequenceReport): string {
  return `messages=${r.messages} calls=${r.calls} answered=${r.answered} dangling=${r.dangling} tokens=${r.tokens}`;
}
