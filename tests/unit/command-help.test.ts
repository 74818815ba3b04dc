/** Per-command help: `homed COMMAND --help` and `homed help COMMAND` print that command's usage. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { parseArgs, resolveSettings, UsageError, type CommandIo } from "../../src/config/index.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { allFlags } from "../../src/cli/help.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";

const help = COMMANDS.find((c) => c.name === "help")!;

async function helpFor(rest: string[]): Promise<string> {
  let out = "";
  const io: CommandIo = { stdout: (t) => void (out += t), stderr: () => {}, isTty: false, stdin: process.stdin };
  const args = parseArgs([]);
  await help.run({ args, rest, settings: () => resolveSettings(args, {}) }, io);
  return out;
}

describe("command help", () => {
  test("every command's help shows its usage and its own flags, and no other command's", async () => {
    const names = new Set(allFlags(COMMANDS).map((f) => f.name));
    assert.equal(names.size, allFlags(COMMANDS).length, "no flag is declared twice");
    for (const command of COMMANDS) {
      const text = await helpFor([command.name]);
      assert.ok(text.startsWith(`Usage:\n  ${command.usage[0]}\n`), `${command.name}: ${text}`);
      for (const flag of command.flags) assert.match(text, new RegExp(`^  -${flag.name}\\b`, "m"), `${command.name} -${flag.name}`);
      for (const other of COMMANDS.filter((c) => c !== command)) {
        for (const flag of other.flags) assert.doesNotMatch(text, new RegExp(`^  -${flag.name}\\b`, "m"), `${command.name} shows -${flag.name}`);
      }
    }
    await assert.rejects(helpFor(["nope"]), (e: Error) => e instanceof UsageError && /unknown command "nope"/.test(e.message));
  });

  test("homed COMMAND --help and homed help COMMAND print the same usage; exit 0", async () => {
    const flag = await run([...SOURCE_HOMED, "context", "--help"]);
    assert.equal(flag.code, 0, flag.stderr);
    assert.match(flag.stdout, /^Usage:\n {2}homed context render --budget N FILE\n/);
    assert.match(flag.stdout, /^ {2}-budget TOKENS\s/m);
    const word = await run([...SOURCE_HOMED, "help", "context"]);
    assert.equal(word.stdout, flag.stdout);
    const imported = await run([...SOURCE_HOMED, "import", "--help"]);
    assert.match(imported.stdout, /^Usage:\n {2}homed import /);
  });
});
