/**
 * The plugin host: plugins as separate processes speaking MCP-compatible JSON-RPC. The protocol
 * itself (shared with the plugin SDK) is src/protocol; what the host's users take of it is passed on here.
 */
export {
  ErrorCode,
  RpcError,
  classify,
  FrameError,
  LineFramer,
  encodeFrame,
  DEFAULT_MAX_FRAME_BYTES,
  StreamTransport,
  MemoryTransport,
  Peer,
  MODERN_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  META,
  STAGES,
  MAX_HOOK_DEADLINE_MS,
  HookAnswerSchema,
  SegmentChannel,
  SegmentError,
  PayloadRefSchema,
  DEFAULT_RING_BYTES,
  BULK_MIN_BYTES,
  INLINE_MAX_BYTES,
  contentPart,
  type Message,
  type Request,
  type Notification,
  type Response,
  type Transport,
  type PeerOptions,
  type RequestHandler,
  type Stage,
  type HookAnswer,
  type StagePayloads,
  type StageAnswers,
  type PayloadRef,
  type Role,
  type BulkSink,
} from "../protocol/index.ts";
export {
  McpClient,
  ManifestSchema,
  CallToolResultSchema,
  type Tool,
  type CallToolResult,
  type Manifest,
  type Session,
} from "./mcp-client.ts";
export { LogRing } from "./log-ring.ts";
export { PluginSpecSchema, PluginLimitsSchema, childEnvironment, pluginTargetProblem, type PluginSpec, type PluginSpecInput, type PluginLimits } from "./spec.ts";
export { PluginChild, type Exit, type Dropped, type ChildOptions } from "./child.ts";
export { openPlugin, type PluginConnection } from "./connection.ts";
export { StreamableHttpTransport } from "./http-transport.ts";
export { DEFAULT_INTAKE_LIMITS, type IntakeLimits } from "./intake.ts";
export { systemClock, ManualClock, type Clock } from "./clock.ts";
export { startupDependencies, startupWaves, StartupOrderError, type Declared } from "./order.ts";
export {
  Supervisor,
  CRASH_WINDOW_MS,
  MAX_CRASHES_IN_WINDOW,
  type PluginRequestHandler,
  type PluginNotificationListener,
  type PluginState,
  type PluginStatus,
  type Report,
  type ReportLevel,
} from "./supervisor.ts";
export { createPluginHost, PluginError, DEFAULT_HOOK_DEADLINE_MS, RECENT_EVENTS, type PluginHost, type PluginHostOptions, type HostedTool, type PushedEvent } from "./host.ts";
export { sweepStaleSegments, type SharedAccess } from "./shared-link.ts";
export { loadExternalPlugins, type LoadedPlugins } from "./external.ts";
export { runStage, HookFailedError, MAX_INJECT_CHARS, type HookOutcome, type Injection } from "./hooks.ts";
export { resolveBulk } from "./bulk.ts";
// A plain rate limiter the server's login throttle shares with the plugins' intake.
export { TokenBucket } from "./token-bucket.ts";
