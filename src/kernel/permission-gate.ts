/**
 * Asks a person before the model acts on their machine. A client that can ask (an editor over
 * ACP) registers an asker for the session of the turn it sends; while it is registered, every
 * call to a tool that runs commands — the shell and terminal plugins' — waits for the answer at
 * `before_toolcall`, and a refusal (or no answer in time) becomes the call's denial, which the
 * model reads. Turns without an asker (the console, `/v1`, channels) are unchanged: those tools
 * are off until homed.json enables them, which is that person's consent.
 */
import type { ToolCall } from "../llm/index.ts";
import type { Participant } from "./stages.ts";

/** Tools that run commands as the user: the shell and terminal plugins' (also when namespaced). */
export const ACTS_ON_MACHINE = /^(shell|terminal)_/;

/** What the asker says: allowed, or refused with the reason the model will read. */
export type PermissionAnswer = { allow: true } | { allow: false; reason: string };
export type PermissionAsker = (call: ToolCall, signal: AbortSignal) => Promise<PermissionAnswer>;

/** A person's answer can take a while; a turn nobody answers is not held forever. */
export const PERMISSION_WAIT_MS = 10 * 60_000;

export class PermissionGate {
  private readonly askers = new Map<string, PermissionAsker>();

  readonly participant: Participant;

  constructor(waitMs = PERMISSION_WAIT_MS) {
    this.participant = {
      name: "permission",
      // Over the wait: the hook ends itself with a denial first, so a missed deadline never lets a call through.
      deadlineMs: waitMs + 5_000,
      onFailure: "fail",
      hooks: {
        before_toolcall: async ({ sessionId, call }) => {
          const asker = this.askers.get(sessionId);
          if (!asker || !ACTS_ON_MACHINE.test(call.function.name)) return;
          const timeout = AbortSignal.timeout(waitMs);
          const answer = await Promise.race([
            asker(call, timeout),
            new Promise<PermissionAnswer>((resolve) => timeout.addEventListener("abort", () => resolve({ allow: false, reason: `no answer within ${Math.round(waitMs / 1000)} s` }))),
          ]);
          return answer.allow ? undefined : { deny: `The user did not allow ${call.function.name}: ${answer.reason}` };
        },
      },
    };
  }

  /** Registers `asker` for the session's turns until the returned function is called. */
  register(sessionId: string, asker: PermissionAsker): () => void {
    this.askers.set(sessionId, asker);
    return () => {
      if (this.askers.get(sessionId) === asker) this.askers.delete(sessionId);
    };
  }
}
