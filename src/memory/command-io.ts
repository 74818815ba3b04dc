/** What the memory commands need from the process: output streams and the data folder's store. */
import { announceServingDaemon, ensureWritableDir, type CommandIo as ProcessIo, type Settings } from "../config/index.ts";
import { openEmbedder, withSavedEmbedder, type ActiveEmbedder } from "../embed/index.ts";
import { openStore, type Store } from "../store/index.ts";

/** The part of the one command IO type (src/config) the memory commands use: no stdin. */
export type CommandIo = Pick<ProcessIo, "stdout" | "stderr" | "isTty">;

/**
 * `writesTell`: for a command that writes — it says on stderr when a daemon serves the folder
 * (the command's writes then take turns with the daemon's) and when a write has to wait.
 */
export async function openDataStore(settings: Settings, writesTell?: (text: string) => void): Promise<Store> {
  if (settings.dbUrl.startsWith("file:")) ensureWritableDir(settings.dataDir);
  if (!writesTell) return openStore({ url: settings.dbUrl, syncUrl: settings.dbSyncUrl, authToken: settings.dbAuthToken });
  announceServingDaemon(settings.dataDir, writesTell);
  return openStore({ url: settings.dbUrl, syncUrl: settings.dbSyncUrl, authToken: settings.dbAuthToken, onWait: (message) => writesTell(`homed: ${message}\n`) });
}

/**
 * The embedder the daemon would use (the same flags: -models, -embed-url, …). Import and recall
 * must agree with the daemon on it, since the vector channel only compares vectors of the same
 * model.
 */
export async function openDataEmbedder(settings: Settings): Promise<ActiveEmbedder> {
  return openEmbedder(withSavedEmbedder(settings.dataDir, settings.embed));
}
