/**
 * The kernel stages a plugin may hook, the answers a hook gives and the payloads it receives, as
 * both ends of the conversation read them: the host (src/plugins/hooks.ts) and the plugin SDK.
 */
import { z } from "zod";

export const STAGES = ["on_input", "pre_action", "post_action", "before_toolcall", "after_toolcall", "before_output", "after_output"] as const;
export type Stage = (typeof STAGES)[number];

/** A hook's deadline may be set by the plugin up to this: a hook is on the path of every turn. */
export const MAX_HOOK_DEADLINE_MS = 10_000;

export const HookAnswerSchema = z.discriminatedUnion("action", [
  z.object({ action: z.literal("continue") }),
  z.object({ action: z.literal("replace"), payload: z.unknown() }),
  z.object({ action: z.literal("deny"), reason: z.string().default("denied") }),
  z.object({ action: z.literal("reply"), text: z.string() }),
  z.object({ action: z.literal("inject"), text: z.string(), report: z.record(z.string(), z.unknown()).optional() }),
  z.object({ action: z.literal("report"), report: z.record(z.string(), z.unknown()) }),
]);
export type HookAnswer = z.infer<typeof HookAnswerSchema>;
export type Action = HookAnswer["action"];

// The payloads as a plugin receives them (JSON), typed for the SDK.
type Turn = { sessionId: string; channel: string; partner: string; turnId: string };
export type WireToolCall = { id: string; type?: "function"; function: { name: string; arguments: string } };
export type WireAssistantMessage = { role: "assistant"; content: string | null | unknown[]; tool_calls?: WireToolCall[]; [key: string]: unknown };
export type StagePayloads = {
  on_input: Turn & { input: string };
  pre_action: Turn & { input: string };
  post_action: Turn & { message: WireAssistantMessage; iteration: number };
  before_toolcall: Turn & { call: WireToolCall };
  after_toolcall: Turn & { call: WireToolCall; result: string };
  before_output: Turn & { text: string };
  after_output: Turn & { text: string; stopReason: string; iterations: number; toolCalls: number; tools: string[]; ms: number };
};
type Answer<A extends Action> = Extract<HookAnswer, { action: A }>;
type Replace<S extends Stage> = { action: "replace"; payload: StagePayloads[S] };
/** The answers each stage takes, typed for the SDK. */
export type StageAnswers = {
  on_input: Answer<"continue"> | { action: "deny"; reason?: string } | Replace<"on_input"> | Answer<"reply">;
  pre_action: Answer<"continue"> | { action: "inject"; text: string; report?: Record<string, unknown> };
  post_action: Answer<"continue"> | Replace<"post_action">;
  before_toolcall: Answer<"continue"> | { action: "deny"; reason?: string } | Replace<"before_toolcall">;
  after_toolcall: Answer<"continue"> | Replace<"after_toolcall">;
  before_output: Answer<"continue"> | Replace<"before_output">;
  after_output: Answer<"continue"> | Answer<"report">;
};
