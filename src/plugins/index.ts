/** The plugin host: plugins as separate processes speaking MCP-compatible JSON-RPC. */
export { ErrorCode, RpcError, classify, type Message, type Request, type Notification, type Response } from "./jsonrpc.ts";
export { FrameError, type Transport } from "./transport.ts";
export { LineFramer, encodeFrame, DEFAULT_MAX_FRAME_BYTES } from "./framing.ts";
export { StreamTransport } from "./stream-transport.ts";
export { MemoryTransport } from "./memory-transport.ts";
export { Peer, type PeerOptions, type RequestHandler } from "./peer.ts";
export {
  McpClient,
  MODERN_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  META,
  ManifestSchema,
  CallToolResultSchema,
  type Tool,
  type CallToolResult,
  type Manifest,
  type Session,
} from "./mcp-client.ts";
export { LogRing } from "./log-ring.ts";
export { PluginSpecSchema, childEnvironment, type PluginSpec, type PluginSpecInput } from "./spec.ts";
export { PluginChild, type Exit, type Dropped } from "./child.ts";
export { DEFAULT_INTAKE_LIMITS, type IntakeLimits } from "./intake.ts";
export { systemClock, ManualClock, type Clock } from "./clock.ts";
export { startupDependencies, startupWaves, StartupOrderError, type Declared } from "./order.ts";
export { Supervisor, CRASH_WINDOW_MS, MAX_CRASHES_IN_WINDOW, type PluginState, type PluginStatus, type Report, type ReportLevel } from "./supervisor.ts";
export { createPluginHost, PluginError, DEFAULT_HOOK_DEADLINE_MS, RECENT_EVENTS, type PluginHost, type PluginHostOptions, type HostedTool, type PushedEvent } from "./host.ts";
export { SegmentChannel, SegmentError, PayloadRefSchema, DEFAULT_RING_BYTES, type PayloadRef, type Role } from "./segment.ts";
export { sweepStaleSegments, type SharedAccess } from "./shared-link.ts";
export { loadExternalPlugins, type LoadedPlugins } from "./external.ts";
export {
  STAGES,
  runStage,
  HookAnswerSchema,
  HookFailedError,
  MAX_HOOK_DEADLINE_MS,
  MAX_INJECT_CHARS,
  type Stage,
  type HookAnswer,
  type HookOutcome,
  type StagePayloads,
  type StageAnswers,
  type Injection,
} from "./hooks.ts";
export { BULK_MIN_BYTES, INLINE_MAX_BYTES, contentPart, resolveBulk, type BulkSink } from "./bulk.ts";
