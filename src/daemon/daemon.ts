/**
 * The daemon: data folder, log, store (migrated), HTTP server, and an orderly stop on
 * SIGTERM/SIGINT — stop accepting, let in-flight requests finish, close the database.
 */
import { join } from "node:path";
import { configSection, describeTightening, ensureWritableDir, lockDataFolder, readConfigFile, tightenDataDir, type Settings } from "../config/index.ts";
import { AUDIT_FILE, createLogger, LogConfigSchema, type Logger } from "../log/index.ts";
import { openFilesLimit, selfCommand } from "../runtime/index.ts";
import { leasedBackfill, openEmbedder, withSavedEmbedder } from "../embed/index.ts";
import { Kernel, KernelConfigSchema, kernelWake, Outbound, pluginEventInbox, pluginParticipant, pluginTools, ProactiveConfigSchema, ProactiveMutes, type ProviderEnv } from "../kernel/index.ts";
import { createDaemonPlugins, declarePluginScenes, PluginsConfigSchema } from "./plugins.ts";
import { channelPluginSpecs, ChannelsConfigSchema } from "./channels.ts";
import { ChannelPlugins } from "../channels/index.ts";
import { ConnectionLimitsSchema, corsConfig, CorsConfigSchema, createApp, ensureAdminToken, parseAllowedHosts, resolveConnectionLimits, serveGuarded, tokenHint } from "../server/index.ts";
import { maskKnownSecret } from "../text/index.ts";
import { cleanAbandonedImports, configureFusion, CoolingConfigSchema, FusionConfigSchema, InjectionConfigSchema, startCoolingJob } from "../memory/index.ts";
import { startMergeJob } from "../search/index.ts";
import { isEmbeddedUrl, leaseHolderId, openSecretBox, openStore, redactDbUrl, sealStoredSecrets } from "../store/index.ts";
import { VERSION } from "../version.ts";

/** In-flight requests get this long after a stop signal; the whole stop must fit in 5 s. */
const SHUTDOWN_GRACE_MS = 4000;

/** The database's files when it is embedded (`file:`): homed's own, wherever `-db` put them. */
function embeddedDbFiles(url: string): string[] {
  if (!isEmbeddedUrl(url) || url === ":memory:") return [];
  const path = url.slice("file:".length).split("?")[0]!;
  return ["", "-wal", "-shm", "-journal"].map((suffix) => path + suffix);
}

/** A host a browser can open: a wildcard listen address is reached on loopback; IPv6 in brackets. */
function consoleHost(hostname: string): string {
  if (hostname === "0.0.0.0" || hostname === "::" || hostname === "") return "127.0.0.1";
  return hostname.includes(":") ? `[${hostname}]` : hostname;
}

function waitForStopSignal(log: Logger): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: string) => {
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      log.info(`${signal} received: stopping`);
      resolve(signal);
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
  });
}

