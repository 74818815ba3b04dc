/**
 * The folders homed finds models in: the models folder (`-models`, default `<data>/models`,
 * where `homed model pull` writes), then the system's (`/usr/lib/homed/models`, where a
 * `homed-models-<name>` package installs; HOMED_SYSTEM_MODELS moves it). What the user pulled
 * wins over what a package brought.
 */
import { findClipFolder } from "./clip-folder.ts";
import { activeSentenceFolder } from "./sentence-folder.ts";

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
