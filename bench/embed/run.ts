/**
 * bench/embed: what the embedder costs, each number beside a baseline measured in the same run.
 *
 * - WordPiece tokenizer throughput on real Chinese (MADial memories) and English (LoCoMo turns)
 *   text, with a vocabulary shaped like Chinese-CLIP's (every CJK ideograph plus the words
 *   seen); baseline: gpt-tokenizer (o200k_base), the BPE tokenizer already in the project.
 * - Image preprocessing (decode + bicubic resize + crop + normalise) for 640×480 JPEG, PNG and
 *   WebP; baseline: decoding alone.
 * - ONNX session overhead per call with the tiny Chinese-CLIP (it computes almost nothing, so
 *   the time is the runtime's); baseline: the fallback embedder per call.
 * - libSQL vector index: ingest rate into F32_BLOB(512) with the events index settings, and
 *   top-k latency at 10k/100k vectors (BENCH_EMBED_SIZES), against the same table without an
 *   index (ingest) and an exact full scan (top-k), with the index's recall@10 against exact;
 *   clustered vectors by default, BENCH_EMBED_DATA=random for the worst case.
 *
 * - Per-model vector tables (issue 16): a history import into a real store whose model has its
 *   own indexed table (filled by triggers), at 512 and 1536 dims; baselines: the old design (one
 *   DiskANN index on events.embedding, 512 only) and no index at all; file size for each, and
 *   the time to build a model's table on first use from vectors already stored.
 *
 * Never fails: a section that cannot run prints why and the rest go on.
 */
import { createClient } from "@libsql/client";
import { encode as bpeEncode } from "gpt-tokenizer/encoding/o200k_base";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createClipEmbedder, createFallbackEmbedder, decodeImage, preprocessForClip, readClipFolder, WordPieceTokenizer } from "../../src/embed/index.ts";
import { TINY_CLIP_DIR, tinyVocab } from "../../tests/fixtures/make-tiny-clip.ts";
import { jpegFile, pngFile, webpFile } from "../../tests/embed/images.ts";
import { scratchDir } from "../scratch.ts";
import { importHistory } from "../../src/memory/index.ts";
import { ensureVectorSpace, openStore } from "../../src/store/index.ts";
import { statSync } from "node:fs";

const DATA = "/work/shared/data";

/** Runs `fn` repeatedly for about `ms` and returns calls per second. */
async function rate(fn: () => unknown, ms = 1500): Promise<number> {
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    await fn();
    n++;
  }
  return (n * 1000) / (performance.now() - started);
}

async function section(name: string, body: () => Promise<void>): Promise<void> {
  console.log(`\n-- ${name}`);
  try {
    await body();
  } catch (error) {
    console.log(`(skipped: ${(error as Error).message})`);
  }
}

