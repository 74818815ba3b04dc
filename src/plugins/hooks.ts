/**
 * Stage hooks: plugins that declare a kernel stage in their manifest are asked, in start-up
 * order, what to do with that stage's payload — continue, replace it, or deny. Each answer
 * has a deadline: a plugin that misses it (or fails) is skipped with a logged reason and the
 * payload goes on unchanged, so a slow plugin delays a turn by at most its deadline.
 */
import { z } from "zod";

export const STAGES = ["on_input", "pre_action", "post_action", "before_toolcall", "after_toolcall", "before_output", "after_output"] as const;
export type Stage = (typeof STAGES)[number];

export const HookAnswerSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("continue") }),
  z.object({ action: z.literal("replace"), payload: z.unknown() }),
  z.object({ action: z.literal("deny"), reason: z.string().default("denied") }),
]);
export type HookAnswer = z.infer<typeof HookAnswerSchema>;

export type HookOutcome =
  | { denied: false; payload: unknown; skipped: { plugin: string; reason: string }[] }
  | { denied: true; by: string; reason: string; skipped: { plugin: string; reason: string }[] };

export type HookTarget = { plugin: string; ask: (stage: Stage, payload: unknown, deadlineMs: number) => Promise<unknown>; note: (line: string) => void };

/** Runs one stage through every target in order; never throws for a plugin's failure. */
export async function runStage(targets: readonly HookTarget[], stage: Stage, payload: unknown, deadlineMs: number): Promise<HookOutcome> {
  const skipped: { plugin: string; reason: string }[] = [];
  let current = payload;
  for (const target of targets) {
    let answer: HookAnswer;
    try {
      const parsed = HookAnswerSchema.safeParse(await target.ask(stage, current, deadlineMs));
      if (!parsed.success) throw new Error(`answer is not continue/replace/deny: ${parsed.error.issues[0]?.message}`);
      answer = parsed.data;
    } catch (error) {
      const reason = (error as Error).message;
      target.note(`hook ${stage} skipped: ${reason}`);
      skipped.push({ plugin: target.plugin, reason });
      continue;
    }
    if (answer.action === "deny") return { denied: true, by: target.plugin, reason: answer.reason, skipped };
    if (answer.action === "replace") current = answer.payload;
  }
  return { denied: false, payload: current, skipped };
}
