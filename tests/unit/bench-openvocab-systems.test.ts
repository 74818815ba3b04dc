/**
 * The open-vocabulary bench's systems, each in a child process of its own (bench/openvocab): the
 * parent asks them in turns (system A answers query i, then B, then C, then query i + 1), judges
 * their ids and takes each answer's time from the child that measured it; a child's line that is
 * not its protocol, or a child that dies, fails the question waiting on it instead of hanging the bench.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { exactLookups, openVocabCorpus, type ExactLookup } from "../../bench/openvocab/corpus.ts";
import { measureInTurns, type Asked } from "../../bench/openvocab/measure-in-turns.ts";
import { startSystem } from "../../bench/openvocab/system-process.ts";
import { parseChildLine, type Question } from "../../bench/openvocab/system-protocol.ts";
import { evalCommand, run, SOURCE_HOMED } from "../support/process.ts";
import { testDir } from "../support/temp-dir.ts";

const lookup = (n: number): ExactLookup => ({ id: `q${n}`, target: `m${n}`, conversation: `c${n}`, query: `query ${n}`, typo: `qeury ${n}`, unique: true });

describe("bench/openvocab systems in their own processes", () => {
  test("systems answer in turns, query by query; ranks are judged and the child's own times reported", async () => {
    const log: string[] = [];
    const system = (name: string, answer: (q: Question, target: string) => string[] | null, ms: number, cpuMs: number): Asked => ({
      name,
      ask: async (q) => {
        log.push(`${name} ${q.text}${q.conversation ? ` in ${q.conversation}` : ""}`);
        // Some time passes in the parent, which must not count: the child's `ms` is the figure.
        await new Promise((resolve) => setTimeout(resolve, 5));
        const n = /\d+/.exec(q.text)![0];
        return { ids: answer(q, `m${n}`), ms, cpuMs };
      },
    });
    const first = system("A", (_, target) => [target, "x"], 0.25, 0.125);
    const fifth = system("B", (_, target) => ["a", "b", "c", "d", "e", target], 1, 1);
    const unaskable = system("C", (q) => (q.text.endsWith("1") ? null : ["z"]), 2, 2);
    const results = await measureInTurns([first, fifth, unaskable], [lookup(1), lookup(2)], [lookup(7), lookup(8)]);

    // The warm-up lookups first, in turns, and never judged (their answers would be misses).
    assert.deepEqual(log.slice(0, 6), ["A query 7", "B query 7", "C query 7", "A query 8", "B query 8", "C query 8"]);
    assert.deepEqual(log.slice(6, 12), ["A query 1", "B query 1", "C query 1", "A query 2", "B query 2", "C query 2"]);
    assert.deepEqual(log.slice(12, 15), ["A query 1 in c1", "B query 1 in c1", "C query 1 in c1"]);
    assert.deepEqual(log.slice(-3), ["A qeury 2", "B qeury 2", "C qeury 2"]);
    assert.equal(log.length, 6 + 3 * 2 * 3);

    assert.deepEqual(
      results.map((r) => `${r.system}, ${r.variant}`),
      ["A", "B", "C"].flatMap((s) => [`${s}, exact, all memory`, `${s}, exact, own conversation`, `${s}, one typo, all memory`]),
    );
    assert.equal(results[0]!.line, "hit@1 1.000  hit@10 1.000  p50 0.25 ms  p95 0.3 ms  cpu p50 0.13 ms");
    assert.equal(results[3]!.line, "hit@1 0.000  hit@10 1.000  p50 1.00 ms  p95 1.0 ms  cpu p50 1.00 ms");
    assert.equal(results[6]!.line, "hit@1 0.000  hit@10 0.000  p50 2.00 ms  p95 2.0 ms  cpu p50 2.00 ms (1 unaskable, counted as misses)");
  });

  test("a child's line is parsed against the protocol, quoted when it is not", () => {
    assert.deepEqual(parseChildLine('{"type":"answer","ids":["m1"],"ms":1.5,"cpuMs":1}'), { type: "answer", ids: ["m1"], ms: 1.5, cpuMs: 1 });
    assert.deepEqual(parseChildLine('{"type":"answer","ids":null,"ms":0,"cpuMs":0}').type, "answer");
    assert.throws(() => parseChildLine("loading jieba…"), /not a JSON line from a system child: loading jieba/);
    assert.throws(() => parseChildLine('{"type":"answer","ids":[1],"ms":1,"cpuMs":1}'), /unexpected message from a system child.*"ids":\[1\]/);
  });

  test("MiniSearch, FTS5 and homed, each in its child, find a lookup's target and time it", async () => {
    const dir = testDir();
    const corpus = openVocabCorpus(400);
    const history = join(dir, "history.jsonl");
    writeFileSync(history, `${corpus.lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
    const imported = await run([...SOURCE_HOMED, "import", "-data", join(dir, "data"), history]);
    assert.equal(imported.code, 0, imported.stderr);
    const [q] = exactLookups(corpus, 1);
    const systems = [
      await startSystem("MiniSearch", { kind: "minisearch", history }),
      await startSystem("FTS5", { kind: "fts5", history, db: join(dir, "floor.db") }),
      await startSystem("homed", { kind: "homed", data: join(dir, "data"), method: "coverage" }),
    ];
    try {
      assert.match(systems[0]!.build!, /^[\d,]+ msg\/s \(nothing persisted\)$/);
      assert.match(systems[1]!.build!, /^[\d,]+ msg\/s \(db \d+ MiB\)$/);
      assert.equal(systems[2]!.build, undefined);
      for (const system of systems) {
        for (const question of [{ text: q!.query }, { text: q!.query, conversation: q!.conversation }]) {
          const answer = await system.ask(question);
          assert.ok(answer.ids?.includes(q!.target), `${system.name}: ${q!.target} in ${answer.ids}`);
          assert.ok(answer.ids!.length <= 10);
          assert.ok(answer.ms > 0 && answer.cpuMs >= 0, `${system.name}: ${answer.ms} ms, ${answer.cpuMs} ms CPU`);
        }
      }
    } finally {
      for (const system of systems) await system.close();
    }
  });

  test("a child that breaks the protocol or dies fails the waiting question, saying so", async () => {
    const ready = 'console.log(JSON.stringify({ type: "ready" }));';
    const spec = { kind: "minisearch", history: "unused" } as const;
    await assert.rejects(startSystem("chatty", spec, evalCommand('console.log("hello");')), /not a JSON line from a system child: hello/);
    await assert.rejects(startSystem("silent", spec, evalCommand("process.exit(3);")), /silent: its child process exited \(code 3\)/);

    const wrong = await startSystem("wrong", spec, evalCommand(`${ready} process.stdin.on("data", () => console.log(JSON.stringify({ type: "ready" })));`));
    await assert.rejects(wrong.ask({ text: "x" }), /wrong: its child sent ready where answer was awaited/);
    await wrong.close();

    const dying = await startSystem("dying", spec, evalCommand(`${ready} process.stdin.on("data", () => process.exit(4));`));
    await assert.rejects(dying.ask({ text: "x" }), /dying: its child process exited \(code 4\)/);
    await assert.rejects(dying.ask({ text: "y" }), /dying: its child process exited \(code 4\)/);
  });
});
