import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/session-dump.json", import.meta.url));
const dump = JSON.parse(readFileSync(FIXTURE, "utf8")) as { id: string; messages: unknown[] }[];
const messagesOf = (...ids: string[]) => dump.filter((e) => ids.includes(e.id)).flatMap((e) => e.messages);

const dir = tempDir("homed-ctx-cli-").path;
after(() => rmSync(dir, { recursive: true, force: true }));

const render = (...args: string[]) => run([...SOURCE_HOMED, "context", "render", ...args]);

describe("homed context render", () => {
  test("renders whole events under the budget, skipping the runaway log frame, with the audit line", async () => {
    const out = await render("--budget", "2000", FIXTURE);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), messagesOf("e01", "e02", "e03", "e05"));
    assert.equal(out.stderr, "messages=7 calls=2 answered=2 dangling=0 tokens=165\n");
  });

  test("a budget large enough takes the 40 kB frame too, through the pipe whole", async () => {
    const out = await render("-budget=60000", FIXTURE);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(JSON.parse(out.stdout), messagesOf("e01", "e02", "e03", "e04", "e05"));
    assert.match(out.stderr, /^messages=11 calls=3 answered=3 dangling=0 tokens=\d+\n$/);
  });

  test("an invalid event is named, nothing is printed on stdout, exit is non-zero", async () => {
    const bad = structuredClone(dump);
    bad[2] = { ...bad[2]!, id: "broken", messages: [{ role: "tool", tool_call_id: "call_zz", content: "orphan" }] };
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify(bad));
    const out = await render("--budget", "2000", file);
    assert.equal(out.code, 1);
    assert.equal(out.stdout, "");
    assert.match(out.stderr, /^homed: Cannot read context dump .*bad\.json: event 2 \(id "broken"\): messages\[0\]: tool result for "call_zz" answers no open call of this event\n$/);
  });

  test("a missing or non-numeric budget is a usage error (exit 2)", async () => {
    const missing = await render(FIXTURE);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /missing --budget/);
    const word = await render("--budget", "lots", FIXTURE);
    assert.equal(word.code, 2);
    assert.match(word.stderr, /invalid --budget "lots"/);
  });

  test("--help lists the command and the -budget flag", async () => {
    const out = await run([...SOURCE_HOMED, "--help"]);
    assert.match(out.stdout, /^\s+context\s+render --budget N FILE/m);
    assert.match(out.stdout, /^\s+-budget TOKENS\s/m);
  });
});
