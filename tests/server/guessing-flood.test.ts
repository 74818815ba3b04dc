/**
 * A flood of wrong logins against a real daemon (issue 31.7): 200 concurrent clients on four
 * loopback addresses for 3 s. Answered guesses stay within each address's rate, the admin logs in
 * from another address during the flood at once, and the audit lines survive the flood that
 * rotates the daemon log (its cap set small in homed.json) because they are in `<data>/audit.log`.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request } from "node:http";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FREE_FAILURES, MAX_WAITING_PER_SOURCE, SOURCE_GUESSES_PER_S } from "../../src/server/login-throttle.ts";
import { startApiDaemon, type ApiDaemon } from "../support/api-daemon.ts";
import { tempDir } from "../support/temp-dir.ts";

const CLIENTS = 200;
const ADDRESSES = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];
const FLOOD_MS = 3_000;
/** The bound this test holds the daemon to, per address (docs/security.md states it). */
const MAX_GUESSES_PER_S_PER_ADDRESS = 10;

/** A login POST from a chosen loopback address (node:http binds the client's side; fetch cannot). */
function loginFrom(localAddress: string, url: string, token: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const payload = JSON.stringify({ token });
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/login`,
      { method: "POST", localAddress, agent: false, headers: { "content-type": "application/json", "x-homed-request": "1", "content-length": Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

describe("a flood of wrong logins", () => {
  const data = tempDir("homed-guessing-flood-");
  let daemon: ApiDaemon | undefined;
  after(async () => {
    await daemon?.stop();
    data.remove();
  });

  test("is answered at each address's rate, lets the admin in from elsewhere at once, and leaves the audit lines in audit.log", async () => {
    // A daemon log of 2 KiB and one rotated part: the flood's WARN lines rotate it many times.
    writeFileSync(join(data.path, "homed.json"), JSON.stringify({ log: { maxFileBytes: 2048, keepRotated: 1 } }));
    daemon = await startApiDaemon(data.path);
    const url = daemon.url;
    const token = readFileSync(join(data.path, "admin.token"), "utf8").trim();
    assert.equal((await loginFrom("127.0.0.1", url, token)).status, 200);
    const provider = await fetch(`${url}/api/providers`, {
      method: "POST",
      headers: daemon.headers,
      body: JSON.stringify({ name: "Audited", baseUrl: "https://api.example.com/v1", model: "m1", apiKey: "sk-audited-0001" }),
    });
    assert.equal(provider.status, 201);

    const started = performance.now();
    const until = started + FLOOD_MS;
    const statuses = new Map<string, number[]>(ADDRESSES.map((a) => [a, []]));
    let slowest = 0;
    let guess = 0;
    const client = async (address: string) => {
      while (performance.now() < until) {
        const answer = await loginFrom(address, url, `guess-${guess++}`);
        statuses.get(address)!.push(answer.status);
        if (answer.status === 401) slowest = Math.max(slowest, answer.ms);
      }
    };
    const flood = Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(ADDRESSES[i % ADDRESSES.length]!)));
    // Mid-flood, the admin from another address.
    await new Promise((resolve) => setTimeout(resolve, FLOOD_MS / 2));
    const admin = await loginFrom("127.0.0.1", url, token);
    await flood;
    const seconds = (performance.now() - started) / 1000;

    assert.equal(admin.status, 200);
    assert.ok(admin.ms < 1_000, `the admin's login took ${admin.ms.toFixed(0)} ms during the flood`);
    let answered = 0;
    for (const [address, list] of statuses) {
      const wrong = list.filter((s) => s === 401).length;
      const refused = list.filter((s) => s === 429).length;
      assert.equal(wrong + refused, list.length, `${address}: only 401 (a guess answered) and 429 (refused unread)`);
      // Each address: its free failures, then its rate, over the whole time answers kept coming.
      assert.ok(wrong <= FREE_FAILURES + Math.ceil(SOURCE_GUESSES_PER_S * seconds) + 1, `${address}: ${wrong} guesses answered in ${seconds.toFixed(1)} s`);
      assert.ok(wrong / seconds < MAX_GUESSES_PER_S_PER_ADDRESS, `${address}: ${(wrong / seconds).toFixed(1)} guesses/s`);
      assert.ok(refused > 0, `${address}: past its waiting answers, requests are refused unread`);
      answered += wrong;
    }
    // The waiting set is capped: no answer waits longer than a full queue takes to drain.
    assert.ok(slowest <= ((MAX_WAITING_PER_SOURCE + 1) / SOURCE_GUESSES_PER_S) * 1000 + 1000, `a wrong answer waited ${slowest.toFixed(0)} ms`);
    console.log(`flood: ${CLIENTS} clients, ${seconds.toFixed(1)} s: ${answered} guesses answered (${(answered / seconds).toFixed(1)}/s in all), admin login ${admin.ms.toFixed(0)} ms`);

    await daemon.stop();
    daemon = undefined;
    // The daemon log rotated: its files no longer hold the first login or the provider line…
    const logs = readdirSync(join(data.path, "logs")).map((name) => readFileSync(join(data.path, "logs", name), "utf8"));
    assert.ok(
      logs.some((text) => text.includes("failed console login")),
      "the flood is in the daemon log",
    );
    assert.ok(!logs.some((text) => text.includes("provider added")), "the flood rotated the provider line out of the daemon log");
    // …and audit.log keeps them, with the failures as a few counted lines.
    const audit = readFileSync(join(data.path, "audit.log"), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { event: string; who: string; remote?: string; outcome: string; count?: number; detail?: string });
    const logins = audit.filter((l) => l.event === "console_login" && l.outcome === "ok");
    assert.deepEqual(
      logins.map((l) => [l.who, l.remote]),
      [
        ["console", "127.0.0.1"],
        ["console", "127.0.0.1"],
      ],
    );
    const added = audit.find((l) => l.event === "provider_added")!;
    assert.equal(added.who, "admin");
    assert.match(added.detail!, /"Audited": https:\/\/api\.example\.com\/v1, model m1, key set/);
    assert.ok(!JSON.stringify(audit).includes("sk-audited-0001"), "never the key");
    const failed = audit.filter((l) => l.event === "console_login" && l.outcome === "failed");
    assert.equal(
      failed.reduce((n, l) => n + l.count!, 0),
      answered,
      "every answered guess is counted",
    );
    assert.ok(failed.length <= 2 * ADDRESSES.length, `${failed.length} summary lines for ${answered} failures (one per address a minute)`);
  });
});
