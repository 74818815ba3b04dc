/**
 * Chinese/mixed word segmentation with jieba (jieba-wasm). The web entry is used and given the
 * embedded wasm bytes: the Node entry reads its .wasm beside `__dirname`, which does not exist
 * inside the compiled binary.
 */
import initJieba, { cut, cut_for_search } from "jieba-wasm/web";
import { readAsset } from "../runtime/index.ts";

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
  return cut(text, true).filter((w) => w.trim().length > 0);
}

/** Search-mode words: long words are also split into their sub-words, for recall. */
export async function segmentForSearch(text: string): Promise<string[]> {
  await loadJieba();
  return cut_for_search(text, true).filter((w) => w.trim().length > 0);
}
