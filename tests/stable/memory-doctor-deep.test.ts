/**
 * memory_doctor { deep: true } on a real store: each deep check fails on the fault it exists for
 * (a vector that is not its text's, a fact stored twice, an audited id that no longer resolves, a
 * threshold that can never be met), and passes on a healthy store.
 */
import { describe, test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { createFallbackEmbedder } from "../../src/embed/index.ts";
import { OWNER, configureFusion, DEFAULT_INJECTION, FusionConfigSchema, runMemoryTool, type MemoryToolContext } from "../../src/memory/index.ts";
import { kernelHarness, type Harness } from "../kernel/support.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Check = { check: string; ok: boolean; detail: string };
const deep = async (ctx: MemoryToolContext) => ((await runMemoryTool("memory_doctor", { deep: true }, ctx)) as { ok: boolean; checks: Check[] }).checks;
const named = (checks: Check[], name: string) => checks.find((c) => c.check === name)!;

describe("memory doctor, deep", () => {
  test("each deep check fails on its fault", async () => {
    h = await kernelHarness(() => ({ content: "ok" }));
    const ctx: MemoryToolContext = { client: h.store.client, embedder: createFallbackEmbedder(), access: OWNER };
    // A chat turn: L1 events with the fallback model's vectors, and an injection audit naming a fact.
    const noted = (await runMemoryTool("memory_note", { subject: "the spare key", predicate: "hangs", object: "behind the fuse box" }, ctx)) as { id: string };
    const session = await h.kernel.sessions.open("test", "Ann");
    await h.kernel.turn({ session, input: "where does the spare key hang?" });
    let checks = await deep(ctx);
    for (const name of ["vectors", "duplicates", "audit ids", "thresholds"]) assert.equal(named(checks, name).ok, true, JSON.stringify(named(checks, name)));
    assert.match(named(checks, "vectors").detail, /cosine 1\.0000/);

    // A vector that is not its text's (another model's, or corrupted bytes).
    // Every event's, so whichever the check picks is wrong.
    const [other] = await ctx.embedder!.embedTexts(["whales sing in the cold northern sea"], { purpose: "write" });
    await h.store.client.execute({ sql: "UPDATE events SET embedding = ? WHERE embedding IS NOT NULL", args: [new Uint8Array(other!.buffer, other!.byteOffset, other!.byteLength)] });
    // A fact stored twice (as an old bug could have left it).
    const columns = (await h.store.client.execute("SELECT name FROM pragma_table_info('triples') WHERE name <> 'id'")).rows.map((r) => String(r.name)).join(", ");
    await h.store.client.execute({ sql: `INSERT INTO triples (id, ${columns}) SELECT 'fact_twin', ${columns} FROM triples WHERE id = ?`, args: [noted.id] });
    checks = await deep(ctx);
    assert.equal(named(checks, "vectors").ok, false, named(checks, "vectors").detail);
    assert.equal(named(checks, "duplicates").ok, false);
    assert.match(named(checks, "duplicates").detail, /fact_twin/);

    // An audited id that no longer resolves.
    await runMemoryTool("memory_forget", { id: noted.id }, ctx);
    assert.equal(named(await deep(ctx), "audit ids").ok, false);

    // A minimum score no memory can reach: under RRF, above 2/61 (words and grams both first).
    configureFusion({ method: "rrf", weights: {} });
    const thresholds = named(await deep({ ...ctx, injection: { ...DEFAULT_INJECTION, minScore: 0.05 } }), "thresholds");
    configureFusion(FusionConfigSchema.parse({}));
    assert.equal(thresholds.ok, false);
    assert.match(thresholds.detail, /nothing would ever be injected/);
  });
});
