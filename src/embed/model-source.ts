/**
 * Where `homed model pull` fetches a model's files from. A catalog entry names Hugging Face
 * repositories at pinned commits; they are fetched from the Hub, or from a mirror that serves
 * the Hub's own paths (`<endpoint>/<repo>/resolve/<revision>/<path>`, as hf-mirror.com and a
 * self-hosted proxy do): `--mirror URL`, else HOMED_MODELS_MIRROR or HF_ENDPOINT, else
 * `models.mirror` in homed.json. `--url BASE` is a plain folder holding the files by their paths
 * (a copy made by hand), and a `homed-model.json` folder's files are relative to it.
 *
 * A proxy is not set here: Bun's and Deno's fetch take HTTPS_PROXY / HTTP_PROXY / NO_PROXY from
 * the environment themselves.
 */
import type { ModelEntry, ModelFile } from "./model-catalog.ts";
import type { ModelsSection } from "./models-config.ts";

export const HUB_ENDPOINT = "https://huggingface.co";

/** Which setting chose the source: for the pull's first line (`from`) and the console (`via`). */
export type SourceVia = "--url" | "--mirror" | "env" | "homed.json" | "hub" | "url";

export type ModelSource =
  /** A Hub or a mirror of it. */
  | { kind: "hub"; endpoint: string; from: string; via: SourceVia }
  /** A folder serving the files under their paths. */
  | { kind: "folder"; base: string; from: string; via: SourceVia };

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** The first setting given wins: the flags, the environment, homed.json, the Hub. */
export function modelSource(options: { url?: string; mirror?: string; envMirror?: string; section: ModelsSection }): ModelSource {
  if (options.url) return { kind: "folder", base: trimSlash(options.url), from: "--url", via: "--url" };
  if (options.mirror) return { kind: "hub", endpoint: trimSlash(options.mirror), from: "--mirror", via: "--mirror" };
  if (options.envMirror) return { kind: "hub", endpoint: trimSlash(options.envMirror), from: "HOMED_MODELS_MIRROR / HF_ENDPOINT", via: "env" };
  const saved = options.section.mirror;
  if (saved) return { kind: "hub", endpoint: trimSlash(saved), from: "models.mirror in homed.json", via: "homed.json" };
  return { kind: "hub", endpoint: HUB_ENDPOINT, from: "the Hugging Face Hub", via: "hub" };
}

/** The URL of one of the entry's files from this source. */
export function fileUrl(entry: ModelEntry, file: ModelFile, source: ModelSource): string {
  if (source.kind === "folder") return `${source.base}/${file.path}`;
  if (file.url) return file.url;
  const hub = file.hub ?? entry.hub;
  if (hub) return `${source.endpoint}/${hub.repo}/resolve/${hub.revision}/${file.path}`;
  return `${trimSlash(entry.baseUrl!)}/${file.path}`;
}
