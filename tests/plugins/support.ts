/** Helpers for plugin tests. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ReceivedRequest, Step } from "../support/scripted-provider.ts";

export const FIXTURES = join(import.meta.dirname, "fixtures");

/** True while `pid` is a live process; a zombie (killed, not yet reaped) counts as gone. */
export function isRunning(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  return !/^\d+ \(.*\) Z /.test(stat);
}

/**
 * Waits until `pid` is gone, checking every few milliseconds up to `withinMs`: a killed
 * process disappears only once its parent (or init) reaps it, which takes a moment.
 */
export async function gone(pid: number, withinMs = 5000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (isRunning(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  return !isRunning(pid);
}

/** The text of the last user message of a request the scripted provider got. */
export const userText = (r: ReceivedRequest) => {
  const content = [...r.body.messages].reverse().find((m: any) => m.role === "user")?.content;
  return typeof content === "string" ? content : (content ?? []).map((p: any) => p.text ?? "").join("");
};
/** "TOOL <name> <json>" in the input: the model calls that tool, then says what it answered; else it echoes. */
export function toolOrEcho(r: ReceivedRequest, n: number): Step {
  const last = r.body.messages.at(-1);
  if (last?.role === "tool") return { content: `tool said: ${last.content}` };
  const asked = /TOOL (\S+) (\{.*\})/s.exec(userText(r));
  if (asked) return { toolCalls: [{ id: `call_${n}`, name: asked[1]!, arguments: asked[2]! }] };
  return { content: `echo: ${userText(r)}` };
}
