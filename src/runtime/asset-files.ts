/**
 * Where each file homed carries lives in the source tree, relative to this folder
 * (src/runtime/). The Deno side reads them from here; the Bun side imports the same paths with
 * `with { type: "file" }` so that `bun build --compile` embeds them (assets-bun.ts, whose
 * agreement with this table tests/runtime/assets.test.ts checks).
 *
 * Relative paths into node_modules are used where a package's `exports` map hides the file.
 */
export const WEB_ASSETS = [
  "index.html",
  "console.css",
  "favicon.svg",
  "console.js",
  "api.js",
  "dom.js",
  "i18n.js",
  "charts.js",
  "markdown.js",
  "page-login.js",
  "page-chat.js",
  "page-providers.js",
  "page-memory.js",
  "page-context.js",
  "page-audit.js",
  "page-scenes.js",
  "page-doctor.js",
  "page-plugins.js",
  "page-keys.js",
  "uplot.js",
  "uplot.css",
  "marked.js",
  "purify.js",
] as const;
export type WebAssetName = (typeof WEB_ASSETS)[number];

export type AssetName = "jieba.wasm" | "ort.wasm" | "webp_dec.wasm" | "tiny-linear.onnx" | WebAssetName;

export const ASSET_SOURCES: Record<AssetName, string> = {
  "jieba.wasm": "../../node_modules/jieba-wasm/pkg/web/jieba_rs_wasm_bg.wasm",
  "ort.wasm": "../../node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm",
  "webp_dec.wasm": "../../node_modules/@jsquash/webp/codec/dec/webp_dec.wasm",
  "tiny-linear.onnx": "../embed/tiny-linear.onnx",
  "index.html": "../../web/index.html",
  "console.css": "../../web/console.css",
  "favicon.svg": "../../web/favicon.svg",
  "console.js": "../../web/console.js",
  "api.js": "../../web/api.js",
  "dom.js": "../../web/dom.js",
  "i18n.js": "../../web/i18n.js",
  "charts.js": "../../web/charts.js",
  "markdown.js": "../../web/markdown.js",
  "page-login.js": "../../web/page-login.js",
  "page-chat.js": "../../web/page-chat.js",
  "page-providers.js": "../../web/page-providers.js",
  "page-memory.js": "../../web/page-memory.js",
  "page-context.js": "../../web/page-context.js",
  "page-audit.js": "../../web/page-audit.js",
  "page-scenes.js": "../../web/page-scenes.js",
  "page-doctor.js": "../../web/page-doctor.js",
  "page-plugins.js": "../../web/page-plugins.js",
  "page-keys.js": "../../web/page-keys.js",
  "uplot.js": "../../node_modules/uplot/dist/uPlot.esm.js",
  "uplot.css": "../../node_modules/uplot/dist/uPlot.min.css",
  "marked.js": "../../node_modules/marked/lib/marked.esm.js",
  "purify.js": "../../node_modules/dompurify/dist/purify.es.mjs",
};
