/**
 * Stage hooks: plugins that declare a kernel stage in their manifest are asked, in start-up
 * order, what to do with that stage's payload. Each stage has its own answers (the seed's
 * table): `on_input` may deny (blocklist, rate limit), rewrite or reply without the model;
 * `pre_action` may inject external data; `post_action`, `after_toolcall` and `before_output`
 * may replace their payload; `before_toolcall` may deny or rewrite; `after_output` may report
 * statistics. Each answer has a deadline: a plugin that misses it (or fails, or answers what its
 * stage does not take) is skipped with a logged reason and the payload goes on unchanged — unless
 * the plugin declared `hookFailure: "fail"` (an audit that must see every call): then the stage
 * fails, and with it the turn.
 */
import { HookAnswerSchema, type Action, type HookAnswer, type Stage } from "../protocol/index.ts";

/** Injected text per plugin and turn; the rest is cut with a note (it fills the model's window). */
export const MAX_INJECT_CHARS = 8000;

/** What each stage takes: any other answer is skipped (and logged), never half-applied. */
const ANSWERS: Record<Stage, readonly Action[]> = {
  on_input: ["continue", "deny", "replace", "reply"],
  pre_action: ["continue", "inject"],
  post_action: ["continue", "replace"],
  before_toolcall: ["continue", "deny", "replace"],
  after_toolcall: ["continue", "replace"],
  before_output: ["continue", "replace"],
  after_output: ["continue", "report"],
};

export type Skipped = { plugin: string; reason: string };
export type Injection = { plugin: string; text: string; report?: Record<string, unknown> };
/**
 * A stage's result. `reply` (on_input) ends the chain like a deny; injections (pre_action) and
 * reports (after_output) are gathered from every plugin. The optional fields are present only
 * when some plugin gave one.
 */
export type HookOutcome =
  | { denied: false; payload: unknown; skipped: Skipped[]; reply?: { by: string; text: string }; injections?: Injection[]; reports?: { plugin: string; report: Record<string, unknown> }[] }
  | { denied: true; by: string; reason: string; skipped: Skipped[] };

export type HookTarget = {
  plugin: string;
  ask: (stage: Stage, payload: unknown, deadlineMs: number) => Promise<unknown>;
  note: (line: string) => void;
  /** The plugin's own deadline (its manifest's `hookDeadlineMs`), else the stage's. */
  deadlineMs?: number;
  /** `fail`: this plugin's failure fails the stage (HookFailedError) instead of skipping it. */
  onFailure?: "continue" | "fail";
};

/** A plugin whose hooks must not be skipped failed: the turn must not go on without it. */
export class HookFailedError extends Error {
  constructor(
    readonly plugin: string,
    readonly stage: Stage,
    reason: string,
  ) {
    super(`plugin ${plugin} failed at ${stage} and its failure policy is fail: ${reason}`);
    this.name = "HookFailedError";
  }
}

/** Runs one stage through every target in order; throws only for a plugin whose policy is `fail`. */
export async function runStage(targets: readonly HookTarget[], stage: Stage, payload: unknown, deadlineMs: number): Promise<HookOutcome> {
  const skipped: Skipped[] = [];
  const injections: Injection[] = [];
  const reports: { plugin: string; report: Record<string, unknown> }[] = [];
  const gathered = () => ({ ...(injections.length ? { injections } : {}), ...(reports.length ? { reports } : {}) });
  let current = payload;
  for (const target of targets) {
    let answer: HookAnswer;
    try {
      const parsed = HookAnswerSchema.safeParse(await target.ask(stage, current, target.deadlineMs ?? deadlineMs));
      if (!parsed.success) throw new Error(`answer is not one of continue/replace/deny/reply/inject/report: ${parsed.error.issues[0]?.message}`);
      if (!ANSWERS[stage].includes(parsed.data.action)) throw new Error(`${stage} takes ${ANSWERS[stage].join("/")}, not ${parsed.data.action}`);
      answer = parsed.data;
    } catch (error) {
      const reason = (error as Error).message;
      target.note(`hook ${stage} skipped: ${reason}`);
      if (target.onFailure === "fail") throw new HookFailedError(target.plugin, stage, reason);
      skipped.push({ plugin: target.plugin, reason });
      continue;
    }
    if (answer.action === "deny") return { denied: true, by: target.plugin, reason: answer.reason, skipped };
    if (answer.action === "reply") return { denied: false, payload: current, skipped, reply: { by: target.plugin, text: answer.text }, ...gathered() };
    if (answer.action === "replace") current = answer.payload;
    if (answer.action === "inject") injections.push({ plugin: target.plugin, text: cut(answer.text), ...(answer.report ? { report: answer.report } : {}) });
    if (answer.action === "report") reports.push({ plugin: target.plugin, report: answer.report });
  }
  return { denied: false, payload: current, skipped, ...gathered() };
}

const cut = (text: string) => (text.length > MAX_INJECT_CHARS ? `${text.slice(0, MAX_INJECT_CHARS)}… (${text.length - MAX_INJECT_CHARS} more chars cut)` : text);
