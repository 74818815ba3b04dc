/**
 * Files the binary carries inside itself. Each import below makes `bun build --compile`
 * embed the file; at run time the import yields a path that `Bun.file` can read both from
 * the source tree and from inside the compiled binary (`/$bunfs/...`).
 *
 * Relative paths into node_modules are used where a package's `exports` map hides the file.
 */
import jiebaWasmPath from "../../node_modules/jieba-wasm/pkg/web/jieba_rs_wasm_bg.wasm" with { type: "file" };
import ortWasmPath from "../../node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm" with { type: "file" };
import webpDecoderWasmPath from "../../node_modules/@jsquash/webp/codec/dec/webp_dec.wasm" with { type: "file" };
import tinyOnnxPath from "../../tests/fixtures/tiny-linear.onnx" with { type: "file" };
import consoleHtmlPath from "../../web/index.html" with { type: "file" };
import consoleCssPath from "../../web/console.css" with { type: "file" };
import consoleJsPath from "../../web/console.js" with { type: "file" };

export type AssetName = "jieba.wasm" | "ort.wasm" | "webp_dec.wasm" | "tiny-linear.onnx" | WebAssetName;

/** Files of the web console, by the name they are served under. */
export const WEB_ASSETS = ["index.html", "console.css", "console.js"] as const;
export type WebAssetName = (typeof WEB_ASSETS)[number];

const ASSET_PATHS: Record<AssetName, string> = {
  "jieba.wasm": jiebaWasmPath,
  "ort.wasm": ortWasmPath,
  "webp_dec.wasm": webpDecoderWasmPath,
  "tiny-linear.onnx": tinyOnnxPath,
  "index.html": consoleHtmlPath,
  "console.css": consoleCssPath,
  "console.js": consoleJsPath,
};

/** Reads an embedded binary asset. */
export async function readAsset(name: AssetName): Promise<Uint8Array> {
  return await Bun.file(ASSET_PATHS[name]).bytes();
}

