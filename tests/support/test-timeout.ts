/**
 * Preloaded by bunfig.toml before the test files: every test and hook may take 120 s, so plain
 * `bun test` passes (tests that start the daemon, plugins or a browser on a busy 2-core machine
 * take up to a minute; bun's default of 5 s failed 6 of them). bun 1.4.5 reads no `[test]
 * timeout` from bunfig.toml (oven-sh/bun#7789) and keeps a preload's setDefaultTimeout() for the
 * first file only (oven-sh/bun#43787), so every node:test function that registers a test or a
 * hook calls setDefaultTimeout() first, which holds for the file being registered (measured: a
 * second file's 5.5 s before, test and after all pass; bun's node:test hooks ignore a `timeout`
 * option). A test's own timeout still wins. Remove this when bunfig's timeout works.
 */
import { mock, setDefaultTimeout } from "bun:test";
import * as nodeTest from "node:test";

/** A run that needs longer sets HOMED_TEST_TIMEOUT_MS (`make test-dist`: 300 s); bun's --timeout is overridden. */
export const TEST_TIMEOUT_MS = Number(process.env.HOMED_TEST_TIMEOUT_MS) || 120_000;

type Register = (...args: any[]) => unknown;

/** setDefaultTimeout() made while a file registers its tests holds for that file, hooks included. */
function fileDefault<F extends Register>(register: F): F {
  const wrapped = (...args: unknown[]) => {
    setDefaultTimeout(TEST_TIMEOUT_MS);
    return register(...args);
  };
  return Object.assign(wrapped, register) as unknown as F;
}

const test = fileDefault(nodeTest.test);
mock.module("node:test", () => ({
  ...nodeTest,
  default: test,
  test,
  it: fileDefault(nodeTest.it),
  describe: fileDefault(nodeTest.describe),
  suite: fileDefault(nodeTest.suite),
  before: fileDefault(nodeTest.before),
  after: fileDefault(nodeTest.after),
  beforeEach: fileDefault(nodeTest.beforeEach),
  afterEach: fileDefault(nodeTest.afterEach),
}));
