/**
 * The plugin protocol: what the kernel's plugin host (src/plugins) and the plugin SDK (plugins/sdk)
 * both speak — JSON-RPC over framed stdio, MCP's versions and `_meta` keys, the stage hooks'
 * payloads and answers, the shared segment and its bulk content parts. A leaf: it imports nothing
 * of homed but src/errors, so a plugin process loads none of the host.
 */
export { ErrorCode, RpcError, classify, type Message, type Request, type Notification, type Response, type RequestId } from "./jsonrpc.ts";
export { FrameError, type Transport } from "./transport.ts";
export { LineFramer, encodeFrame, DEFAULT_MAX_FRAME_BYTES } from "./framing.ts";
export { StreamTransport } from "./stream-transport.ts";
export { MemoryTransport } from "./memory-transport.ts";
export { Peer, type PeerOptions, type RequestHandler } from "./peer.ts";
export { MODERN_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS, META } from "./mcp.ts";
export {
  STAGES,
  MAX_HOOK_DEADLINE_MS,
  HookAnswerSchema,
  type Stage,
  type Action,
  type HookAnswer,
  type StagePayloads,
  type StageAnswers,
  type WireToolCall,
  type WireAssistantMessage,
} from "./stages.ts";
export { SegmentChannel, SegmentError, PayloadRefSchema, DEFAULT_RING_BYTES, type PayloadRef, type Role } from "./segment.ts";
export { BULK_MIN_BYTES, INLINE_MAX_BYTES, contentPart, fieldOf, type BulkSink, type Part } from "./bulk-part.ts";
export {
  CHANNEL_METHODS,
  PeerIdSchema,
  ChannelImageSchema,
  ChannelAudioSchema,
  InboundMessageSchema,
  InboundAnswerSchema,
  AnswerDeltaSchema,
  DeliverySchema,
  DeliveredSchema,
  ChannelReportSchema,
  type ChannelImage,
  type ChannelAudio,
  type InboundMessage,
  type InboundAnswer,
  type AnswerDelta,
  type Delivery,
} from "./channel.ts";
