/**
 * The error table, pinned (after the MCP SDK's errorHttpStatusMatrix test): each code's HTTP
 * status and exit code is a promise to callers, so changing one must change this test too. And
 * every code an error class can carry has a row, or it would answer a bare 500.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ERRORS, errorCodeOf, exitCodeOf, HomedError, httpStatusOf } from "../../src/errors/index.ts";
import { ProviderError, PROVIDER_ERROR_CODES } from "../../src/llm/index.ts";
import { MemoryToolError, RecallError, RecordError } from "../../src/memory/index.ts";
import { UsageError } from "../../src/config/index.ts";
import { ROOT } from "../support/process.ts";

/** code: [HTTP status, exit code]. */
const MATRIX: Record<string, [number, number]> = {
  usage: [500, 2],
  invalid_json: [400, 1],
  invalid_request: [400, 1],
  invalid_history: [400, 1],
  invalid_arguments: [400, 1],
  unsupported_value: [400, 1],
  unauthorized: [401, 1],
  cross_site: [403, 1],
  key_scope: [403, 1],
  misdirected_request: [421, 1],
  not_found: [404, 1],
  session_not_found: [404, 1],
  previous_response_not_found: [404, 1],
  provider_not_found: [404, 1],
  model_not_found: [404, 1],
  key_not_found: [404, 1],
  unknown_tool: [404, 1],
  unknown_plugin: [404, 1],
  ambiguous: [409, 1],
  key_exists: [409, 1],
  already_imported: [409, 1],
  pull_in_progress: [409, 1],
  too_large: [413, 1],
  rate_limited: [429, 1],
  provider_rate_limited: [502, 1],
  provider_server_error: [502, 1],
  provider_bad_request: [502, 1],
  provider_network: [502, 1],
  provider_aborted: [502, 1],
  provider_bad_response: [502, 1],
  provider_timeout: [504, 1],
  no_provider: [503, 1],
  no_embedder: [503, 1],
  secret_unreadable: [503, 1],
  internal: [500, 1],
  config_file: [500, 1],
  data_dir: [500, 1],
  file_lock: [500, 1],
  listen: [500, 1],
  shared_memory: [500, 1],
  sequence_violation: [500, 1],
  stage_failed: [500, 1],
  chat: [500, 1],
  secret_key_file: [500, 1],
  write_wait: [500, 1],
  schema_mismatch: [500, 1],
  database_open: [500, 1],
  image_decode: [500, 1],
  model_folder: [500, 1],
  embed_config: [500, 1],
  embed_timeout: [500, 1],
  embed: [500, 1],
  download: [502, 1],
  embedder_unreachable: [502, 1],
  embedder_failed: [502, 1],
  segment_full: [500, 1],
  bad_reference: [500, 1],
  bad_segment: [500, 1],
  plugin_unavailable: [500, 1],
  dependency_failed: [500, 1],
  startup_order: [500, 1],
  context_dump: [500, 1],
  bad_frame: [500, 1],
  input: [500, 1],
  recall: [500, 1],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") ? [path] : [];
  });
}

/** The codes an error class in this source can carry: `super("x"`, `code = "x"`, `code: "a" | "b"`. */
function declaredCodes(source: string): string[] {
  const codes: string[] = [];
  for (const m of source.matchAll(/class \w+ extends \w*Error \{([\s\S]*?)\n\}/g)) {
    const body = m[1]!;
    for (const s of body.matchAll(/super\("([a-z_]+)"/g)) codes.push(s[1]!);
    for (const s of body.matchAll(/readonly code = "([a-z_]+)"/g)) codes.push(s[1]!);
    for (const s of body.matchAll(/readonly code: ((?:"[a-z_]+"(?: \| )?)+)/g)) codes.push(...[...s[1]!.matchAll(/"([a-z_]+)"/g)].map((q) => q[1]!));
  }
  return codes;
}

describe("the error table", () => {
  test("every code's HTTP status and exit code, as promised", () => {
    const actual = Object.fromEntries(Object.entries(ERRORS).map(([code, row]) => [code, [row.http, row.exit]]));
    assert.deepEqual(actual, MATRIX);
  });

  test("every code an error class in src/ declares has a row", () => {
    const missing: string[] = [];
    let seen = 0;
    for (const file of sourceFiles(join(ROOT, "src"))) {
      for (const code of declaredCodes(readFileSync(file, "utf8"))) {
        seen++;
        if (!(code in ERRORS)) missing.push(`${relative(ROOT, file)}: ${code}`);
      }
    }
    for (const code of PROVIDER_ERROR_CODES) if (!(`provider_${code}` in ERRORS)) missing.push(`ProviderError: provider_${code}`);
    assert.deepEqual(missing, []);
    assert.ok(seen >= 30, `the scan found only ${seen} codes: has the class shape changed?`);
  });

  test("a thrown value's code, status and exit code", () => {
    assert.equal(httpStatusOf(new HomedError("session_not_found", "No session")), 404);
    assert.equal(exitCodeOf(new UsageError("bad flag")), 2);
    assert.equal(exitCodeOf(new HomedError("data_dir", "Cannot use")), 1);
    // A provider's rate limit is not the API's own 429.
    const limited = new ProviderError("rate_limited", "Provider answered HTTP 429", 429);
    assert.equal(errorCodeOf(limited), "provider_rate_limited");
    assert.equal(httpStatusOf(limited), 502);
    assert.equal(httpStatusOf(new ProviderError("timeout", "no answer")), 504);
    assert.equal(httpStatusOf(new RecordError("ambiguous", "two match")), 409);
    assert.equal(httpStatusOf(new MemoryToolError("unknown_tool", "no such tool")), 404);
    assert.equal(errorCodeOf(new RecallError("not in L2")), "recall");
    // Only a HomedError's code counts: an error carrying a code of the table by chance is internal.
    assert.equal(errorCodeOf(Object.assign(new Error("x"), { code: "not_found" })), undefined);
    // Anything else is internal.
    assert.equal(errorCodeOf(Object.assign(new Error("disk"), { code: "ENOSPC" })), undefined);
    assert.equal(httpStatusOf(new Error("bug")), 500);
    assert.equal(exitCodeOf("a string"), 1);
  });

  test("a HomedError keeps its cause and names its class", () => {
    const cause = new Error("EACCES");
    const error = new UsageError("x");
    assert.equal(error.name, "UsageError");
    assert.equal(new HomedError("data_dir", "Cannot use /x: denied", { cause }).cause, cause);
  });
});
