import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import {
  OWNER,
  auditInjection,
  configureFusion,
  FusionConfigSchema,
  buildInjection,
  DEFAULT_INJECTION,
  InjectionConfigSchema,
  listInjections,
  recordCitations,
  shortId,
  writeFact,
  type NewFact,
} from "../../src/memory/index.ts";
import type { Embedder } from "../../src/embed/index.ts";
import { VECTOR_DIM, type Store } from "../../src/store/index.ts";
import { message, storeWith } from "./support.ts";

let store: Store | undefined;
afterEach(() => {
  store?.close();
  store = undefined;
});

async function facts(...list: Partial<NewFact>[]) {
  const ids: string[] = [];
  for (const f of list) {
    const tx = await store!.client.transaction("write");
    ids.push((await writeFact(tx, { subject: "Mia", predicate: "likes", object: "tea", kind: "preference", scope: "conv-a", confidence: 0.9, importance: 0.3, evidence: "manual", ...f })).id);
    await tx.commit();
    tx.close();
  }
  return ids;
}

const inject = (input: string, config = DEFAULT_INJECTION, conversation = "conv-a") => buildInjection(store!.client, input, { conversation, config });

describe("recall injection", () => {
  test("lines carry (id:xxxxxxxx) and an evidence mark, L2 and L3 together, in bands", async () => {
    ({ store } = await storeWith([message(0, "We booked the ferry to Xiamen for the 14th."), message(1, "The dentist appointment is on Friday.")]));
    const [fact] = await facts({ predicate: "is travelling to", object: "Xiamen by ferry" });
    const injection = await inject("when is the ferry to Xiamen?");
    assert.equal(injection.counts.L3, 1);
    assert.ok(injection.counts.L2 >= 1);
    const l3 = injection.lines.find((l) => l.layer === "L3")!;
    assert.equal(l3.line, `- (id:${shortId(fact!)}) [L3 · written by hand] Mia is travelling to Xiamen by ferry`);
    const l2 = injection.lines.find((l) => l.layer === "L2")!;
    assert.match(l2.line, /^- \(id:[a-zA-Z0-9]{8}\) \[L2 · verbatim source\] Mia: We booked the ferry to Xiamen for the 14th\.$/);
    assert.equal(injection.lines[0]!.band, "IMMEDIATE");
    assert.match(injection.text, /^Memory \(cite the id/);
    assert.equal(injection.chars, injection.text.length);
  });

  test("one turn's recall embeds its query once for both layers (a model call each time otherwise)", async () => {
    ({ store } = await storeWith([message(0, "We booked the ferry to Xiamen for the 14th.")]));
    await facts({ predicate: "is travelling to", object: "Xiamen by ferry" });
    const queries: string[] = [];
    const embedder: Embedder = {
      modelId: "counting@512",
      dimension: VECTOR_DIM,
      embedTexts: async (texts, options) => {
        if (options?.purpose === "query") queries.push(...texts);
        return texts.map(() => new Float32Array(VECTOR_DIM).fill(1));
      },
    };
    const injection = await buildInjection(store!.client, "when is the ferry to Xiamen?", { conversation: "conv-a", config: DEFAULT_INJECTION, embedder });
    assert.equal(injection.counts.L3, 1);
    assert.deepEqual(queries, ["when is the ferry to Xiamen?"]);
  });

  test("nothing is injected below the score floor, and nothing at all when nothing matches", async () => {
    ({ store } = await storeWith([message(0, "The dentist appointment is on Friday.")]));
    const injection = await inject("quantum chromodynamics lecture notes");
    assert.deepEqual(injection.lines, []);
    assert.equal(injection.text, "");
    // Under RRF a first place in both channels is 2/61 ≈ .033: a floor of .5 is never reached.
    configureFusion({ method: "rrf", weights: {} });
    try {
      const strict = InjectionConfigSchema.parse({ minScore: 0.5 });
      assert.deepEqual((await inject("dentist appointment", strict)).lines, []);
    } finally {
      configureFusion(FusionConfigSchema.parse({}));
    }
  });

  test("band budgets cap items and characters; long memories are cut", async () => {
    const many = Array.from({ length: 12 }, (_, i) => message(i, `Garden note ${i}: the tomatoes need water ${"and care ".repeat(i * 10)}`));
    ({ store } = await storeWith(many));
    const config = InjectionConfigSchema.parse({ bands: { immediate: { items: 1, chars: 400 }, working: { items: 2, chars: 500 }, background: { items: 1, chars: 200 } }, lineChars: 150 });
    const injection = await inject("garden tomatoes water", config);
    const per = (band: string) => injection.lines.filter((l) => l.band === band);
    assert.equal(per("IMMEDIATE").length, 1);
    assert.ok(per("WORKING").length <= 2);
    assert.ok(per("BACKGROUND").length <= 1);
    for (const band of ["IMMEDIATE", "WORKING", "BACKGROUND"] as const) {
      const chars = per(band).reduce((n, l) => n + l.line.length, 0);
      assert.ok(chars <= config.bands[band.toLowerCase() as "immediate"].chars, `${band} used ${chars}`);
    }
    assert.ok(injection.lines.every((l) => l.line.length <= 150 + 40));
  });

  test("the active window: up to two important facts, every turn, even when unmatched", async () => {
    ({ store } = await storeWith([]));
    await facts(
      { predicate: "prefers answers in", object: "Chinese", importance: 0.95, kind: "convention" },
      { predicate: "is allergic to", object: "peanuts", importance: 0.9, scope: "user" },
      { predicate: "owns", object: "a red bicycle", importance: 0.8 },
      { predicate: "mentioned", object: "the weather", importance: 0.2 },
    );
    const injection = await inject("what should I cook tonight?");
    const active = injection.lines.filter((l) => l.band === "ACTIVE").map((l) => l.line);
    assert.equal(active.length, 2);
    assert.match(active[0]!, /prefers answers in Chinese/);
    assert.match(active[1]!, /allergic to peanuts/);
    const none = InjectionConfigSchema.parse({ activeWindow: { max: 0, minImportance: 0.7, chars: 400 } });
    assert.equal((await inject("what should I cook tonight?", none)).lines.length, 0);
  });

  test("a very short input falls back to recent + important memories", async () => {
    ({ store } = await storeWith([message(0, "older thing"), message(1, "we were discussing the tax form")]));
    await facts({ predicate: "prefers", object: "short answers", importance: 0.9 });
    const injection = await inject("继续");
    assert.match(injection.lines[0]!.line, /tax form/);
    assert.ok(injection.lines.some((l) => l.band === "ACTIVE"));
    assert.equal((await inject("go on")).lines[0]!.line.includes("tax form"), true);
  });

  test("a short input's recent memories: the conversation's and user-wide ones, newest first, never another conversation's or another partner's", async () => {
    ({ store } = await storeWith([
      message(0, "user-wide: allergic to peanuts", { conversation: "profile", scope: "user", sourceId: "u0" }),
      message(1, "own: the tax form is due", { sourceId: "a1" }),
      message(2, "other: the boat trip", { conversation: "conv-b", sourceId: "b2" }),
      message(3, "own, private to Bob: the surprise party", { sourceId: "a3", privateTo: "partner:Bob" }),
      message(4, "user-wide: prefers tea", { conversation: "profile", scope: "user", sourceId: "u4" }),
      message(5, "own: we were discussing the receipts", { sourceId: "a5" }),
    ]));
    const texts = async (options: { conversation?: string; prefer?: string; viewer?: { partner: string } }) =>
      (await buildInjection(store!.client, "继续", { ...options, config: { ...DEFAULT_INJECTION, activeWindow: { ...DEFAULT_INJECTION.activeWindow, max: 0 } } })).lines.map((l) =>
        l.line.replace(/^.*\] /, ""),
      );
    assert.deepEqual(await texts({ prefer: "conv-a", viewer: { partner: "Ann" } }), [
      "own: we were discussing the receipts",
      "user-wide: prefers tea",
      "own: the tax form is due",
      "user-wide: allergic to peanuts",
    ]);
    assert.deepEqual((await texts({ prefer: "conv-a", viewer: { partner: "Bob" } }))[1], "user-wide: prefers tea");
    assert.ok((await texts({ prefer: "conv-a", viewer: { partner: "Bob" } })).includes("own, private to Bob: the surprise party"));
    assert.deepEqual(await texts({ prefer: "conv-new", viewer: { partner: "Zed" } }), ["user-wide: prefers tea", "user-wide: allergic to peanuts"]);
    assert.equal((await texts({})).length, 5, "no conversation: the newest cold events of all");
  });

  test("scope: another conversation's facts are never injected; user-wide ones are", async () => {
    ({ store } = await storeWith([]));
    await facts({ predicate: "plays", object: "badminton on Sundays", scope: "conv-b" }, { predicate: "plays", object: "chess online", scope: "user" });
    const lines = (await inject("what does Mia play?")).lines.map((l) => l.line).join("\n");
    assert.doesNotMatch(lines, /badminton/);
    assert.match(lines, /chess/);
  });

  test("cited ids gain weight next time", async () => {
    ({ store } = await storeWith([]));
    const [a, b] = await facts({ predicate: "visited", object: "Lijiang old town" }, { predicate: "visited", object: "Dali old town" });
    const first = await inject("which old town did Mia visit?");
    const second = first.lines.find((l) => l.layer === "L3" && l.band !== "ACTIVE" && l.id !== first.lines[0]!.id)!;
    const cited = await recordCitations(store.client, `You visited it (id:${shortId(second.id)}).`, first.lines);
    assert.deepEqual(cited, [second.id]);
    const again = await inject("which old town did Mia visit?");
    assert.equal(again.lines[0]!.id, second.id, "the cited fact now ranks first");
    assert.ok([a, b].includes(second.id));
  });

  test("every injection is audited; only the newest are kept", async () => {
    ({ store } = await storeWith([message(0, "The car is parked on level 3, spot 42.")]));
    for (let i = 0; i < 5; i++) await auditInjection(store.client, "s1", await inject(`where is the car parked ${i}`), 3);
    const audit = await listInjections(store.client, { limit: 10, access: OWNER });
    assert.equal(audit.length, 3);
    assert.equal(audit[0]!.query, "where is the car parked 4");
    assert.deepEqual(audit[0]!.counts, { L2: 1, L3: 0 });
    assert.equal(audit[0]!.ids[0]!.layer, "L2");
    assert.ok(audit[0]!.chars > 0);
  });

  test("bad thresholds are refused with their name", () => {
    assert.throws(() => InjectionConfigSchema.parse({ activeWindow: { max: 5, minImportance: 0.7, chars: 400 } }), /max/);
    assert.throws(() => InjectionConfigSchema.parse({ minScore: -1 }), /minScore|too small|>=/);
  });
});

