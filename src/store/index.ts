export { openStore, isEmbeddedUrl, type Store, type StoreOptions, type Db } from "./open.ts";
export { migrate, migrationStatus, SchemaMismatchError, type Migration, type MigrationStatus } from "./migrate.ts";
export { MIGRATIONS } from "./migrations/index.ts";
export { VECTOR_DIM } from "./vector.ts";
export { mergeInserts } from "./merge-inserts.ts";
export { SecretBox, SecretUnreadable, SecretKeyFileError, openSecretBox, SECRETS_KEY_FILE } from "./secret-box.ts";
export { sealStoredSecrets, type SealReport } from "./seal-secrets.ts";
export * as schema from "./schema.ts";
export { indexForSearch, removeFromSearch, searchRows, scopedMatch, bm25Of, scopeKeyOf, conversationScopeKey, USER_SCOPE_KEY, SEARCH_COLUMNS, SEARCH_TABLES, CONTEXT_WEIGHT, type SearchDocKind, type SearchTable, type SearchText } from "./search-index.ts";
