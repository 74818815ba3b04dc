// The API's types as the server defines them: the console names its requests and answers with
// these, so a changed route breaks the console's compile (tsc -p .) instead of a page. Types
// only — `import type` is erased, so nothing of the daemon is bundled into the console.
export type {
  AuditAnswer,
  AuthStatus,
  DoctorAnswer,
  ImportEvents,
  MemoryRecord,
  MemoryStats,
  ProbeAnswer,
  RecordAnswer,
  SearchAnswer,
  Health,
  InspectedEvent,
  Inspection,
  KeysAnswer,
  ModelsAnswer,
  NewKeyAnswer,
  PluginEventsAnswer,
  PluginsAnswer,
  ProviderInputBody,
  ProvidersAnswer,
  ReplayAnswer,
  ScenesAnswer,
  SessionsAnswer,
  TestAnswer,
} from "../src/server/index.ts";
