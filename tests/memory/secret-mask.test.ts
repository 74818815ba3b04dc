/**
 * Secrets never reach the database through the real write paths (issue 15): a history import,
 * a memory_note and a cooling pass store the masked text, and each logs the kinds and the record
 * id, never the value. Checked by scanning every text value of every table of the libSQL file.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { OWNER, coolOnce, importHistory, parseHistory, runMemoryTool } from "../../src/memory/index.ts";
import { createContextEngine } from "../../src/context/index.ts";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore, type Store } from "../../src/store/index.ts";
import { run, SOURCE_HOMED } from "../support/process.ts";
import { count, message, openTempStore } from "./fixture.ts";
import { testDir } from "../support/temp-dir.ts";

const OPENAI = `sk-${"Zq8Rt2Vx".repeat(6)}`;
const CARD = "4111 1111 1111 1111";
const PASSWORD = "Tr0ub4dor&3xyz";

/** Every table's rows whose any text value holds `needle` (case-insensitive: search rows are folded). */
async function rowsHolding(store: Store, needle: string): Promise<string[]> {
  const tables = await store.client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  const found: string[] = [];
  for (const t of tables.rows) {
    const name = String(t.name);
    let rows: Awaited<ReturnType<typeof store.client.execute>>;
    try {
      rows = await store.client.execute(`SELECT * FROM "${name}"`);
    } catch {
      continue; // virtual tables whose module is not loadable here
    }
    for (const row of rows.rows) {
      for (const value of Object.values(row)) {
        if (typeof value === "string" && value.toLowerCase().includes(needle.toLowerCase())) found.push(`${name}: ${value.slice(0, 80)}`);
      }
    }
  }
  return found;
}

async function assertNoSecrets(store: Store): Promise<void> {
  for (const needle of [OPENAI.slice(3, 23), "4111 1111", "4111111111111111", PASSWORD]) assert.deepEqual(await rowsHolding(store, needle), [], needle);
}

