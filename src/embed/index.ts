export { loadOnnxRuntime, createOnnxSession, ort } from "./onnx-runtime.ts";
export { runTinyModel, TINY_INPUT, TINY_EXPECTED } from "./onnx-check.ts";
