/**
 * Bun's side of assets.ts. Each import below makes `bun build --compile` embed the file; at run
 * time the import yields a path that `Bun.file` can read both from the source tree and from
 * inside the compiled binary (`/$bunfs/...`). The paths are asset-files.ts's, written out
 * because an import needs a literal.
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
import webI18nJsPath from "../../web/i18n.js" with { type: "file" };
import webChartsJsPath from "../../web/charts.js" with { type: "file" };
import webMarkdownJsPath from "../../web/markdown.js" with { type: "file" };
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
import markedJsPath from "../../node_modules/marked/lib/marked.esm.js" with { type: "file" };
import purifyJsPath from "../../node_modules/dompurify/dist/purify.es.mjs" with { type: "file" };
import type { AssetName } from "./asset-files.ts";

// bun-types gives `.wasm` and `.html` imports module types of their own; `with { type: "file" }`
// makes them paths at run time, which is what the casts below say.
export const BUN_ASSET_PATHS: Record<AssetName, string> = {
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
  "i18n.js": webI18nJsPath,
  "charts.js": webChartsJsPath,
  "markdown.js": webMarkdownJsPath,
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
  "marked.js": markedJsPath,
  "purify.js": purifyJsPath as unknown as string,
};

export async function readAsset(name: AssetName): Promise<Uint8Array> {
  return await Bun.file(BUN_ASSET_PATHS[name]).bytes();
}
