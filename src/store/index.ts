export { openStore, isEmbeddedUrl, type Store, type StoreOptions, type Db } from "./open.ts";
export { databasePath } from "./write-lock.ts";
export { DatabaseOpenError, redactDbUrl } from "./server-errors.ts";
export { takeLease, releaseLease, leaseHolderId } from "./job-lease.ts";
export { migrate, migrationStatus, SchemaMismatchError, type Migration, type MigrationStatus } from "./migrate.ts";
export { MIGRATIONS } from "./migrations/index.ts";
export { VECTOR_DIM } from "./vector.ts";
export { ensureVectorSpace, findVectorSpace, vectorCoverage, INDEX_FROM_VECTORS, type VectorSpace } from "./vector-spaces.ts";
export { mergeInserts } from "./merge-inserts.ts";
export { insertBlock, nodeBlockId, type NewBlockRow } from "./blocks-table.ts";
export { insertBlockBytes, audioBlock, heardTranscripts, type AudioBlock } from "./audio-blocks.ts";
export { factBm25Rows, factVectorRows, factListings, importantFactListings, type FactVisibility, type FactListing } from "./fact-search.ts";
export {
  recordsWithId,
  recordsEndingIn,
  eventRecordRow,
  eventTextById,
  factRecordRow,
  factRevisions,
  deleteFactRows,
  deleteEventRows,
  type RecordKind,
  type EventRecordRow,
  type FactRecordRow,
} from "./memory-records.ts";
export { allSceneRows, sceneRowsSeen, sceneByKey, insertScene, insertSceneCandidate, updateScene, dropStaleSceneCandidates, type SceneRow } from "./scenes-table.ts";
export { coolingCandidateRows, moveEventToL3, type ColdEventRecord } from "./events-table.ts";
export { liveTfidfJson, nextSeq, eventTextAt, insertEvent, insertEventStatements, liveEvents, sinkEvents, type NewEventRow, type LiveEventRow } from "./events-table.ts";
export { sessionTimeline, fileLiveEventsInScene, setEventPrivateTo, eventsByIds, listEvents, layerTotals, writtenPerDay, type TimelineRow, type EventRow, type EventFilter } from "./events-table.ts";
export { factsOfSubject, insertTriple, reaffirmFact, reviseFact, setFactVector, keepRevision, type NewTripleRow } from "./triples-table.ts";
export { listFacts, tripleCount, setFactPrivateTo, factUse, type FactRow, type FactFilter, type FactUse } from "./triples-table.ts";
export { vectorCoverageByLayer, eventWithVector, duplicateFacts, auditedIds, coolingBacklog, leaseOf, storagePath, type VectorCoverageByLayer } from "./memory-health.ts";
export { memoryTotals, randomFactId, randomColdEvent, blocksHeldElsewhere, type HealthViewer } from "./memory-health.ts";
export { coldEventPage, factPage } from "./memory-listing.ts";
export { markSourceGone } from "./fact-evidence.ts";
export { standingColdEvents, type StandingColdEvent } from "./standing-cold.ts";
export { coldTurnOf, type ColdTurnEvent } from "./cold-turns.ts";
export { databaseBytes } from "./database-size.ts";
export { sessionExists, openSession, openContextSession, startSession, deleteSession, sessionById, listSessions, renameSession, touchSession, type SessionRow } from "./sessions-table.ts";
export { readSetting, writeSetting, deleteSetting } from "./settings-table.ts";
export { sealedSecret, hasSecret, putSecret, deleteSecret } from "./secrets-table.ts";
export type { Executor } from "./query-db.ts";
export { recentAuditQueries, insertInjectionAudit, injectionAuditRecords, lastInjected, type InjectionAuditRecord } from "./injection-audit-table.ts";
export { countCitation } from "./citations.ts";
export { pingDatabase } from "./ping.ts";
export { integrityCheck, vectorTopOneProbe, fullTextProbe } from "./probes.ts";
export { countStaleRecords, staleRecords, saveVectors, imageCoverage, type StaleRecord, type EmbeddedTable, type EmbedSpaces } from "./stale-embeddings.ts";
export { addConsoleLogin, consoleLoginExpiry, renewConsoleLogin, deleteConsoleLogin, deleteAllConsoleLogins } from "./console-sessions-table.ts";
export { insertAppKey, listAppKeys, deleteAppKey, appKeyByHash, markAppKeyUsed, type AppKeyRow } from "./app-keys-table.ts";
export { putPausedTurn, pausedTurnOf, hasPausedTurn, deletePausedTurn } from "./paused-turns-table.ts";
export { SecretBox, SecretUnreadable, SecretKeyFileError, openSecretBox, SECRETS_KEY_FILE } from "./secret-box.ts";
export { sealStoredSecrets, type SealReport } from "./seal-secrets.ts";
export * as schema from "./schema.ts";
export { searchColdEvents, type ColdScope } from "./cold-scope.ts";
export { coldCandidateRows, idsInConversation, moveColdToL1, coldUses, recentColdEvents } from "./cold-recall.ts";
export { coldVectorCount, nearestColdEvents, nearestColdImages } from "./cold-vectors.ts";
export { beginRun, makeVisible, attachVectors, dropRun, cleanAbandonedImports, RUN_ROWIDS, type ImportRun } from "./import-staging.ts";
export { readBefore, storedAmong, nextSeqsOf, writeImportChunk, truncateWal, type ImportChunk } from "./import-writes.ts";
