/**
 * Chinese/mixed word segmentation with jieba (jieba-wasm). The web entry is used and given the
 * embedded wasm bytes: the Node entry reads its .wasm beside `__dirname`, which does not exist
 * inside the compiled binary. Text goes to jieba in bounded pieces (`pieces.ts`): one call on a
 * 50 MB line exhausted the wasm memory.
 */
import initJieba, { cut, cut_for_search } from "jieba-wasm/web";
import { readAsset } from "../runtime/index.ts";
import { mapPieces } from "./pieces.ts";

let ready: Promise<void> | undefined;

/** Loads the segmenter once; later calls share the same promise. */
export function loadJieba(): Promise<void> {
  ready ??= readAsset("jieba.wasm").then(async (bytes) => {
    await initJieba({ module_or_path: bytes });
  });
  return ready;
}

/** Precise-mode words, whitespace dropped. */
export async function segment(text: string): Promise<string[]> {
  await loadJieba();
  return (await mapPieces(text, (piece) => cut(piece, true))).flat().filter((w) => w.trim().length > 0);
}

/** Search-mode words: long words are also split into their sub-words, for recall. */
export async function segmentForSearch(text: string): Promise<string[]> {
  await loadJieba();
  return (await mapPieces(text, (piece) => cut_for_search(piece, true))).flat().filter((w) => w.trim().length > 0);
}
