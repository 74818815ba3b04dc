export { FLAGS, EXTRA_ENV, parseArgs, UsageError, type FlagSpec, type ParsedArgs } from "./flags.ts";
export { resolveSettings, defaultDataDir, SYSTEM_MODELS_DIR, SettingsSchema, type Settings, type Environment } from "./settings.ts";
export type { CommandIo } from "./command-io.ts";
export { ensureWritableDir, DataDirError } from "./data-dir.ts";
export { tightenDataDir, describeTightening, type Tightened } from "./private-dir.ts";
export { readConfigFile, configSection, ConfigFileError, CONFIG_FILE } from "./config-file.ts";
export { lockDataFolder, servingDaemon, announceServingDaemon, LOCK_FILE, type DataFolderLock } from "./data-lock.ts";
