import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore } from "../../src/store/index.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { tempDir } from "../support/temp-dir.ts";

const turn = (id: string, text: string, over: Record<string, string> = {}) =>
  JSON.stringify({ conversation: "conv-1", session: "session_1", time: "2023-05-08T13:56:00Z", speaker: "Caroline", role: "user", text, id, ...over });

describe("homed import and homed recall (child processes)", () => {
  test("recall --explain: the turn that says the words comes first, above the neighbours indexed with it", async () => {
    using tmp = tempDir("homed-cli-");
    const history = join(tmp.path, "history.jsonl");
    const at = (minute: number) => `2024-01-01T10:0${minute}:00Z`;
    writeFileSync(
      history,
      `${[
        turn("1", "I tidied the desk today", { time: at(0) }),
        turn("2", "The spare key is in the zorbel drawer", { speaker: "Bo", role: "assistant", time: at(1) }),
        turn("3", "Thanks, I will look tonight", { time: at(2) }),
      ].join("\n")}\n`,
    );
    const data = join(tmp.path, "data");
    assert.equal((await run([...SOURCE_HOMED, "import", "-data", data, history])).code, 0);
    const out = await run([...SOURCE_HOMED, "recall", "-data", data, "--explain", "zorbel drawer"]);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.split("\n");
    assert.match(lines[0]!, /1\. .* Bo: The spare key is in the zorbel drawer/, out.stdout);
    // Every row holds the words (in a three-turn session each row holds all three turns), so each
    // score is tiny; it must still show, not read 0.000 for all three.
    assert.match(lines[2]!, /words #1 \((?!0\.000,)[\d.e-]+, covers [\d.]+\) .* grams #1 \((?!0\.000,)[\d.e-]+, covers [\d.]+\)/, out.stdout);
  });

  test("import, re-import, then batch recall writes one JSON line per query", async () => {
    using tmp = tempDir("homed-cli-");
    const history = join(tmp.path, "history.jsonl");
    writeFileSync(
      history,
      `${[
        turn("D1:1", "I went to a LGBTQ support group yesterday"),
        turn("D1:2", "I painted a sunrise", { speaker: "Mel", role: "assistant", session: "session_2" }),
        turn("D1:1", "again", { conversation: "conv-2" }),
      ].join("\n")}\n`,
    );
    const data = join(tmp.path, "data");
    const first = await run([...SOURCE_HOMED, "import", "-data", data, history]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /3 added, 0 already present/);
    const again = await run([...SOURCE_HOMED, "import", "-data", data, history]);
    assert.match(again.stdout, /0 added, 3 already present/);

    const queries = join(tmp.path, "queries.jsonl");
    writeFileSync(queries, [JSON.stringify({ id: "q1", query: "support group", conversation: "conv-1" }), JSON.stringify({ id: 2, query: "painting" })].join("\n"));
    const out = await run([...SOURCE_HOMED, "recall", "-data", data, "--queries", queries, "-k", "1"]);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(lines.length, 2);
    assert.equal(lines[0].id, "q1");
    assert.equal(lines[0].results.length, 1);
    const hit = lines[0].results[0];
    assert.deepEqual(Object.keys(hit).sort(), ["layer", "memory", "score", "sources", "text", "time"]);
    assert.deepEqual([hit.layer, hit.sources, hit.text, hit.time], ["L2", ["D1:1"], "I went to a LGBTQ support group yesterday", "2023-05-08T13:56:00.000Z"]);
    assert.equal(lines[1].id, 2);
    assert.deepEqual(lines[1].results[0].sources, ["D1:2"]);

    const single = await run([...SOURCE_HOMED, "recall", "-data", data, "--conversation", "conv-1", "--explain", "support group"]);
    assert.equal(single.code, 0, single.stderr);
    assert.match(single.stdout, /Caroline: I went to a LGBTQ support group/);
    // The default fusion is coverage: a first place's 1/61 plus 3 × coverage² / 61, the coverage shown.
    const shown = /words #1 \([\d.]+, covers ([\d.]+)\) \+([\d.]+) · grams #1 \([\d.]+, covers [\d.]+\)/.exec(single.stdout);
    assert.ok(shown, single.stdout);
    const [covers, contribution] = [Number(shown[1]), Number(shown[2])];
    assert.ok(covers > 0.5, `"support group" is all of the query: covers ${covers}`);
    assert.ok(Math.abs(contribution - (1 + 3 * covers ** 2) / 61) < 0.001, single.stdout);
    assert.match(single.stdout, /vector off/);
    // -fusion rrf: reciprocal ranks only, 1/61 a channel for a first place.
    const rrf = await run([...SOURCE_HOMED, "recall", "-data", data, "--conversation", "conv-1", "--explain", "-fusion", "rrf", "support group"]);
    assert.match(rrf.stdout, /words #1 \([\d.]+, covers [\d.]+\) \+0\.0164 · grams #1/);
    // -fusion linear: a channel's best match contributes its weight's share (1 of 2).
    const linear = await run([...SOURCE_HOMED, "recall", "-data", data, "--conversation", "conv-1", "--explain", "-fusion", "linear", "support group"]);
    assert.equal(linear.code, 0, linear.stderr);
    assert.match(linear.stdout, /words #1 \([\d.]+, covers [\d.]+\) \+0\.5000 · grams #1 \([\d.]+, covers [\d.]+\) \+0\.5000/);
    const bad = await run([...SOURCE_HOMED, "recall", "-data", data, "-fusion", "borda", "support group"]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /-fusion borda: give coverage, rrf, linear/);
  });

  test("an invalid line aborts the whole import with its number; --skip-invalid skips and reports", async () => {
    using tmp = tempDir("homed-cli-");
    const history = join(tmp.path, "history.jsonl");
    writeFileSync(history, [turn("D1:1", "one"), turn("D1:2", "two"), '{"conversation":"conv-1"}', turn("D1:4", "four")].join("\n"));
    const data = join(tmp.path, "data");
    const failed = await run([...SOURCE_HOMED, "import", "-data", data, history]);
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /Cannot import .*history\.jsonl: line 3: .*nothing was imported/);
    assert.equal(existsSync(join(data, "homed.db")), false, "nothing written, not even a database");

    const skipped = await run([...SOURCE_HOMED, "import", "-data", data, "--skip-invalid", history]);
    assert.equal(skipped.code, 0, skipped.stderr);
    assert.match(skipped.stderr, /skipped line 3: /);
    assert.match(skipped.stdout, /3 added, 0 already present, 1 invalid skipped/);
  });

  test("import --scope: user-wide by default, private to a partner or project when asked, a bad scope refused", async () => {
    using tmp = tempDir("homed-cli-");
    const data = join(tmp.path, "data");
    const file = (name: string, conversation: string) => {
      const path = join(tmp.path, name);
      writeFileSync(path, `${turn("1", `a line of ${conversation}`, { conversation })}\n`);
      return path;
    };
    const bad = await run([...SOURCE_HOMED, "import", "-data", data, "--scope", "friend:Mia", file("bad.jsonl", "conv-bad")]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /scope must be "user", "partner:NAME" or "project:NAME".*nothing was imported/);
    for (const [name, scope] of [
      ["plain", undefined],
      ["mia", "partner:Mia"],
      ["work", "project:roof"],
    ] as const) {
      const out = await run([...SOURCE_HOMED, "import", "-data", data, ...(scope ? ["--scope", scope] : []), file(`${name}.jsonl`, `conv-${name}`)]);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, scope ? new RegExp(`private to ${scope}`) : /user-wide: every chat/);
    }
    const store = await openStore({ url: `file:${join(data, "homed.db")}` });
    try {
      const rows = await store.client.execute("SELECT conversation, private_to FROM events ORDER BY conversation");
      assert.deepEqual(
        rows.rows.map((r) => [r.conversation, r.private_to]),
        [
          ["conv-mia", "partner:Mia"],
          ["conv-plain", null],
          ["conv-work", "project:roof"],
        ],
      );
    } finally {
      store.close();
    }
  });

  test("usage errors: no file, a bad -k", async () => {
    using tmp = tempDir("homed-cli-");
    const noFile = await run([...SOURCE_HOMED, "import", "-data", tmp.path]);
    assert.equal(noFile.code, 2);
    assert.match(noFile.stderr, /usage: homed import/);
    const badK = await run([...SOURCE_HOMED, "recall", "-data", tmp.path, "-k", "0", "x"]);
    assert.equal(badK.code, 2);
    assert.match(badK.stderr, /invalid -k/);
  });
});