describe("L3 vector channel", () => {
  /** Maps texts to hand-chosen directions, so a paraphrase with no shared word is near. */
  const conceptEmbedder = {
    modelId: "concepts@512",
    dimension: 512,
    embedTexts: async (texts: readonly string[]) =>
      texts.map((t) => {
        const v = new Float32Array(512);
        v[/car|automobile|vehicle/i.test(t) ? 0 : /tea|drink/i.test(t) ? 1 : 2] = 1;
        return v;
      }),
  };

  test("cooling gives facts vectors; a paraphrase with no shared word finds them", async () => {
    ({ store } = await storeWith([message(0, "I finally bought a car last week."), message(1, "I drink jasmine tea every morning.")]));
    const { coolOnce, stableQuery } = await import("../../src/memory/index.ts");
    await coolOnce({ client: store.client, now: () => 10 * 24 * 3600_000, embedder: conceptEmbedder });
    const tagged = await store.client.execute("SELECT count(*) AS n FROM triples WHERE embed_model = 'concepts@512'");
    assert.equal(Number(tagged.rows[0]!.n), 2);
    const lexical = await stableQuery(store.client, "which automobile", { k: 5, conversation: "conv-a" });
    assert.deepEqual(lexical, []);
    const found = await stableQuery(store.client, "which automobile", { k: 5, conversation: "conv-a", embedder: conceptEmbedder });
    assert.match(found[0]!.text, /bought a car/);
  });
});
