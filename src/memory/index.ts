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
export { writeFact, trigramOverlap, nearDuplicateObjects, sha256, factText, TRIPLE_KINDS, EXCERPT_MAX_CHARS, REVISIONS_KEPT, NEAR_DUPLICATE_OVERLAP, type NewFact, type TripleKind, type Evidence, type FactWrite } from "./stable-facts.ts";
export { distillEvent, fallbackFacts, askWithChat, DistilledSchema, DISTILL_SYSTEM_PROMPT, type Ask, type ColdEventRow, type Distillation } from "./distill.ts";
export { coolOnce, coolingCandidates, startCoolingJob, DEFAULT_COOLING, type CoolingConfig, type CoolingOptions, type CoolingRun } from "./cooling.ts";
export { openRecord, forgetRecord, resolveRecord, RecordError, type FactRecord, type EventRecord, type EvidenceCheck, type RecordRef } from "./records.ts";
export { stableQuery, importantFacts, type StableCandidate } from "./stable-query.ts";
export { InjectionConfigSchema, DEFAULT_INJECTION, type InjectionConfig } from "./injection-config.ts";
export { buildInjection, auditInjection, listInjections, recordCitations, shortId, BANDS, EVIDENCE_MARKS, type Injection, type InjectedLine, type AuditRecord, type Band } from "./injection.ts";