describe("secrets are masked before memory is written", () => {
  test("a history import stores, indexes and logs no secret; its neighbours' context neither", async () => {
    await using store = await openTempStore();
    const line = (id: string, text: string) => JSON.stringify({ conversation: "c", session: "s", time: "2024-05-08T13:56:00Z", speaker: "Ann", role: "user", text, id });
    const parsed = parseHistory([line("1", `my openai key is ${OPENAI}`), line("2", `card ${CARD}, wifi password = ${PASSWORD}`), line("3", "parked at level 3")].join("\n"));
    const logged: string[] = [];
    assert.deepEqual(await importHistory(store.client, parsed.messages, { log: (l) => logged.push(l) }), { added: 3, present: 0 });
    await assertNoSecrets(store);
    const texts = await store.client.execute("SELECT text FROM events ORDER BY seq");
    assert.deepEqual(
      texts.rows.map((r) => r.text),
      ["my openai key is [secret masked: openai-key]", "card [secret masked: card-number], wifi password = [secret masked: password-value]", "parked at level 3"],
    );
    assert.equal(await count(store, "SELECT count(*) FROM blocks WHERE content LIKE '%[secret masked:%'"), 2);
    assert.equal(logged.length, 2);
    assert.match(logged[0]!, /^import ev_[0-9a-f]{24}: secrets masked \(1 openai-key\)$/);
    assert.match(logged[1]!, /\(1 password-value, 1 card-number\)$/);
    for (const l of logged) assert.ok(!l.includes(OPENAI.slice(3, 23)) && !l.includes(PASSWORD));
  });

  test("memory_note stores no secret, says what it masked and logs it with the fact's id", async () => {
    await using store = await openTempStore();
    const logged: string[] = [];
    const noted = (await runMemoryTool("memory_note", { subject: "Ann", predicate: "uses api key", object: OPENAI }, { client: store.client, access: OWNER, log: (l) => logged.push(l) })) as {
      id: string;
      masked: unknown;
    };
    const plain = (await runMemoryTool("memory_note", { text: `the vault password: ${PASSWORD}` }, { client: store.client, access: OWNER, log: (l) => logged.push(l) })) as { id: string };
    assert.deepEqual(noted.masked, [{ kind: "openai-key", count: 1 }]);
    await assertNoSecrets(store);
    assert.deepEqual(logged, [`memory_note ${noted.id}: secrets masked (1 openai-key)`, `memory_note ${plain.id}: secrets masked (1 password-value)`]);
  });

  test("cooling masks a secret in distilled facts before writing them, and logs event -> fact", async () => {
    await using store = await openTempStore();
    await importHistory(store.client, [message("I paid with my usual card", { conversation: "c" })]);
    const ask = async () => JSON.stringify({ triples: [{ subject: "Ann", predicate: "pays with card", object: CARD, kind: "entity", confidence: 0.9, importance: 0.5 }] });
    const logged: string[] = [];
    const run = await coolOnce({ client: store.client, ask, now: () => Date.UTC(2030, 0, 1), log: (l) => logged.push(l) });
    assert.equal(run.facts, 1);
    await assertNoSecrets(store);
    assert.equal(await count(store, "SELECT count(*) FROM blocks WHERE content = '[secret masked: card-number]'"), 1);
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /^cooling ev_[0-9a-f]{24} -> fact_[0-9a-f-]{36}: secrets masked \(1 card-number\)$/);
  });

  test("a chat turn's L1 event is masked in its text, parts and tool-call arguments; the arguments stay JSON", async () => {
    await using store = await openTempStore();
    const logged: string[] = [];
    const engine = createContextEngine({ client: store.client, logger: { info: (l: string) => logged.push(l) } });
    await engine.append("sess", "Mia", {
      id: "ev-1",
      time: "2026-01-01T10:00:00Z",
      messages: [
        { role: "user", content: [{ type: "text", text: `use ${OPENAI} please` }] },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "login", arguments: JSON.stringify({ user: "ann", password: PASSWORD, card: 4111111111111111 }) } }],
        },
        { role: "tool", tool_call_id: "c1", content: "ok" },
        { role: "assistant", content: "done" },
      ],
    });
    await engine.append("sess", "Mia", { id: "ev-2", time: "2026-01-01T10:01:00Z", messages: [{ role: "user", content: "the token economy, order 4111111111111112" }] });
    await assertNoSecrets(store);
    const rows = await store.client.execute("SELECT id, messages FROM events ORDER BY seq");
    const first = JSON.parse(String(rows.rows[0]!.messages));
    assert.deepEqual(JSON.parse(first[1].tool_calls[0].function.arguments), { user: "ann", password: "[secret masked: password-value]", card: "[secret masked: card-number]" });
    assert.equal(first[0].content[0].text, "use [secret masked: openai-key] please");
    assert.equal(JSON.parse(String(rows.rows[1]!.messages))[0].content, "the token economy, order 4111111111111112", "a look-alike turn is stored as said");
    assert.deepEqual(
      logged.filter((l) => l.includes("masked")),
      ["session sess: event ev-1: secrets masked (1 openai-key, 1 password-value, 1 card-number)"],
    );
  });

  test("homed import (a child process) logs the masking on stderr with the line and event id, and stores no secret", async () => {
    const dir = testDir("homed-secrets-");
    try {
      const history = join(dir, "history.jsonl");
      const line = (id: string, text: string) => JSON.stringify({ conversation: "c", session: "s", time: "2024-05-08T13:56:00Z", speaker: "Ann", role: "user", text, id });
      writeFileSync(history, `${line("1", "hello")}\n${line("2", `my key ${OPENAI} and card ${CARD}`)}\n`);
      const data = join(dir, "data");
      const out = await run([...SOURCE_HOMED, "import", "-data", data, history]);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stderr, /import ev_[0-9a-f]{24} \(line 2\): secrets masked \(1 openai-key, 1 card-number\)/);
      assert.ok(!out.stderr.includes(OPENAI.slice(3, 23)) && !out.stdout.includes(OPENAI.slice(3, 23)));
      const store = await openStore({ url: `file:${join(data, "homed.db")}` });
      try {
        await assertNoSecrets(store);
        assert.equal(await count(store, "SELECT count(*) FROM events"), 2);
      } finally {
        store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
