export { createApp, type AppDeps } from "./app.ts";
export { ensureAdminToken, resetAdminToken, tokenHint, ADMIN_TOKEN_FILE } from "./admin-token.ts";
export { HOMED_MODEL_ID } from "./openai-compat.ts";
export { runTokenCommand } from "./token-command.ts";
export { runKeyCommand } from "./key-command.ts";
export { respondMcp } from "./mcp-methods.ts";
export { A2AConfigSchema, type A2AConfig } from "./a2a.ts";
// The console's view of the API (web/api-types.ts): the types the routes answer with.
export type { AuthStatus } from "./api-login.ts";
export type { Health } from "./app.ts";
export type { DoctorAnswer } from "./api-doctor.ts";
export type { ScenesAnswer } from "./api-scenes.ts";
export type { PluginsAnswer, PluginEventsAnswer } from "./plugins-routes.ts";
export type { AuditAnswer, ReplayAnswer } from "./api-audit.ts";
export type { Inspection, InspectedEvent } from "./api-inspect.ts";
export type { KeysAnswer, NewKeyAnswer } from "./api-keys.ts";
export type { ProvidersAnswer, ModelsAnswer, TestAnswer, ProviderInputBody } from "./api-providers.ts";
export type { SessionsAnswer } from "./api-sessions.ts";
