/**
 * The cooling job killed with SIGKILL in the middle and started again: every event is
 * distilled exactly once and no fact is lost.
 */
import { describe, test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createClient } from "@libsql/client";
import { startScriptedProvider } from "../support/scripted-provider.ts";
import { scriptCommand, until } from "../support/process.ts";
import { distilledText, message, storeWith } from "./support.ts";

const WORKER = fileURLToPath(new URL("./fixtures/cooling-worker.ts", import.meta.url));
const EVENTS = 30;

describe("cooling crash safety", () => {
  test("kill -9 mid-run, restart: each event distilled exactly once, nothing lost", async () => {
    const { store, url } = await storeWith(Array.from({ length: EVENTS }, (_, i) => message(i, `fact number ${i}`)));
    store.close();
    const provider = await startScriptedProvider((req) => ({
      delayMs: 15,
      content: JSON.stringify({ triples: [{ subject: "Mia", predicate: "noted", object: distilledText(req.body), kind: "event", scope: "conversation", confidence: 1, importance: 0.5 }] }),
    }));
    after(() => provider.close());

    const [command, ...args] = scriptCommand(WORKER);
    const first = spawn(command!, [...args, url, provider.url], { stdio: "ignore" });
    const firstExit = new Promise((resolve) => first.on("exit", resolve));
    await until(() => provider.requests.length >= 12, "the first worker to be midway");
    first.kill("SIGKILL");
    await firstExit;

    const client = createClient({ url });
    const midway = Number((await client.execute("SELECT count(*) AS n FROM events WHERE layer = 'L3'")).rows[0]!.n);
    assert.ok(midway > 0 && midway < EVENTS, `midway ${midway} of ${EVENTS} distilled`);

    const second = spawn(command!, [...args, url, provider.url], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    second.stdout!.on("data", (d) => (out += d));
    assert.equal(await new Promise((resolve) => second.on("exit", resolve)), 0);
    assert.match(out, /done/);

    assert.equal((await client.execute("PRAGMA integrity_check")).rows[0]![0], "ok");
    const perEvent = await client.execute(
      "SELECT e.id, e.layer, e.text, count(t.id) AS facts, group_concat(o.content) AS objects FROM events e LEFT JOIN triples t ON t.source_event_id = e.id LEFT JOIN blocks o ON o.id = t.object_block_id GROUP BY e.id",
    );
    assert.equal(perEvent.rows.length, EVENTS);
    for (const row of perEvent.rows) {
      assert.equal(row.layer, "L3");
      assert.equal(Number(row.facts), 1, `event "${row.text}" has ${row.facts} facts`);
      assert.equal(row.objects, row.text);
    }
    assert.equal(Number((await client.execute("SELECT count(*) AS n FROM blocks WHERE holder <> 'L3'")).rows[0]!.n), 0);
    client.close();
  });
});
