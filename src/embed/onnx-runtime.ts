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

/** Creates an inference session from model bytes. */
export async function createOnnxSession(model: Uint8Array): Promise<ort.InferenceSession> {
  const runtime = await loadOnnxRuntime();
  return await runtime.InferenceSession.create(model);
}