function sampleTexts(): { zh: string[]; en: string[] } {
  const lines = (file: string) =>
    readFileSync(join(DATA, file), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  const zh = lines("madial/memory-dev.jsonl").map((m) => (Object.values(m)[0] as { event: string }).event);
  for (const d of lines("madial/dialogue-dev.jsonl") as { dialogue: string[] }[]) {
    for (const u of d.dialogue) if (!u.startsWith("<BOD>") && !u.startsWith("<EOD>")) zh.push(u.trim());
  }
  const en: string[] = [];
  for (const conv of JSON.parse(readFileSync(join(DATA, "locomo/locomo-dev.json"), "utf8"))) {
    for (const [key, turns] of Object.entries(conv.conversation)) {
      if (/^session_\d+$/.test(key)) for (const t of turns as { text: string }[]) en.push(t.text);
    }
  }
  return { zh, en };
}

await section("tokenizer: WordPiece (Chinese-CLIP) vs gpt-tokenizer o200k_base", async () => {
  const { zh, en } = sampleTexts();
  const words = new Set<string>();
  for (const t of en) for (const w of t.toLowerCase().split(/[^a-z]+/)) if (w) words.add(w);
  const cjk = Array.from({ length: 0x9fa5 - 0x4e00 + 1 }, (_, i) => String.fromCodePoint(0x4e00 + i));
  const tokenizer = new WordPieceTokenizer([...tinyVocab(), ...cjk, ...words].join("\n"));
  console.log(`vocab ${tokenizer.vocab.size} entries; ${zh.length} Chinese texts (${zh.join("").length} chars), ${en.length} English turns`);
  for (const [lang, texts] of [
    ["zh", zh],
    ["en", en],
  ] as const) {
    // gpt-tokenizer caches what it has encoded, so each text is measured once: warm both up on
    // the first fifth of the corpus, then time one pass over the rest.
    const cut = Math.floor(texts.length / 5);
    for (let r = 0; r < 5; r++) for (const t of texts.slice(0, cut)) tokenizer.encode(t), bpeEncode(t);
    const rest = texts.slice(cut);
    const chars = rest.reduce((s, t) => s + t.length, 0);
    const time = (fn: (t: string) => unknown) => {
      const started = performance.now();
      for (const t of rest) fn(t);
      return chars / ((performance.now() - started) / 1000);
    };
    const ours = time((t) => tokenizer.encode(t));
    const bpe = time((t) => bpeEncode(t));
    console.log(`${lang}: WordPiece ${(ours / 1e6).toFixed(2)} M chars/s   baseline o200k BPE ${(bpe / 1e6).toFixed(2)} M chars/s   (ratio ${(ours / bpe).toFixed(2)}×)`);
  }
});

await section("image preprocessing, 640×480 → [1,3,224,224]", async () => {
  const pixel = (x: number, y: number): [number, number, number] => [(x * 7) & 255, (y * 3) & 255, (x ^ y) & 255];
  const files = { jpeg: jpegFile(640, 480, pixel, 90), png: pngFile(640, 480, pixel), webp: await webpFile(640, 480, pixel) };
  for (const [name, bytes] of Object.entries(files)) {
    await rate(async () => preprocessForClip(await decodeImage(bytes)), 300); // warm-up, so order does not favour either
    const decodeOnly = await rate(() => decodeImage(bytes));
    const full = await rate(async () => preprocessForClip(await decodeImage(bytes)));
    console.log(
      `${name.padEnd(5)} ${(bytes.byteLength / 1024).toFixed(0).padStart(5)} kB: decode+resize+crop+normalise ${full.toFixed(1)} images/s   baseline decode only ${decodeOnly.toFixed(1)} images/s`,
    );
  }
});

await section("ONNX session overhead per call (tiny Chinese-CLIP)", async () => {
  const dir = join(scratchDir("bench-clip-"), "m");
  cpSync(join(TINY_CLIP_DIR, "fp32"), dir, { recursive: true });
  const loadStarted = performance.now();
  const clip = await createClipEmbedder(readClipFolder(dir));
  console.log(`load (read, hash, 2 sessions, probe): ${(performance.now() - loadStarted).toFixed(0)} ms`);
  const fallback = createFallbackEmbedder();
  const text = "我们在北京天安门广场看升旗仪式";
  const clipText = await rate(() => clip.embedTexts([text]));
  const tensor = preprocessForClip(await decodeImage(pngFile(224, 224, () => [1, 2, 3])));
  const png = pngFile(224, 224, () => [1, 2, 3]);
  const clipImage = await rate(() => clip.embedImages!([png]));
  const prep = await rate(async () => preprocessForClip(await decodeImage(png)));
  const hash = await rate(() => fallback.embedTexts([text]));
  console.log(`text:  ${(1000 / clipText).toFixed(3)} ms/call (tokenize + run + normalise)   baseline fallback hash ${(1000 / hash).toFixed(3)} ms/call`);
  console.log(`image: ${(1000 / clipImage).toFixed(3)} ms/call (224×224 PNG), of which decode+preprocess ${(1000 / prep).toFixed(3)} ms (tensor ${tensor.length} floats)`);
  await clip.close();
});

/** xorshift32: a seeded stream, so every run ingests the same vectors. */
function xorshift(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 0xffffffff) * 2 - 1;
  };
}

