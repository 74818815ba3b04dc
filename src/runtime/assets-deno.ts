/**
 * Deno's side of assets.ts: the files are read from the source tree (asset-files.ts's paths).
 * `deno compile` would need each of them passed with `--include` so that they exist at the
 * same paths inside the compiled program.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ASSET_SOURCES, type AssetName } from "./asset-files.ts";

/** The file's path on disk. */
export const assetPath = (name: AssetName): string => fileURLToPath(new URL(ASSET_SOURCES[name], import.meta.url));

export async function readAsset(name: AssetName): Promise<Uint8Array> {
  return new Uint8Array(await readFile(assetPath(name)));
}
