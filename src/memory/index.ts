/** Cold context (L2) and hybrid recall: the door of src/memory. */
export { coldEventId, coldSessionId, type ColdMessage } from "./cold-event.ts";
export { CHANNELS, type Channel } from "./channels.ts";
export {
  fuse,
  fuseRrf,
  fuseCoverage,
  fuseLinear,
  matchesOf,
  COVERAGE_WEIGHT,
  MATCH_FLOOR,
  fusionMethod,
  bestLexicalScore,
  FUSION_METHODS,
  type FusionMethod,
  RRF_K,
  configureFusion,
  FusionConfigSchema,
  DEFAULT_WEIGHTS,
  EQUAL_WEIGHTS,
  VECTOR_WEIGHT,
  type ChannelWeights,
  type Fused,
  type ChannelHit,
} from "./fusion.ts";
export { coldcontextQuery, type Candidate, type QueryOptions } from "./query.ts";
export { recallQuery, type RecallQuery } from "./recall-query.ts";
export { coldcontextRecall, RecallError, type RecalledEvent } from "./recall.ts";
export { restoreColdTurns, type RestoreOutcome } from "./restore-turns.ts";
export { parseUpload, chatGptMessages, claudeMessages, UPLOAD_FORMATS, type ParsedUpload, type UploadFormat, type InvalidEntry } from "./import-exports.ts";
export { parseHistory, historyLines, parseHistoryLine, type ParsedHistory, type InvalidLine } from "./import-format.ts";
export { importHistory, type ImportResult, type ImportProgress, type ImportMessage } from "./import.ts";
export { startImportAnalysis, AnalysisHere, AnalysisInWorker, WORKER_FROM, type ImportAnalysis, type AnalysisInput } from "./import-analysis.ts";
export { cleanAbandonedImports } from "../store/index.ts";
export type { RecallScope, Viewer, PrivateScope } from "./scope.ts";
export { OWNER, partnerAccess, partnerOf, narrowedPartner, maySeeMemory, maySeeSession, sessionPartnersOf, privateScopesOf, type Access } from "./access.ts";
export { MemoryScopeSchema, privateToOf, visibleScopes } from "./scope.ts";
export { openDataStore, openDataEmbedder, type CommandIo } from "./command-io.ts";
export {
  writeFact,
  trigramOverlap,
  nearDuplicateObjects,
  sha256,
  factText,
  TRIPLE_KINDS,
  EXCERPT_MAX_CHARS,
  REVISIONS_KEPT,
  NEAR_DUPLICATE_OVERLAP,
  type NewFact,
  type TripleKind,
  type Evidence,
  type FactWrite,
} from "./stable-facts.ts";
export { distillEvent, fallbackFacts, askWithChat, DistilledSchema, DISTILL_SYSTEM_PROMPT, type Ask, type ColdEventRow, type Distillation } from "./distill.ts";
export { coolOnce, coolingCandidates, startCoolingJob, COOLING_JOB, DEFAULT_COOLING, CoolingConfigSchema, type CoolingConfig, type CoolingOptions, type CoolingRun } from "./cooling.ts";
export { openRecord, forgetRecord, resolveRecord, RecordError, type FactRecord, type EventRecord, type EvidenceCheck, type RecordRef } from "./records.ts";
export { stableQuery, importantFacts, type StableCandidate } from "./stable-query.ts";
export { queryCoverage } from "./query-coverage.ts";
export { InjectionConfigSchema, DEFAULT_INJECTION, minScoreOf, type InjectionConfig } from "./injection-config.ts";
export {
  buildInjection,
  injectionOf,
  isConfident,
  auditInjection,
  listInjections,
  recordCitations,
  shortId,
  BANDS,
  EVIDENCE_MARKS,
  type Injection,
  type InjectedLine,
  type AuditRecord,
  type Band,
} from "./injection.ts";
export { MEMORY_TOOLS, runMemoryTool, MemoryToolError, type MemoryTool, type MemoryToolContext } from "./tools.ts";
export {
  observeScene,
  declareScene,
  activeScene,
  listScenes,
  similarity,
  declaredFeatures,
  decayedStrength,
  timeOfDay,
  SCENE_WEIGHTS,
  DEFAULT_SCENES,
  type Scene,
  type SceneConfig,
  type Fingerprint,
  type Observation,
} from "./scenes.ts";
