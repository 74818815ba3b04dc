/**
 * One table from an error's code to what it means outside: the HTTP status the API answers with
 * and the exit code the command line ends with. Routes and commands throw; the app's one error
 * handler and main.ts look the code up here. A row with HTTP 500 is a failure the API does not
 * explain: it answers `internal` and writes the error to the log.
 *
 * Pinned by tests/errors/error-table.test.ts: changing a row changes a promise to callers.
 */
import { HomedError } from "./homed-error.ts";

export type ErrorRow = { http: number; exit: number };

const row = (http: number, exit = 1): ErrorRow => ({ http, exit });

export const ERRORS = {
  // The request is wrong.
  usage: row(500, 2), // a command line that cannot be run; never an HTTP answer
  invalid_json: row(400),
  invalid_request: row(400),
  invalid_history: row(400),
  invalid_arguments: row(400),
  unsupported_value: row(400), // an OpenAI request field homed does not honour (n > 1, logprobs)
  unauthorized: row(401),
  cross_site: row(403),
  key_scope: row(403), // an app key used outside its scopes (/api, or a scope it was not given)
  misdirected_request: row(421), // a Host this homed does not answer (DNS rebinding: server/host-check.ts)
  not_found: row(404),
  session_not_found: row(404),
  previous_response_not_found: row(404), // a Responses previous_response_id homed did not make, or of a session the key may not open
  provider_not_found: row(404),
  model_not_found: row(404),
  key_not_found: row(404),
  unknown_tool: row(404),
  unknown_plugin: row(404),
  ambiguous: row(409),
  key_exists: row(409),
  already_imported: row(409), // a concurrent import of the same messages finished first (memory/import.ts)
  pull_in_progress: row(409), // the console asked for a model pull while one runs (server/api-models.ts)
  too_large: row(413),
  rate_limited: row(429),
  // A model provider failed during a turn (ProviderError, prefixed).
  provider_rate_limited: row(502),
  provider_server_error: row(502),
  provider_bad_request: row(502),
  provider_network: row(502),
  provider_aborted: row(502),
  provider_bad_response: row(502),
  provider_timeout: row(504),
  // homed cannot serve this now, and says why.
  no_provider: row(503),
  no_embedder: row(503), // /v1/embeddings with only the fallback embedder (server/openai-embeddings.ts)
  secret_unreadable: row(503),
  // Local failures: the API answers `internal` (the message may name paths); the CLI prints it.
  internal: row(500),
  config_file: row(500),
  data_dir: row(500),
  file_lock: row(500),
  listen: row(500),
  shared_memory: row(500),
  sequence_violation: row(500),
  stage_failed: row(500),
  chat: row(500),
  secret_key_file: row(500),
  write_wait: row(500),
  schema_mismatch: row(500),
  database_open: row(500),
  image_decode: row(500),
  model_folder: row(500),
  embed_config: row(500),
  embed_timeout: row(500),
  embed: row(500),
  // A model download that failed or did not match its checksum (the source is at fault).
  download: row(502),
  // An embedding endpoint the console was asked to save did not answer its probe (nothing saved).
  embedder_unreachable: row(502),
  // The embedder failed to answer /v1/embeddings (an endpoint down; the reason is in the log).
  embedder_failed: row(502),
  segment_full: row(500),
  bad_reference: row(500),
  bad_segment: row(500),
  plugin_unavailable: row(500),
  dependency_failed: row(500),
  startup_order: row(500),
  context_dump: row(500),
  bad_frame: row(500),
  input: row(500),
  recall: row(500),
} as const satisfies Record<string, ErrorRow>;

export type ErrorCode = keyof typeof ERRORS;

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERRORS, code);

/**
 * The public code of a thrown value, when it is a HomedError with a row. Any other value's `code`
 * (a Node error's ENOSPC, libSQL's SQLITE_BUSY) is not homed's to explain: it is internal.
 */
export function errorCodeOf(error: unknown): ErrorCode | undefined {
  return error instanceof HomedError && isErrorCode(error.publicCode) ? error.publicCode : undefined;
}

/** The HTTP status for a thrown value: its row's, or 500 for anything the table does not know. */
export const httpStatusOf = (error: unknown): number => ERRORS[errorCodeOf(error) ?? "internal"].http;

/** The process exit code for a thrown value: its row's, or 1. */
export const exitCodeOf = (error: unknown): number => ERRORS[errorCodeOf(error) ?? "internal"].exit;
