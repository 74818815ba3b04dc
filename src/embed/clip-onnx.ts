/**
 * The Chinese-CLIP driver: text and image encoders of the official ONNX export, run in process
 * by ONNX Runtime (WASM). Text: WordPiece ids, int64 `text` [1, 52] → `unnorm_text_features`.
 * Images: decode, resize/crop/normalise, float32 `image` [1, 3, 224, 224] →
 * `unnorm_image_features`. Both L2-normalised, so text and images share one cosine space.
 */
import { analysedPart } from "../text/index.ts";
import { EmbedError, normalize, type Embedder } from "./embedder.ts";
import { recordManifest, type ClipFolder, type EncoderFiles } from "./clip-folder.ts";
import { CLIP_IMAGE_SIZE, preprocessForClip } from "./clip-preprocess.ts";
import { decodeImage } from "./image-decode.ts";
import { createOnnxSession, ort } from "./onnx-runtime.ts";
import { CONTEXT_LENGTH, WordPieceTokenizer } from "./wordpiece.ts";

const CLIP_MODEL_NAME = "chinese-clip-vit-b16";

export type ClipEmbedder = Embedder & {
  /** How the folder was loaded, for status lines: precisions, manifest, image support. */
  readonly description: string;
  close(): Promise<void>;
};

type Encoder = { run(input: ort.Tensor): Promise<Float32Array>; release(): Promise<void> };

async function openEncoder(files: EncoderFiles, inputName: string, outputName: string, numThreads: number): Promise<Encoder> {
  const externalData = files.extra ? [{ path: files.extra.name, data: files.extra.data }] : undefined;
  const session = await createOnnxSession(files.model, { externalData, numThreads });
  const missing = [
    session.inputNames.includes(inputName) ? "" : `input '${inputName}' (has ${session.inputNames.join(", ")})`,
    session.outputNames.includes(outputName) ? "" : `output '${outputName}' (has ${session.outputNames.join(", ")})`,
  ].filter(Boolean);
  if (missing.length) {
    await session.release();
    throw new EmbedError(`Cannot use ${files.modelName}: it is not a Chinese-CLIP export, no ${missing.join(" and no ")}`);
  }
  // One WASM session runs one inference at a time; queue callers instead of failing them.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    run(input) {
      const result = queue.then(async () => {
        const outputs = await session.run({ [inputName]: input });
        const output = outputs[outputName];
        if (!output) throw new EmbedError(`Cannot embed: ${files.modelName} returned no '${outputName}'`);
        return new Float32Array(output.data as Float32Array);
      });
      queue = result.catch(() => undefined);
      return result;
    },
    release: () => session.release(),
  };
}

/** Loads both encoders, proves the text one answers, then records the manifest. */
export async function createClipEmbedder(folder: ClipFolder, options: { numThreads?: number } = {}): Promise<ClipEmbedder> {
  const numThreads = options.numThreads ?? 1;
  const tokenizer = new WordPieceTokenizer(folder.vocab);
  const text = await openEncoder(folder.text, "text", "unnorm_text_features", numThreads);
  let image: Encoder | undefined;
  try {
    image = folder.image ? await openEncoder(folder.image, "image", "unnorm_image_features", numThreads) : undefined;
  } catch (error) {
    await text.release();
    throw error;
  }
  const embedOne = async (input: string) => normalize(await text.run(new ort.Tensor("int64", tokenizer.encode(input), [1, CONTEXT_LENGTH])));
  const embedImage = async (bytes: Uint8Array) => {
    const pixels = preprocessForClip(await decodeImage(bytes));
    return normalize(await image!.run(new ort.Tensor("float32", pixels, [1, 3, CLIP_IMAGE_SIZE, CLIP_IMAGE_SIZE])));
  };

  let dimension: number;
  try {
    dimension = (await embedOne("")).length;
    if (image) {
      const imageDim = (await image.run(new ort.Tensor("float32", new Float32Array(3 * CLIP_IMAGE_SIZE ** 2), [1, 3, CLIP_IMAGE_SIZE, CLIP_IMAGE_SIZE]))).length;
      if (imageDim !== dimension) throw new EmbedError(`Cannot use ${folder.dir}: text vectors have ${dimension} dimensions, image vectors ${imageDim}`);
    }
  } catch (error) {
    await Promise.all([text.release(), image?.release()]);
    throw error;
  }
  const manifest = recordManifest(folder);
  const precisions = [`text ${folder.text.precision}`, folder.image ? `image ${folder.image.precision}` : "no image encoder"];

  const embedder: ClipEmbedder = {
    modelId: `${CLIP_MODEL_NAME}@${dimension}`,
    dimension,
    description: `${folder.dir} (${precisions.join(", ")}; ${manifest})`,
    async embedTexts(texts) {
      const out: Float32Array[] = [];
      // The export's text input is fixed at batch 1, so texts go through one by one.
      // Only the analysed part (`text/limits.ts`): the model reads 52 tokens, and tokenizing all of
      // a 15 MB text to keep 52 would hold the daemon.
      for (const t of texts) out.push(await embedOne(analysedPart(t)));
      return out;
    },
    close: async () => {
      await Promise.all([text.release(), image?.release()]);
    },
  };
  if (image) {
    embedder.embedImages = async (images) => {
      const out: Float32Array[] = [];
      for (const bytes of images) out.push(await embedImage(bytes));
      return out;
    };
  }
  return embedder;
}
