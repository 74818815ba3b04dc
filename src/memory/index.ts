/** Cold context (L2) and hybrid recall: the door of src/memory. */
export { coldEventId, coldSessionId, type ColdMessage } from "./cold-event.ts";
export { CHANNELS, type Channel } from "./channels.ts";
export { fuseRrf, RRF_K, type Fused, type ChannelHit } from "./fusion.ts";
export { coldcontextQuery, type Candidate, type QueryOptions } from "./query.ts";
export { coldcontextRecall, RecallError, type RecalledEvent } from "./recall.ts";
export { parseHistory, type ParsedHistory, type InvalidLine } from "./import-format.ts";
export { importHistory, type ImportResult, type ImportProgress } from "./import.ts";
export type { RecallScope } from "./scope.ts";
export { runImportCommand } from "./import-command.ts";
export { runRecallCommand } from "./recall-command.ts";
export type { CommandIo } from "./command-io.ts";
