/**
 * Preloaded by bunfig.toml before the test files: every test may take 120 s, so plain
 * `bun test` passes (tests that start the daemon, plugins or a browser on a busy 2-core machine
 * take up to a minute; bun's default of 5 s failed 6 of them). bun 1.4.5 reads no `[test]
 * timeout` from bunfig.toml (oven-sh/bun#7789) and keeps a preload's setDefaultTimeout() for the
 * first file only (oven-sh/bun#43787), so node:test's `test` and `it` get the timeout as an
 * option instead, where a test gives none of its own. Hooks keep bun's 5 s: bun's node:test
 * hooks ignore a `timeout` option, and bun's own hooks, swapped in, hung after an `after` inside
 * a `describe` (measured). Remove this when bunfig's timeout works.
 */
import { mock } from "bun:test";
import * as nodeTest from "node:test";

/** A run that needs longer sets HOMED_TEST_TIMEOUT_MS (`make test-dist`: 300 s); bun's --timeout is overridden. */
export const TEST_TIMEOUT_MS = Number(process.env.HOMED_TEST_TIMEOUT_MS) || 120_000;

type Register = (...args: any[]) => unknown;

const hasTimeout = (options: unknown) => typeof options === "object" && options !== null && "timeout" in options;

/** `test(name, fn)`, `test(name, options, fn)`: the options gain the timeout. */
function tests(register: Register): Register {
  const wrapped = (name: unknown, options?: unknown, fn?: unknown) => {
    if (typeof options === "function") return register(name, { timeout: TEST_TIMEOUT_MS }, options);
    if (typeof options === "object" && options !== null && !hasTimeout(options)) return register(name, { ...options, timeout: TEST_TIMEOUT_MS }, fn);
    return register(name, options, fn);
  };
  return Object.assign(wrapped, register);
}

const test = tests(nodeTest.test);
mock.module("node:test", () => ({
  ...nodeTest,
  default: test,
  test,
  it: tests(nodeTest.it),
}));
