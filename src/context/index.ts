export {
  ChatMessageSchema,
  ContextEventSchema,
  ToolCallSchema,
  ContentSchema,
  groupProblems,
  withoutAudio,
  type AudioPart,
  contentText,
  messageText,
  eventText,
  type ChatMessage,
  type ContextEvent,
  type ToolCall,
  type Content,
} from "./messages.ts";
export { messageTokens, eventTokens, MESSAGE_OVERHEAD, TOOL_CALL_OVERHEAD, IMAGE_TOKENS } from "./tokens.ts";
export { inspectSequence, formatSequenceReport, type SequenceReport } from "./sequence.ts";
export { renderUnderBudget, RUNAWAY_SHARE, type RenderableEvent, type RenderResult } from "./render.ts";
export { parseContextDump, toRenderable, ContextDumpError } from "./dump.ts";
export { relevance, queryTfidf, type Vectors, type Query } from "./score.ts";
export {
  planPrune,
  pinnedCount,
  overflowRatio,
  formatOverflowCheck,
  OVERFLOW_THRESHOLD,
  DEFAULT_PINNED,
  type PrunePlan,
  type PrunableEvent,
} from "./prune.ts";
export { writeL1Event, loadL1Events, exportContextDump, sinkToL2, eventBlocks, type WriteL1Input, type L1Row, type NewBlock } from "./l1-store.ts";
export { maskEventSecrets } from "./mask-event.ts";
export { createContextEngine, type ContextEngine, type ContextEngineOptions } from "./engine.ts";
export { runContextCommand, CONTEXT_USAGE } from "./render-command.ts";
