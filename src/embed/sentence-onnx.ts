/**
 * The in-process sentence encoder driver: a BERT-family ONNX model (inputs `input_ids`,
 * `attention_mask`, `token_type_ids`, int64 [1, n]; output `last_hidden_state` float32
 * [1, n, hidden]) run by ONNX Runtime (WASM). A text becomes [CLS] word pieces [SEP], one text
 * per run (no padding, so the mask is all ones and mean pooling is the plain mean), then the
 * [CLS] row or the mean of the rows, L2-normalised when the model's config says so.
 */
import { analysedPart } from "../text/index.ts";
import { EmbedError, normalize, type EmbedOptions, type Embedder } from "./embedder.ts";
import { createOnnxSession, ort } from "./onnx-runtime.ts";
import type { SentenceConfig, SentenceFolder } from "./sentence-folder.ts";
import { WordPieceTokenizer } from "./wordpiece.ts";

const INPUTS = ["input_ids", "attention_mask", "token_type_ids"] as const;
const OUTPUT = "last_hidden_state";

export type SentenceEmbedder = Embedder & { readonly description: string; close(): Promise<void> };

/** Pools the rows of `hidden` ([tokens, width], row-major) into one vector. */
export function poolHidden(hidden: Float32Array, tokens: number, pooling: SentenceConfig["pooling"]): Float32Array {
  const width = hidden.length / tokens;
  if (pooling === "cls") return hidden.slice(0, width);
  const out = new Float32Array(width);
  for (let t = 0; t < tokens; t++) for (let j = 0; j < width; j++) out[j]! += hidden[t * width + j]!;
  for (let j = 0; j < width; j++) out[j]! /= tokens;
  return out;
}

export async function createSentenceEmbedder(folder: SentenceFolder, options: { numThreads?: number } = {}): Promise<SentenceEmbedder> {
  const { config } = folder;
  const tokenizer = new WordPieceTokenizer(folder.vocab);
  const session = await createOnnxSession(folder.model, { numThreads: options.numThreads ?? 1 });
  const missing = [...INPUTS.filter((name) => !session.inputNames.includes(name)).map((n) => `input '${n}'`), ...(session.outputNames.includes(OUTPUT) ? [] : [`output '${OUTPUT}'`])];
  if (missing.length) {
    await session.release();
    throw new EmbedError(`Cannot use ${folder.dir}: it is not a BERT-style sentence encoder, no ${missing.join(", ")} (has ${session.inputNames.join(", ")} → ${session.outputNames.join(", ")})`);
  }
  // One WASM session runs one inference at a time; queue callers instead of failing them.
  let queue: Promise<unknown> = Promise.resolve();
  const embedOne = (text: string): Promise<Float32Array> => {
    const ids = [tokenizer.cls, ...tokenizer.tokenize(text).slice(0, config.maxTokens - 2), tokenizer.sep];
    const n = ids.length;
    const feeds = {
      input_ids: new ort.Tensor("int64", BigInt64Array.from(ids, BigInt), [1, n]),
      attention_mask: new ort.Tensor("int64", new BigInt64Array(n).fill(1n), [1, n]),
      token_type_ids: new ort.Tensor("int64", new BigInt64Array(n), [1, n]),
    };
    const result = queue.then(async () => {
      const output = (await session.run(feeds))[OUTPUT];
      if (!output) throw new EmbedError(`Cannot embed: ${folder.dir} returned no '${OUTPUT}'`);
      const vector = poolHidden(output.data as Float32Array, n, config.pooling);
      return config.normalize ? normalize(vector) : vector;
    });
    queue = result.catch(() => undefined);
    return result;
  };
  let dimension: number;
  try {
    dimension = (await embedOne("")).length;
  } catch (error) {
    await session.release();
    throw error;
  }
  return {
    modelId: `${config.name}@${dimension}`,
    dimension,
    description: `${config.name} from ${folder.dir} (${config.pooling} pooling${config.normalize ? ", normalised" : ""})`,
    async embedTexts(texts: readonly string[], embedOptions: EmbedOptions = {}) {
      const prefix = embedOptions.purpose === "query" ? config.queryPrefix : config.passagePrefix;
      const out: Float32Array[] = [];
      // Only the analysed part (`text/limits.ts`): the model reads maxTokens, no more.
      for (const text of texts) out.push(await embedOne(prefix + analysedPart(text)));
      return out;
    },
    close: () => session.release(),
  };
}
