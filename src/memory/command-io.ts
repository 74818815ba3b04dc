/** What the memory commands need from the process: output streams and the data folder's store. */
import { announceServingDaemon, ensureWritableDir, UsageError, type CommandIo as ProcessIo, type Settings } from "../config/index.ts";
import { openEmbedder, withSavedEmbedder, type ActiveEmbedder } from "../embed/index.ts";
import { openStore, type Store } from "../store/index.ts";
import { HomedError } from "../errors/index.ts";

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

/** A flag's string value, or undefined; a boolean flag given a value is caught by the parser. */
export function flagValue(flags: ReadonlyMap<string, string | true>, name: string): string | undefined {
  const value = flags.get(name);
  return typeof value === "string" ? value : undefined;
}

/** Exactly `count` positional arguments after the command, or a usage error naming the usage. */
export function expectArguments(rest: readonly string[], count: number, usage: string): void {
  if (rest.length !== count) throw new UsageError(`${rest.length < count ? "missing" : "too many"} arguments: usage: ${usage}`);
}

/** A bad input file or line: reported as one "Cannot X: reason" line, without a stack. */
export class InputError extends HomedError {
  constructor(message: string, options?: ErrorOptions) {
    super("input", message, options);
  }
}
