export { Kernel, NoProviderError, DEFAULT_SYSTEM_PROMPT, KernelConfigSchema, type KernelConfig, type KernelOptions, type TurnRequest, type ToolResult } from "./kernel.ts";
export { Sessions, type Session, type Deleted, type TurnFailure } from "./sessions.ts";
export {
  ProviderStore,
  ProviderInputSchema,
  BaseUrlSchema,
  ApiKeySchema,
  ProviderNotFound,
  type ProviderInput,
  type ProviderView,
  type ProviderTarget,
  type ProviderEnv,
  type AudioUse,
} from "./providers.ts";
export { ToolRegistry, toolError, toolSpecTokens, type Tool, type ToolCallContext, type ToolSource } from "./tools.ts";
export { STAGES, StageError, runHook, type StageName, type Participant, type Hooks, type StopReason, type TurnInfo } from "./stages.ts";
export { runTurn, type TurnEvent, type TurnResult, type TurnOptions, type TurnInput, type PausedRound, type ImagePart } from "./turn.ts";
export { memoryParticipant, type MemoryParticipantOptions } from "./memory-participant.ts";
export { pluginTools, pluginParticipant } from "./plugin-bridge.ts";
export { pluginEventInbox, kernelWake, outboundSource, WAKE_INTERVAL_MS, type ProactiveOptions, type WakeMutes } from "./plugin-events.ts";
export { ProactiveMutes, type Mutes, type MuteTarget } from "./proactive-mutes.ts";
export { ProactiveConfigSchema, type ProactiveConfig } from "./proactive-config.ts";
export { Outbound, type OutboundMessage, type OutboundSink, type OutboundSource } from "./outbound.ts";
export { ACTS_ON_MACHINE, PermissionGate, type PermissionAnswer, type PermissionAsker } from "./permission-gate.ts";
export { hearVoice, checkVoiceSize, voiceLine, VOICE_MAX_BYTES, VoiceTooLarge, type VoiceInput, type HeardVoice } from "./voice.ts";