function unitVector(values: (i: number) => number): Float32Array {
  const v = Float32Array.from({ length: 512 }, (_, i) => values(i));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/**
 * Test vectors. `random`: uniform on the sphere, the worst case for any ANN index (no
 * structure to exploit). `clustered` (default): points around 1000 topic centres, closer to
 * how sentence embeddings sit (many near neighbours on the same subject).
 */
const DATA_KIND = process.env.BENCH_EMBED_DATA === "random" ? "random" : "clustered";
const CENTRES = Array.from({ length: 1000 }, (_, c) => {
  const next = xorshift(7_000_000 + c);
  return unitVector(() => next());
});

function testVector(seed: number): Float32Array {
  const next = xorshift(seed);
  if (DATA_KIND === "random") return unitVector(() => next());
  const centre = CENTRES[Math.floor(((next() + 1) / 2) * 999.999)]!;
  return unitVector((i) => centre[i]! + 0.06 * next());
}

const blob = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

await section(`libSQL vector index (F32_BLOB(512), DiskANN, events index settings; ${DATA_KIND} vectors)`, async () => {
  const sizes = (process.env.BENCH_EMBED_SIZES ?? "10000,100000")
    .split(",")
    .map(Number)
    .filter((n) => n > 0);
  for (const size of sizes) {
    const dir = scratchDir("bench-vec-");
    const client = createClient({ url: `file:${join(dir, "v.db")}` });
    await client.execute("PRAGMA journal_mode=WAL");
    await client.execute("CREATE TABLE plain (id INTEGER PRIMARY KEY, embedding F32_BLOB(512))");
    await client.execute("CREATE TABLE indexed (id INTEGER PRIMARY KEY, embedding F32_BLOB(512))");
    await client.execute("CREATE INDEX indexed_idx ON indexed (libsql_vector_idx(embedding, 'metric=cosine', 'compress_neighbors=float8', 'max_neighbors=32'))");
    const ingest = async (table: string) => {
      const started = performance.now();
      for (let from = 0; from < size; from += 500) {
        const batch = [];
        for (let i = from; i < Math.min(size, from + 500); i++) batch.push({ sql: `INSERT INTO ${table} (id, embedding) VALUES (?, ?)`, args: [i, blob(testVector(i + 1))] });
        await client.batch(batch, "write");
      }
      return size / ((performance.now() - started) / 1000);
    };
    console.log(`${size} vectors: ingesting (the indexed table takes a while)…`);
    const plainRate = await ingest("plain");
    const indexedRate = await ingest("indexed");
    console.log(`${size} vectors: ingest with index ${indexedRate.toFixed(0)} vectors/s   baseline without index ${plainRate.toFixed(0)} vectors/s`);

    const queries = Array.from({ length: 50 }, (_, q) => testVector(1_000_000 + q));
    let annMs = 0;
    let exactMs = 0;
    let hits = 0;
    for (const q of queries) {
      let started = performance.now();
      const ann = await client.execute({ sql: "SELECT id FROM vector_top_k('indexed_idx', ?, 10)", args: [blob(q)] });
      annMs += performance.now() - started;
      started = performance.now();
      const exact = await client.execute({ sql: "SELECT id FROM plain ORDER BY vector_distance_cos(embedding, ?) LIMIT 10", args: [blob(q)] });
      exactMs += performance.now() - started;
      const truth = new Set(exact.rows.map((r) => Number(r.id)));
      hits += ann.rows.filter((r) => truth.has(Number(r.id))).length;
    }
    console.log(
      `${size} vectors: top-10 via index ${(annMs / queries.length).toFixed(2)} ms/query (recall@10 ${(hits / (queries.length * 10)).toFixed(3)})   baseline exact scan ${(exactMs / queries.length).toFixed(2)} ms/query`,
    );
    client.close();
  }
});

await section("per-model vector tables: import with the model's index (issue 16)", async () => {
  const size = Number(process.env.BENCH_EMBED_IMPORT ?? 3000);
  const embedderOf = (dimension: number) => ({
    modelId: `bench@${dimension}`,
    dimension,
    embedTexts: async (texts: readonly string[]) =>
      texts.map((t) => {
        const next = xorshift(t.length * 7919 + t.charCodeAt(t.length - 1));
        const v = new Float32Array(dimension).map(() => next());
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      }),
  });
  const messages = Array.from({ length: size }, (_, i) => ({
    conversation: "bench",
    session: `s${i >> 5}`,
    time: 1_700_000_000_000 + i * 60_000,
    speaker: "Ann",
    role: "user" as const,
    text: `message ${i}: ${"we talked about the trip and the weather ".slice(0, 10 + (i % 30))}`,
    sourceId: `m${i}`,
  }));
  const run = async (label: string, dimension: number, prepare: (store: Awaited<ReturnType<typeof openStore>>) => Promise<void>) => {
    const dir = scratchDir("bench-space-");
    const store = await openStore({ url: `file:${join(dir, "homed.db")}` });
    const embedder = embedderOf(dimension);
    await importHistory(
      store.client,
      messages.slice(0, 1).map((m) => ({ ...m, sourceId: "seed" })),
      { embedder },
    );
    await prepare(store);
    const started = performance.now();
    await importHistory(store.client, messages, { embedder });
    const rate = size / ((performance.now() - started) / 1000);
    await store.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    const mb = statSync(join(dir, "homed.db")).size / 1e6;
    let built = "";
    if (label === "no index yet") {
      const t = performance.now();
      await ensureVectorSpace(store.client, embedder.modelId);
      built = `; building its table afterwards (first use) ${((performance.now() - t) / 1000).toFixed(1)} s`;
    }
    console.log(`${label.padEnd(32)} ${dimension}-dim: import ${rate.toFixed(0)} messages/s, file ${mb.toFixed(1)} MB${built}`);
    store.close();
  };
  await run("baseline: old events index", 512, async (store) => {
    await store.client.execute("CREATE INDEX events_embedding_idx ON events (libsql_vector_idx(embedding, 'metric=cosine', 'compress_neighbors=float8', 'max_neighbors=32'))");
  });
  await run("no index yet", 512, async () => {});
  await run("model's own table (triggers)", 512, async (store) => void (await ensureVectorSpace(store.client, "bench@512")));
  await run("model's own table (triggers)", 1536, async (store) => void (await ensureVectorSpace(store.client, "bench@1536")));
});
