export { ChatClient, type ChatClientOptions, type CallOptions } from "./client.ts";
export { ProviderError, PROVIDER_ERROR_CODES, type ProviderErrorCode } from "./errors.ts";
export { PROVIDER_PRESETS, presetById, type ProviderPreset } from "./presets.ts";
export { quirksFor, applyQuirks, type ModelQuirks, type ReasoningPolicy } from "./quirks.ts";
export { DEFAULT_RETRY, backoffDelay, type RetryPolicy } from "./retry.ts";
export { guardSequence, repairSequence, SequenceViolationError, INTERRUPTED_RESULT, type SequenceGuardMode } from "./sequence-guard.ts";
export { ToolCallAssembler, type ToolCallDelta } from "./tool-call-assembler.ts";
export type { AssistantMessage, ProviderMessage, ToolSpec, ChatRequest, ChatResult, StreamDelta, Usage, ToolCall, ChatMessage } from "./types.ts";
