/**
 * Chooses the embedder a process uses, and says why in one plain sentence. An OpenAI-compatible
 * endpoint, when configured, is an explicit choice and wins. Otherwise an installed sentence
 * encoder (`homed model pull`) runs, else Chinese-CLIP when
 * its folder is present and sound. Beside a text-only model (endpoint or sentence encoder) an
 * installed Chinese-CLIP still embeds images, in its own vector space (`withImageModel`); a missing model means the fallback (the normal state of a
 * fresh install), a broken one means the fallback *and* a `degraded` flag so doctor fails.
 * Configuration that cannot work (an unreadable key file) is refused at start-up: silently falling back would hide a mistake the user just made.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { withImageModel, type Embedder } from "./embedder.ts";
import { CLIP_FOLDER_NAME, readClipFolder } from "./clip-folder.ts";
import { createClipEmbedder } from "./clip-onnx.ts";
import { createFallbackEmbedder } from "./fallback.ts";
import { createHttpEmbedder } from "./http-embedder.ts";
import { findClipModel, findSentenceModel } from "./model-roots.ts";
import { readSentenceFolder } from "./sentence-folder.ts";
import { createSentenceEmbedder, type SentenceEmbedder } from "./sentence-onnx.ts";
import { HomedError } from "../errors/index.ts";

export type HttpEmbedSettings = {
  baseUrl: string;
  model: string;
  /** Asked of the model with `dimensions`; absent: its own width (any width is stored). */
  dimension?: number;
  /** Key given through the environment (HOMED_EMBED_API_KEY). */
  apiKey?: string;
  /** File holding the key; read here, never logged. */
  keyFile?: string;
  queryBudgetMs: number;
  /** Where the endpoint was set, for the reason line: the flags (default) or the console's homed.json. */
  source?: "homed.json";
};

export type EmbedSettings = {
  modelsDir: string;
  /** Packaged models (model-roots.ts), searched after modelsDir. */
  systemModelsDir?: string;
  threads: number;
  http?: HttpEmbedSettings;
};

export type EmbedderKind = "sentence" | "chinese-clip" | "openai" | "fallback";

export type ActiveEmbedder = {
  embedder: Embedder;
  kind: EmbedderKind;
  /** Why this embedder is active, for logs, doctor, stats and the console. */
  reason: string;
  /** True when a configured model could not be used and the fallback stands in. */
  degraded: boolean;
};

export class EmbedConfigError extends HomedError {
  constructor(message: string, options?: ErrorOptions) {
    super("embed_config", message, options);
    this.name = "EmbedConfigError";
  }
}

const FALLBACK_NOTE = "using the fallback embedder (character n-gram hashing: lexical similarity only, no meaning, no images)";

function readKey(http: HttpEmbedSettings): string | undefined {
  if (!http.keyFile) return http.apiKey;
  try {
    const key = readFileSync(http.keyFile, "utf8").trim();
    if (!key) throw new Error("the file is empty");
    return key;
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new EmbedConfigError(`Cannot read the embeddings API key from ${http.keyFile}: ${reason}`, { cause: error });
  }
}

function openHttp(http: HttpEmbedSettings): ActiveEmbedder {
  const embedder = createHttpEmbedder({ ...http, apiKey: readKey(http) });
  return {
    embedder,
    kind: "openai",
    reason: `OpenAI-compatible ${http.baseUrl} model ${http.model} (${http.source === "homed.json" ? "saved from the console in homed.json" : "set by -embed-url"})`,
    degraded: false,
  };
}

/**
 * A text-only model with Chinese-CLIP beside it for images, when CLIP is installed: the text
 * model is the better sentence retriever, and CLIP is the only model here that reads images.
 * A CLIP folder that does not load leaves images without vectors, said in the reason.
 */
async function besideClip(text: ActiveEmbedder, settings: EmbedSettings): Promise<ActiveEmbedder> {
  const dir = findClipModel(settings);
  // ONNX Runtime's WASM threads cannot start here (see openEmbedder); an endpoint alone needs none.
  if (!dir || settings.threads > 1) return text;
  try {
    const clip = await createClipEmbedder(readClipFolder(dir), { numThreads: settings.threads });
    if (!clip.embedImages) {
      await clip.close();
      return text;
    }
    return { ...text, embedder: withImageModel(text.embedder, clip), reason: `${text.reason}; images by Chinese-CLIP ViT-B/16 from ${clip.description} (${clip.modelId}, its own vector space)` };
  } catch (error) {
    const why = (error as Error).message.replace(/^Cannot load Chinese-CLIP from [^:]+: /, "");
    return { ...text, reason: `${text.reason}; images get no vectors: the Chinese-CLIP model in ${dir} is unusable: ${why}` };
  }
}

/**
 * The embedder whose vectors are stored and searched, or undefined for the fallback. Its vectors
 * are character n-gram hashes the grams channel already ranks (with IDF weighting they lack), so
 * recall never searches them, and writing them is most of an import's cost: a DiskANN insert and
 * ~26 KB per record (10k messages: 2,300 messages/s without, 290 with). Records stored without a
 * vector get a real model's by backfill, which embeds whatever lacks the active model's vector.
 */
export const vectorEmbedder = (active: ActiveEmbedder): Embedder | undefined => (active.kind === "fallback" ? undefined : active.embedder);

/** Opens the active embedder; only configuration mistakes throw (EmbedConfigError). */
export async function openEmbedder(settings: EmbedSettings): Promise<ActiveEmbedder> {
  if (settings.http) return besideClip(openHttp(settings.http), settings);
  if (settings.threads > 1) {
    // Measured: ONNX Runtime's threaded WASM starts its workers from blob: URLs through
    // node:worker_threads, which Bun cannot load; the worker error then kills the process.
    throw new EmbedConfigError(`Cannot use -embed-threads ${settings.threads}: ONNX Runtime's WASM threads cannot start under this runtime (its workers load from blob: URLs); use 1`);
  }
  const fallback = createFallbackEmbedder();
  // A sentence encoder, when installed, is the text model: CLIP's text tower is a weak sentence retriever.
  const sentenceDir = findSentenceModel(settings);
  if (sentenceDir) {
    let sentence: SentenceEmbedder;
    try {
      sentence = await createSentenceEmbedder(readSentenceFolder(sentenceDir), { numThreads: settings.threads });
    } catch (error) {
      const why = (error as Error).message.replace(/^Cannot load the sentence encoder in [^:]+: /, "");
      return { embedder: fallback, kind: "fallback", reason: `the sentence encoder in ${sentenceDir} is unusable: ${why}; ${FALLBACK_NOTE}`, degraded: true };
    }
    return besideClip({ embedder: sentence, kind: "sentence", reason: `sentence encoder ${sentence.description}`, degraded: false }, settings);
  }
  const dir = findClipModel(settings);
  if (!dir) {
    const where = join(settings.modelsDir, CLIP_FOLDER_NAME);
    return { embedder: fallback, kind: "fallback", reason: `no Chinese-CLIP model in ${where}; ${FALLBACK_NOTE}`, degraded: false };
  }
  try {
    const clip = await createClipEmbedder(readClipFolder(dir), { numThreads: settings.threads });
    return { embedder: clip, kind: "chinese-clip", reason: `Chinese-CLIP ViT-B/16 from ${clip.description}`, degraded: false };
  } catch (error) {
    const why = (error as Error).message.replace(/^Cannot load Chinese-CLIP from [^:]+: /, "");
    return { embedder: fallback, kind: "fallback", reason: `the Chinese-CLIP model in ${dir} is unusable: ${why}; ${FALLBACK_NOTE}`, degraded: true };
  }
}
