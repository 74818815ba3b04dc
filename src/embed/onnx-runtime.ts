/**
 * ONNX Runtime on its WASM backend, in process. The `onnxruntime-web/wasm` bundle entry is used
 * with `env.wasm.wasmBinary` set from the embedded .wasm: the default entry imports
 * `ort-wasm-simd-threaded.mjs` at run time, which does not exist inside the binary.
 */
import * as ort from "onnxruntime-web/wasm";
import { readAsset } from "../runtime/index.ts";

export { ort };

let ready: Promise<typeof ort> | undefined;

/** Initialises ONNX Runtime once. `numThreads` 1 unless measured otherwise (DESIGN §1). */
export function loadOnnxRuntime(numThreads = 1): Promise<typeof ort> {
  ready ??= readAsset("ort.wasm").then((bytes) => {
    ort.env.wasm.wasmBinary = bytes;
    ort.env.wasm.numThreads = numThreads;
    return ort;
  });
  return ready;
}

export type SessionOptions = {
  /** Weights stored outside the model (`location` in the model → bytes), as the fp16 export does. */
  externalData?: { path: string; data: Uint8Array }[];
  /** WASM threads; only the first session of the process sets it (ONNX Runtime initialises once). */
  numThreads?: number;
};

/** Creates an inference session from model bytes. */
export async function createOnnxSession(model: Uint8Array, options: SessionOptions = {}): Promise<ort.InferenceSession> {
  const runtime = await loadOnnxRuntime(options.numThreads);
  return await runtime.InferenceSession.create(model, options.externalData ? { externalData: options.externalData } : {});
}
