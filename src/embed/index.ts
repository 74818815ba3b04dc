export { embedText, normalize, cosine, type Embedder } from "./embedder.ts";
export { createFallbackEmbedder, hashEmbed } from "./fallback.ts";
export { loadOnnxRuntime, createOnnxSession, ort } from "./onnx-runtime.ts";
export { runTinyModel, TINY_INPUT, TINY_EXPECTED } from "./onnx-check.ts";
export { WordPieceTokenizer, basicTokenize, CONTEXT_LENGTH } from "./wordpiece.ts";
export { decodeImage, sniffFormat, ImageDecodeError, type RgbImage } from "./image-decode.ts";
export { preprocessForClip, CLIP_MEAN, CLIP_STD, CLIP_IMAGE_SIZE } from "./clip-preprocess.ts";
