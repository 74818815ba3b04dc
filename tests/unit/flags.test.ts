import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { EXTRA_ENV, parseArgs, resolveSettings, UsageError } from "../../src/config/index.ts";
import { COMMANDS } from "../../src/cli/commands/index.ts";
import { allFlags, helpText as helpOf } from "../../src/cli/help.ts";

const helpText = (version: string) => helpOf(version, COMMANDS);

describe("command-line flags", () => {
  test("accepts -flag value, --flag value and -flag=value", () => {
    const parsed = parseArgs(["-data", "/a", "--addr", "127.0.0.1:9", "-db=file:/x.db", "doctor"]);
    assert.equal(parsed.flags.get("data"), "/a");
    assert.equal(parsed.flags.get("addr"), "127.0.0.1:9");
    assert.equal(parsed.flags.get("db"), "file:/x.db");
    assert.deepEqual(parsed.positionals, ["doctor"]);
  });

  test("an unknown flag is a usage error naming it", () => {
    assert.throws(
      () => parseArgs(["-nope"]),
      (e: Error) => e instanceof UsageError && e.message.includes("-nope"),
    );
  });

  test("a flag missing its value is a usage error", () => {
    assert.throws(() => parseArgs(["-data"]), /needs a value/);
  });

  test("defaults: data under XDG_DATA_HOME, addr 127.0.0.1:8080, db file inside data", () => {
    const s = resolveSettings(parseArgs([]), { XDG_DATA_HOME: "/xdg" });
    assert.equal(s.dataDir, "/xdg/homed");
    assert.deepEqual(s.listen, { hostname: "127.0.0.1", port: 8080 });
    assert.equal(s.dbUrl, "file:/xdg/homed/homed.db");
    assert.equal(s.logLevel, "info");
  });

  test("flags win over environment, environment over defaults", () => {
    const env = { HOMED_DATA: "/env", HOMED_ADDR: "0.0.0.0:1", HOMED_DB: "libsql://db.example" };
    const fromEnv = resolveSettings(parseArgs([]), env);
    assert.equal(fromEnv.dataDir, "/env");
    assert.equal(fromEnv.dbUrl, "libsql://db.example");
    const fromFlag = resolveSettings(parseArgs(["-addr", "127.0.0.1:0"]), env);
    assert.deepEqual(fromFlag.listen, { hostname: "127.0.0.1", port: 0 });
  });

  test("invalid values are usage errors naming the flag", () => {
    assert.throws(() => resolveSettings(parseArgs(["-addr", "nonsense"]), {}), /invalid -addr/);
    assert.throws(() => resolveSettings(parseArgs(["-addr", "127.0.0.1:70000"]), {}), /out of range/);
    assert.throws(() => resolveSettings(parseArgs(["-db", "postgres://x"]), {}), /invalid -db/);
    assert.throws(() => resolveSettings(parseArgs(["-log-level", "loud"]), {}), /invalid -log-level/);
  });

  test("-sync-url (an embedded replica) takes a libSQL server's URL, and needs -db file:PATH", () => {
    const replica = resolveSettings(parseArgs(["-db", "file:/r.db", "-sync-url", "http://127.0.0.1:8080"]), {});
    assert.equal(replica.dbSyncUrl, "http://127.0.0.1:8080");
    assert.equal(resolveSettings(parseArgs(["-db", "file:/r.db"]), { HOMED_DB_SYNC_URL: "libsql://x.turso.io" }).dbSyncUrl, "libsql://x.turso.io");
    assert.throws(() => resolveSettings(parseArgs(["-db", "http://127.0.0.1:8080", "-sync-url", "http://127.0.0.1:8080"]), {}), /invalid -sync-url: an embedded replica needs -db file:PATH/);
    assert.throws(() => resolveSettings(parseArgs(["-db", "file:/r.db", "-sync-url", "file:/x"]), {}), /invalid -sync-url/);
  });

  test("--help names every flag, its default and every environment variable", () => {
    const help = helpText("9.9.9");
    for (const flag of allFlags(COMMANDS)) {
      assert.match(help, new RegExp(`-${flag.name}\\b`));
      if (flag.default) assert.ok(help.includes(flag.default), `default of -${flag.name}`);
      if (flag.env) assert.ok(help.includes(flag.env), `env of -${flag.name}`);
    }
    for (const env of EXTRA_ENV) assert.ok(help.includes(env.name));
  });
});
