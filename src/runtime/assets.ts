/**
 * Files homed carries (wasm, the ONNX check model, the web console): embedded in the compiled
 * binary under Bun (assets-bun.ts), read from the source tree under Deno (assets-deno.ts).
 */
import type { AssetName } from "./asset-files.ts";
import { RUNTIME } from "./which.ts";

export { WEB_ASSETS, type AssetName, type WebAssetName } from "./asset-files.ts";

// Imported on first use and only under its runtime: Deno cannot load the Bun side's
// `with { type: "file" }` imports.
let side: Promise<{ readAsset(name: AssetName): Promise<Uint8Array> }> | undefined;

/** Reads an embedded binary asset. */
export async function readAsset(name: AssetName): Promise<Uint8Array> {
  side ??= RUNTIME === "bun" ? import("./assets-bun.ts") : import("./assets-deno.ts");
  return await (await side).readAsset(name);
}
