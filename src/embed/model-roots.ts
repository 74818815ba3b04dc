/**
 * The folders homed finds models in: the models folder (`-models`, default `<data>/models`,
 * where `homed model pull` writes), then the system's (`/usr/lib/homed/models`, where a
 * `homed-models-<name>` package installs; HOMED_SYSTEM_MODELS moves it). What the user pulled
 * wins over what a package brought.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findClipFolder } from "./clip-folder.ts";
import { installFolder, type ModelEntry } from "./model-catalog.ts";
import { activeSentenceFolder, SENTENCE_CONFIG } from "./sentence-folder.ts";

export type ModelDirs = { modelsDir: string; systemModelsDir?: string };

export const modelRoots = ({ modelsDir, systemModelsDir }: ModelDirs): string[] => (systemModelsDir && systemModelsDir !== modelsDir ? [modelsDir, systemModelsDir] : [modelsDir]);

const firstFound = (dirs: ModelDirs, find: (root: string) => string | undefined) => {
  for (const root of modelRoots(dirs)) {
    const found = find(root);
    if (found) return found;
  }
  return undefined;
};

/** The sentence encoder in use: the models folder's, else a packaged one. */
export const findSentenceModel = (dirs: ModelDirs): string | undefined => firstFound(dirs, activeSentenceFolder);

/** Chinese-CLIP's folder: the models folder's, else a packaged one. */
export const findClipModel = (dirs: ModelDirs): string | undefined => firstFound(dirs, findClipFolder);

/** Whether the entry's model is installed in one of the folders homed looks in. */
export function isInstalled(entry: ModelEntry, dirs: ModelDirs): boolean {
  if (entry.kind === "clip") return findClipModel(dirs) !== undefined;
  return modelRoots(dirs).some((root) => existsSync(join(root, installFolder(entry), SENTENCE_CONFIG)));
}
