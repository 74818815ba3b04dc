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
import tinyOnnxPath from "../embed/tiny-linear.onnx" with { type: "file" };
import webIndexHtmlPath from "../../web/index.html" with { type: "file" };
import webConsoleCssPath from "../../web/console.css" with { type: "file" };
import webFaviconSvgPath from "../../web/favicon.svg" with { type: "file" };
import webConsoleJsPath from "../../web/console.js" with { type: "file" };
import webApiJsPath from "../../web/api.js" with { type: "file" };
import webDomJsPath from "../../web/dom.js" with { type: "file" };
import webChartsJsPath from "../../web/charts.js" with { type: "file" };
import webPageLoginJsPath from "../../web/page-login.js" with { type: "file" };
import webPageChatJsPath from "../../web/page-chat.js" with { type: "file" };
import webPageProvidersJsPath from "../../web/page-providers.js" with { type: "file" };
import webPageMemoryJsPath from "../../web/page-memory.js" with { type: "file" };
import webPageContextJsPath from "../../web/page-context.js" with { type: "file" };
import webPageAuditJsPath from "../../web/page-audit.js" with { type: "file" };
import webPageScenesJsPath from "../../web/page-scenes.js" with { type: "file" };
import webPageDoctorJsPath from "../../web/page-doctor.js" with { type: "file" };
import webPagePluginsJsPath from "../../web/page-plugins.js" with { type: "file" };
import webPageKeysJsPath from "../../web/page-keys.js" with { type: "file" };
import uplotJsPath from "../../node_modules/uplot/dist/uPlot.esm.js" with { type: "file" };
import uplotCssPath from "../../node_modules/uplot/dist/uPlot.min.css" with { type: "file" };

export type AssetName = "jieba.wasm" | "ort.wasm" | "webp_dec.wasm" | "tiny-linear.onnx" | WebAssetName;

/** Files of the web console, by the name they are served under. */
export const WEB_ASSETS = [
  "index.html",
  "console.css",
  "favicon.svg",
  "console.js",
  "api.js",
  "dom.js",
  "charts.js",
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
] as const;
export type WebAssetName = (typeof WEB_ASSETS)[number];

// bun-types gives `.wasm` and `.html` imports module types of their own; `with { type: "file" }`
// makes them paths at run time, which is what the casts below say.
const ASSET_PATHS: Record<AssetName, string> = {
  "jieba.wasm": jiebaWasmPath as unknown as string,
  "ort.wasm": ortWasmPath,
  "webp_dec.wasm": webpDecoderWasmPath,
  "tiny-linear.onnx": tinyOnnxPath,
  "index.html": webIndexHtmlPath as unknown as string,
  "console.css": webConsoleCssPath,
  "favicon.svg": webFaviconSvgPath,
  "console.js": webConsoleJsPath,
  "api.js": webApiJsPath,
  "dom.js": webDomJsPath,
  "charts.js": webChartsJsPath,
  "page-login.js": webPageLoginJsPath,
  "page-chat.js": webPageChatJsPath,
  "page-providers.js": webPageProvidersJsPath,
  "page-memory.js": webPageMemoryJsPath,
  "page-context.js": webPageContextJsPath,
  "page-audit.js": webPageAuditJsPath,
  "page-scenes.js": webPageScenesJsPath,
  "page-doctor.js": webPageDoctorJsPath,
  "page-plugins.js": webPagePluginsJsPath,
  "page-keys.js": webPageKeysJsPath,
  "uplot.js": uplotJsPath,
  "uplot.css": uplotCssPath,
};

/** Reads an embedded binary asset. */
export async function readAsset(name: AssetName): Promise<Uint8Array> {
  return await Bun.file(ASSET_PATHS[name]).bytes();
}

