import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { activeScene, buildInjection, declareScene, DEFAULT_INJECTION, DEFAULT_SCENES, listScenes, observeScene, similarity, type Fingerprint } from "../../src/memory/index.ts";
import type { Store } from "../../src/store/index.ts";
import { message, storeWith } from "./support.ts";

let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

const T0 = Date.UTC(2025, 5, 1, 9);
const work: Fingerprint = { channel: "qq", partner: "group_1", tools: ["shell"], topic: ["deploy", "server"], timeOfDay: "morning" };

describe("scenes", () => {
  test("similarity is the weighted share of matching features", () => {
    assert.equal(similarity(work, work), 1);
    assert.ok(Math.abs(similarity({ channel: "qq" }, work) - 1 / 3.4) < 1e-9);
    assert.ok(Math.abs(similarity({ channel: "qq", partner: "group_1" }, work) - 2 / 3.4) < 1e-9);
  });

  test("each feature's weight: channel 1.0, partner 1.0, tools 0.8, topic 0.4, time of day 0.2 (of 3.4)", () => {
    const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);
    close(similarity({ partner: "group_1" }, work), 1 / 3.4, "partner");
    close(similarity({ tools: ["shell"] }, work), 0.8 / 3.4, "tools");
    close(similarity({ topic: ["deploy", "server"] }, work), 0.4 / 3.4, "topic");
    close(similarity({ timeOfDay: "morning" }, work), 0.2 / 3.4, "time of day");
  });

  test("joining takes similarity ≥ 0.5: 0.53 joins, 0.47 stays a candidate of its own", async () => {
    ({ store } = await storeWith([]));
    await observeScene(store.client, work, T0);
    const { sceneId } = await observeScene(store.client, work, T0);
    // Channel, topic and time of day: (1.0 + 0.4 + 0.2) / 3.4 ≈ 0.47.
    const near = { channel: "qq", partner: "bob", tools: ["browser"], topic: ["deploy", "server"], timeOfDay: "morning" };
    assert.ok(Math.abs(similarity(near, work) - 1.6 / 3.4) < 1e-9);
    assert.deepEqual(await observeScene(store.client, near, T0), { outcome: "candidate" });
    // Channel and tools: (1.0 + 0.8) / 3.4 ≈ 0.53.
    const closer = { channel: "qq", partner: "carol", tools: ["shell"], topic: ["lunch"], timeOfDay: "evening" };
    assert.ok(Math.abs(similarity(closer, work) - 1.8 / 3.4) < 1e-9);
    assert.deepEqual(await observeScene(store.client, closer, T0), { sceneId, outcome: "joined" });
  });

  test("a scene is active for recall at similarity ≥ 0.35: 0.47 and 0.353 are, 0.29 is not", async () => {
    ({ store } = await storeWith([]));
    await observeScene(store.client, work, T0);
    const { sceneId } = await observeScene(store.client, work, T0);
    // Channel, topic, time of day: 1.6 / 3.4 ≈ 0.47 (active, though it would not join).
    assert.equal(await activeScene(store.client, { channel: "qq", partner: "bob", topic: ["deploy", "server"], timeOfDay: "morning" }), sceneId);
    // Channel and time of day: 1.2 / 3.4 ≈ 0.353.
    assert.equal(await activeScene(store.client, { channel: "qq", partner: "bob", timeOfDay: "morning" }), sceneId);
    // Channel alone: 1.0 / 3.4 ≈ 0.29.
    assert.equal(await activeScene(store.client, { channel: "qq", partner: "bob", timeOfDay: "evening" }), undefined);
  });

  test("the active scene is found without reading candidates: a turn's cost does not grow with one-offs", async () => {
    ({ store } = await storeWith([]));
    await observeScene(store.client, work, T0);
    const { sceneId } = await observeScene(store.client, work, T0);
    // One-off situations, each a candidate of its own (other channels, so none joins another).
    for (let i = 0; i < 20; i++) await observeScene(store.client, { channel: `chan-${i}`, partner: `p-${i}`, timeOfDay: "night" }, T0);
    let rowsRead = 0;
    const client = new Proxy(store.client, {
      get(target, key) {
        if (key === "execute")
          return async (stmt: never) => {
            const r = await target.execute(stmt);
            rowsRead += r.rows.length;
            return r;
          };
        const value = Reflect.get(target, key) as unknown;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    assert.equal(await activeScene(client, work), sceneId);
    assert.equal(rowsRead, 1, "only the one scene is read, none of the 20 candidates");
  });

  test("a one-off interaction creates no scene; the second occurrence does", async () => {
    ({ store } = await storeWith([]));
    assert.deepEqual(await observeScene(store.client, work, T0), { outcome: "candidate" });
    assert.deepEqual(await listScenes(store.client, T0), []);
    const second = await observeScene(store.client, { ...work, topic: ["deploy", "logs"] }, T0 + 3600_000);
    assert.equal(second.outcome, "created");
    const scenes = await listScenes(store.client, T0 + 3600_000);
    assert.equal(scenes.length, 1);
    assert.equal(scenes[0]!.occurrences, 2);
    assert.ok(scenes[0]!.strength > 1.99 && scenes[0]!.strength <= 2);
    const third = await observeScene(store.client, work, T0 + 7200_000);
    assert.deepEqual(third, { sceneId: scenes[0]!.id, outcome: "joined" });
  });

  test("unrelated situations do not join each other", async () => {
    ({ store } = await storeWith([]));
    await observeScene(store.client, work, T0);
    await observeScene(store.client, { channel: "telegram", partner: "mum", tools: [], topic: ["dinner"], timeOfDay: "evening" }, T0);
    assert.deepEqual(await listScenes(store.client, T0), []);
  });

  test("a declared scene takes features from its key only and does not swallow its channel", async () => {
    ({ store } = await storeWith([]));
    const declared = await declareScene(store.client, "chan:qq/peer:group_1", T0);
    assert.deepEqual(declared.features, { channel: "qq", partner: "group_1" });
    const stranger = await observeScene(store.client, { channel: "qq", partner: "alice", tools: ["shell"], topic: ["deploy"], timeOfDay: "morning" }, T0);
    assert.equal(stranger.outcome, "candidate");
    const member = await observeScene(store.client, work, T0);
    assert.deepEqual(member, { sceneId: declared.id, outcome: "joined" });
    assert.equal((await listScenes(store.client, T0)).find((s) => s.id === declared.id)!.occurrences, 1);
  });

  test("an idle scene decays by half every half-life", async () => {
    ({ store } = await storeWith([]));
    await observeScene(store.client, work, T0);
    await observeScene(store.client, work, T0);
    const fresh = (await listScenes(store.client, T0))[0]!.strength;
    const later = (await listScenes(store.client, T0 + DEFAULT_SCENES.halfLifeMs))[0]!.strength;
    assert.ok(Math.abs(later - fresh / 2) < 1e-9);
  });

  test("recall favours memories of the active scene", async () => {
    ({ store } = await storeWith([
      message(0, "the deploy script needs the staging key", { sourceId: "a" }),
      message(100, "the deploy script needs the staging key", { sourceId: "b", session: "s2" }),
    ]));
    await observeScene(store.client, work, T0);
    const { sceneId } = await observeScene(store.client, work, T0);
    const [first, second] = (await store.client.execute("SELECT id FROM events ORDER BY time")).rows.map((r) => String(r.id));
    await store.client.execute({ sql: "UPDATE events SET scene_id = ? WHERE id = ?", args: [sceneId!, second!] });
    assert.equal(await activeScene(store.client, { channel: "qq", partner: "group_1", timeOfDay: "evening" }), sceneId);
    const neutral = await buildInjection(store.client, "deploy script key", { conversation: "conv-a", config: DEFAULT_INJECTION });
    const biased = await buildInjection(store.client, "deploy script key", { conversation: "conv-a", config: DEFAULT_INJECTION, sceneId });
    assert.equal(biased.lines[0]!.id, second);
    assert.ok(neutral.lines.some((l) => l.id === first));
  });
});

describe("scenes through the kernel", () => {
  test("the second turn in the same situation makes a scene and tags its events", async () => {
    const { kernelHarness } = await import("../kernel/support.ts");
    const h = await kernelHarness(() => ({ content: "ok" }));
    try {
      const session = await h.kernel.sessions.open("qq", "group_1");
      await h.kernel.turn({ session, input: "deploy the server" });
      assert.deepEqual(await listScenes(h.store.client), []);
      await h.kernel.turn({ session, input: "deploy the server again" });
      const scenes = await listScenes(h.store.client);
      assert.equal(scenes.length, 1);
      const tagged = await h.store.client.execute({ sql: "SELECT count(*) AS n FROM events WHERE scene_id = ?", args: [scenes[0]!.id] });
      assert.ok(Number(tagged.rows[0]!.n) >= 2);
    } finally {
      await h.close();
    }
  });
});
