/**
 * `homed doctor`: real checks, each doing the thing it vouches for (open, query, segment, run a
 * model, write a file) rather than looking for files. Probes that write to the database do so
 * inside a transaction that is rolled back, so doctor leaves no trace in the user's memory.
 */
import type { Client, Transaction } from "@libsql/client";
import { ensureWritableDir } from "../config/index.ts";
import { openEmbedder, runTinyModel, TINY_EXPECTED, withSavedEmbedder, type EmbedSettings } from "../embed/index.ts";
import { fullTextProbe, integrityCheck, migrationStatus, openStore, redactDbUrl, vectorTopOneProbe, type Store } from "../store/index.ts";
import { segment, segmentForSearch } from "../text/index.ts";
import { pluginDependencyChecks } from "./plugin-deps.ts";

/** `warn`: the check passed, but something the user should fix degrades homed (exit code unaffected). */
export type CheckResult = { name: string; ok: boolean; detail: string; warn?: boolean };

/** What a check returns when it passed with a warning. */
type Warning = { warn: string };

export type DoctorOptions = { dataDir: string; dbUrl: string; dbSyncUrl?: string; dbAuthToken?: string; embed?: EmbedSettings };

type Check = { name: string; run: () => Promise<string | Warning> };

/** Runs a probe in a write transaction and always rolls it back. */
async function probeInRollback<T>(client: Client, probe: (tx: Transaction) => Promise<T>): Promise<T> {
  const tx = await client.transaction("write");
  try {
    return await probe(tx);
  } finally {
    await tx.rollback();
    tx.close();
  }
}

function storeChecks(store: () => Store): Check[] {
  return [
    {
      name: "database integrity",
      run: async () => {
        const verdict = await integrityCheck(store().client);
        if (verdict !== "ok") throw new Error(`integrity_check says: ${verdict}`);
        return "PRAGMA integrity_check ok";
      },
    },
    {
      name: "migrations current",
      run: async () => {
        const status = await migrationStatus(store().client);
        if (status.pending > 0) throw new Error(`${status.pending} of ${status.known} migrations not applied`);
        return `${status.applied}/${status.known} applied`;
      },
    },
    {
      name: "vector search",
      run: () =>
        probeInRollback(store().client, async (tx) => {
          const { top, dimension } = await vectorTopOneProbe(tx, Date.now());
          if (top !== "doctor-b") throw new Error(`top-1 should be doctor-b, got ${String(top)}`);
          return `top-k over a model's own DiskANN table (F32_BLOB(${dimension})) found the nearest`;
        }),
    },
    {
      name: "full-text search",
      run: () =>
        probeInRollback(store().client, async (tx) => {
          const found = await fullTextProbe(tx);
          if (found.words !== "doctor") throw new Error("BM25 word search of memories found nothing");
          if (found.grams !== "doctor") throw new Error("BM25 trigram search of memories found nothing");
          if (found.facts !== "doctor") throw new Error("FTS5 word search of facts found nothing");
          return "BM25 over memories (words, trigrams) and FTS5 over facts answer";
        }),
    },
  ];
}

/**
 * Which embedder is active and why. Opening Chinese-CLIP already runs it once; an endpoint is
 * asked for one query vector within its budget. A broken model that the fallback replaces
 * fails the check: recall still works, but without meaning, and the user should know.
 */
function embedderCheck(settings: EmbedSettings): Check {
  return {
    name: "embedder",
    run: async () => {
      const active = await openEmbedder(settings);
      try {
        if (active.degraded) throw new Error(active.reason);
        if (active.kind === "openai") {
          const started = performance.now();
          await active.embedder.embedTexts(["homed doctor"], { purpose: "query" });
          return `${active.embedder.modelId} answered in ${Math.round(performance.now() - started)} ms: ${active.reason}`;
        }
        // Not a failure (a fresh install runs so), but recall has no sense of meaning: say how to fix it.
        if (active.kind === "fallback") {
          return {
            warn: `${active.embedder.modelId}: ${active.reason}; recall matches words and characters only — install a model: homed model pull bge-small-zh-v1.5 (or -embed-url an OpenAI-compatible endpoint)`,
          };
        }
        return `${active.embedder.modelId}: ${active.reason}`;
      } finally {
        await active.embedder.close?.();
      }
    },
  };
}

function standaloneChecks(): Check[] {
  return [
    {
      name: "jieba",
      run: async () => {
        const sentence = "我们在北京天安门广场看升旗仪式";
        const precise = await segment(sentence);
        if (precise.join("") !== sentence || precise.length < 4) {
          throw new Error(`bad segmentation: ${precise.join("/")}`);
        }
        const search = await segmentForSearch(sentence);
        const missing = ["北京", "天安门", "广场", "升旗"].filter((w) => !search.includes(w));
        if (missing.length) throw new Error(`search mode misses ${missing.join(", ")}: ${search.join("/")}`);
        return precise.join("/");
      },
    },
    {
      name: "onnx runtime",
      run: async () => {
        const out = await runTinyModel();
        const close = out.length === TINY_EXPECTED.length && out.every((v, i) => Math.abs(v - TINY_EXPECTED[i]!) < 1e-5);
        if (!close) throw new Error(`expected [${TINY_EXPECTED}], got [${out.map((v) => v.toFixed(4))}]`);
        return `wasm backend computed [${out.map((v) => v.toFixed(2)).join(", ")}]`;
      },
    },
  ];
}

export async function runDoctor(options: DoctorOptions, report: (result: CheckResult) => void): Promise<boolean> {
  let allOk = true;
  const record = (name: string, ok: boolean, detail: string, warn?: boolean) => {
    allOk &&= ok;
    report(warn ? { name, ok, detail, warn } : { name, ok, detail });
  };
  const attempt = async (check: Check) => {
    try {
      const result = await check.run();
      if (typeof result === "string") record(check.name, true, result);
      else record(check.name, true, result.warn, true);
    } catch (error) {
      record(check.name, false, (error as Error).message);
    }
  };

  await attempt({
    name: "data folder writable",
    run: async () => {
      ensureWritableDir(options.dataDir);
      return options.dataDir;
    },
  });

  let store: Store | undefined;
  try {
    store = await openStore({ url: options.dbUrl, syncUrl: options.dbSyncUrl, authToken: options.dbAuthToken });
    record("database opens", true, redactDbUrl(options.dbUrl));
  } catch (error) {
    record("database opens", false, (error as Error).message);
  }
  try {
    for (const check of storeChecks(() => store!)) {
      if (store) await attempt(check);
      else record(check.name, false, "skipped: the database did not open");
    }
  } finally {
    store?.close();
  }
  for (const check of standaloneChecks()) await attempt(check);
  for (const check of pluginDependencyChecks()) await attempt(check);
  if (options.embed) await attempt(embedderCheck(withSavedEmbedder(options.dataDir, options.embed)));
  return allOk;
}

export function formatResult(result: CheckResult): string {
  return `${!result.ok ? "FAIL" : result.warn ? "WARN" : "ok  "} ${result.name.padEnd(22)} ${result.detail}`;
}
