/**
 * The daemon put together: `homed serve` opens the store, starts the plugins and channels, the
 * kernel and the HTTP server (daemon.ts), from the sections of homed.json each of them owns
 * (plugins.ts, channels.ts).
 */
export { runDaemon } from "./daemon.ts";
export { ChannelsConfigSchema, type ChannelsConfig } from "./channels.ts";
export { declarePluginScenes, PluginsConfigSchema, type PluginsConfig } from "./plugins.ts";