/** Runs until a stop signal; resolves with the exit code. Start-up failures throw. */
export async function runDaemon(settings: Settings): Promise<number> {
  ensureWritableDir(settings.dataDir);
  // One daemon per folder; refused before anything else (modes, a log file, the store) is touched.
  const folder = await lockDataFolder(settings.dataDir);
  // New files are private by the process umask (src/main.ts); these were made before, or loosened.
  const tightened = tightenDataDir(settings.dataDir, embeddedDbFiles(settings.dbUrl));
  const file = readConfigFile(settings.dataDir);
  const memory = { injection: configSection(file, "injection", InjectionConfigSchema), cooling: configSection(file, "cooling", CoolingConfigSchema) };
  configureFusion(configSection(file, "fusion", FusionConfigSchema));
  const pluginsConfig = configSection(file, "plugins", PluginsConfigSchema);
  const kernelConfig = configSection(file, "kernel", KernelConfigSchema);
  const channels = configSection(file, "channels", ChannelsConfigSchema);
  const proactive = configSection(file, "proactive", ProactiveConfigSchema);
  const connections = resolveConnectionLimits(configSection(file, "connections", ConnectionLimitsSchema), openFilesLimit());
  const logConfig = configSection(file, "log", LogConfigSchema);
  const log = createLogger({
    level: settings.logLevel,
    dir: join(settings.dataDir, "logs"),
    maxFileBytes: logConfig.maxFileBytes,
    keepRotated: logConfig.keepRotated,
    audit: { path: join(settings.dataDir, AUDIT_FILE), maxBytes: logConfig.auditMaxBytes, keepRotated: logConfig.auditKeepRotated },
  });
  const cors = corsConfig(configSection(file, "cors", CorsConfigSchema), process.env.HOMED_CORS_ORIGINS);
  try {
    if (tightened.length > 0) log.warn(describeTightening(settings.dataDir, tightened));
    const secrets = openSecretBox(settings.dataDir);
    if (secrets.created) log.info(`secrets key created at ${secrets.path}: API keys in the database are sealed with it`);
    const store = await openStore({ url: settings.dbUrl, syncUrl: settings.dbSyncUrl, authToken: settings.dbAuthToken, onWait: (message) => log.info(`store: ${message}`) });
    try {
      const sealing = await sealStoredSecrets(store.client, secrets.box, store.embedded);
      if (sealing.sealed > 0) log.info(`secrets: sealed ${sealing.sealed} API keys stored in plaintext by an earlier homed`);
      if (sealing.unreadable.length > 0)
        log.warn(`secrets: ${sealing.unreadable.length} stored API keys were sealed with another ${secrets.path} and cannot be read; set them again (${sealing.unreadable.join(", ")})`);
      const admin = ensureAdminToken(settings.dataDir);
      log.info(`admin token ${admin.created ? "created" : "read"} at ${admin.path} (${tokenHint(admin.token)})`);
      // Pasted into a chat, it is masked like any other secret: never stored, never sent to a provider.
      maskKnownSecret("homed-admin-token", admin.token);
      const embedSettings = withSavedEmbedder(settings.dataDir, settings.embed);
      const active = await openEmbedder(embedSettings);
      (active.degraded ? log.warn : log.info)(`embedder: ${active.embedder.modelId}: ${active.reason}`);
      const kernel = new Kernel({
        client: store.client,
        secrets: secrets.box,
        log,
        env: process.env as ProviderEnv,
        embedder: active.embedder,
        vectorRecall: active.kind !== "fallback",
        injection: memory.injection,
        ...kernelConfig,
      });
      const plugins = createDaemonPlugins(settings.dataDir, pluginsConfig, log, channelPluginSpecs(channels, selfCommand()), proactive.feedIntervalSeconds);
      kernel.tools.addSource(
        pluginTools(
          plugins,
          (line) => log.warn(line),
          (name) => kernel.tools.has(name),
        ),
      );
      kernel.addParticipant(pluginParticipant(plugins, (line) => log.warn(line)));
      // What plugins push (a watched terminal's output) waits for the session it names; an urgent push
      // (a reminder due, new feed items) wakes a turn, whose answer goes out to where the person is.
      // Where what homed says first goes (the console, homed chat, channels register sinks).
      const outbound = new Outbound();
      const mutes = await ProactiveMutes.open(store.client);
      // Ends the consoles' open streams of woken answers at the stop, rather than after its grace.
      const stopStreams = new AbortController();
      kernel.addParticipant(pluginEventInbox(plugins, log, kernelWake(kernel, log, outbound, mutes), { homeSession: proactive.homeSession, mutes }).participant);
      // Channel plugins: their messages are turns of their own sessions; registered before plugins start.
      const channelPlugins = new ChannelPlugins({ kernel, host: plugins, outbound, log });
      // Plugins start in the background: the console answers while they come up.
      const pluginsStarted = plugins
        .start()
        .then(() =>
          log.info(
            `plugins: ${
              plugins
                .list()
                .map((p) => `${p.name} ${p.state}`)
                .join(", ") || "none"
            }`,
          ),
        )
        .then(() => declarePluginScenes(plugins, store.client, log).catch((error) => log.warn(`declaring plugin scenes failed: ${(error as Error).message}`)));
      const app = createApp({
        version: VERSION,
        store,
        log,
        kernel,
        adminToken: admin.token,
        adminTokenPath: admin.path,
        doctor: settings,
        plugins,
        a2a: channels.a2a,
        embedderSetup: { dataDir: settings.dataDir, source: settings.embed.http ? "flag" : embedSettings.http ? "saved" : "models" },
        models: { dataDir: settings.dataDir, modelsDir: settings.embed.modelsDir, systemModelsDir: settings.embed.systemModelsDir, mirror: settings.embed.mirror },
        listen: { hostname: settings.listen.hostname, allowedHosts: parseAllowedHosts(process.env.HOMED_ALLOWED_HOSTS) },
        cors,
        proactive: { outbound, mutes, stopping: stopStreams.signal },
      });
      const server = await serveGuarded(settings.listen.hostname, settings.listen.port, app.fetch, connections);
      // Cooling (L2 → L3) in the background; a run in progress finishes before the store closes.
      // After a switch of embedder, stored memories are re-embedded in the background.
      const stopBackfill = new AbortController();
      // Names this daemon in the database's job leases: daemons sharing one libSQL server run
      // cooling and a backfill once between them.
      const leaseHolder = leaseHolderId();
      const backfill =
        active.kind === "fallback"
          ? Promise.resolve()
          : leasedBackfill(store.client, active.embedder, leaseHolder, { batchSize: 16, signal: stopBackfill.signal })
              .then((r) =>
                !r
                  ? log.info(`backfill: another daemon on this database is re-embedding with ${active.embedder.modelId}`)
                  : r.events.done + r.blocks.done > 0 &&
                    log.info(`backfill: re-embedded ${r.events.done} events and ${r.blocks.done} blocks with ${active.embedder.modelId}${r.stopped ? " (stopped; resumes next start)" : ""}`),
              )
              .catch((error) => log.warn(`backfill failed: ${(error as Error).message}`));
      // What a crashed `homed import` staged is removed in the background (it was never visible).
      const importsCleaned = cleanAbandonedImports(store.client)
        .then((n) => n > 0 && log.info(`removed what ${n} interrupted import(s) had staged`))
        .catch((error) => log.warn(`cleaning interrupted imports failed: ${(error as Error).message}`));
      // The index's large merges (an import's segments) run here, in the background.
      const merges = startMergeJob(store.client);
      const cooling = startCoolingJob({ ...memory.cooling, client: store.client, ask: kernel.ask, embedder: kernel.recallEmbedder, log: (line) => log.info(line), lease: { holder: leaseHolder } });
      const stopped = waitForStopSignal(log);
      if (channels.a2a.enabled) log.info(`a2a: agent card at http://${settings.listen.hostname}:${server.port}/.well-known/agent-card.json, JSON-RPC at /a2a (app keys with the a2a scope)`);
      log.info(`connections: at most ${connections.perClient} per client, ${connections.maxConnections} in all; a request head within ${connections.headTimeoutMs} ms`);
      log.info(`homed ${VERSION} listening on http://${settings.listen.hostname}:${server.port} ` + `(data ${settings.dataDir}, db ${redactDbUrl(settings.dbUrl)}, log ${log.file})`);
      // What a newcomer needs next: where to point the browser, and what to sign in with.
      log.info(`console: open http://${consoleHost(settings.listen.hostname)}:${server.port}/ and sign in with the admin token in ${admin.path} (a different port: -addr HOST:PORT or HOMED_ADDR)`);
      await stopped;
      // In parallel: the whole stop must fit in 5 s.
      stopBackfill.abort();
      merges.stop();
      // Turns in progress end now as "cancelled" (what was said is kept), rather than holding the stop.
      channelPlugins.stop();
      stopStreams.abort();
      kernel.cancelAll();
      await Promise.all([server.stop(SHUTDOWN_GRACE_MS), cooling.stop(), backfill, importsCleaned, stopPlugins(plugins, pluginsStarted)]);
      log.info("stopped cleanly");
      return 0;
    } finally {
      store.close();
    }
  } finally {
    log.close();
    folder.release();
  }
}

/**
 * Plugins stop now, those still starting included: waiting for the start first made a stop wait
 * for a hung plugin's handshake timeout (27 s by default, longer when configured) against the 5 s
 * a stop is given. The start then ends at once (its plugin is gone) and is awaited only so that
 * nothing it does afterwards touches a closed store.
 */
async function stopPlugins(plugins: { stopAll(): Promise<void> }, started: Promise<unknown>): Promise<void> {
  await plugins.stopAll();
  await started;
}
