/** The HTTP surface: health, console, API. Tests call `app.request()` with no socket. */
import { Hono } from "hono";
import { toolSpecTokens, type Kernel, type Outbound, type ProactiveMutes } from "../kernel/index.ts";
import type { Logger } from "../log/index.ts";
import { pingDatabase, type Store } from "../store/index.ts";
import { providerRoutes } from "./api-providers.ts";
import { sessionRoutes } from "./api-sessions.ts";
import { doctorRoutes } from "./api-doctor.ts";
import { importRoutes } from "./api-import.ts";
import { inspectRoutes } from "./api-inspect.ts";
import { sceneRoutes } from "./api-scenes.ts";
import { loginRoutes } from "./api-login.ts";
import { memoryRoutes } from "./api-memory.ts";
import { embedderRoutes, type EmbedderSetup } from "./api-embedder.ts";
import { modelsRoutes, type ModelsSetup } from "./api-models.ts";
import { requireAuth } from "./auth.ts";
import { AppKeys } from "./app-keys.ts";
import { keyRoutes } from "./api-keys.ts";
import { ConsoleSessions } from "./console-session.ts";
import { LoginThrottle } from "./login-throttle.ts";
import { auditRoutes } from "./api-audit.ts";
import type { DoctorOptions } from "../doctor/index.ts";
import type { PluginHost } from "../plugins/index.ts";
import { pluginsRoutes } from "./plugins-routes.ts";
import { audioRoutes } from "./api-audio.ts";
import { apiErrorHandler, errorResponse } from "./errors.ts";
import { memoryToolRoutes } from "./api-memory-tools.ts";
import { openAiRoutes } from "./openai-compat.ts";
import { mcpRoutes } from "./mcp-http.ts";
import { consoleRoutes } from "./static.ts";
import { bodyLimits } from "./body-limits.ts";
import { a2aAuth, a2aRoutes, A2A_CARD_PATH, A2A_PATH, type A2AConfig } from "./a2a.ts";
import { corsMiddleware, DEFAULT_CORS, type CorsConfig } from "./cors.ts";
import { hostCheck } from "./host-check.ts";
import { proactiveRoutes } from "./api-proactive.ts";
import { LiveDeliveries } from "./live-deliveries.ts";

export type AppDeps = {
  version: string;
  store: Store;
  log: Logger;
  kernel: Kernel;
  adminToken: string;
  /** Where the token file is, for the console's first-run page (never the token itself). */
  adminTokenPath?: string;
  /** What `/api/doctor` checks; without it the route is absent. */
  doctor?: DoctorOptions;
  /** The plugin host, when the daemon runs one: `/api/plugins` is absent without it. */
  plugins?: PluginHost;
  /** Slows wrong admin tokens per source (login and Bearer); one is made when not given. */
  throttle?: LoginThrottle;
  /** `channels.a2a` of homed.json: the A2A routes are absent unless it is enabled. */
  a2a?: A2AConfig;
  /** The data folder and where the embedder came from: the console may then save one (`/api/memory/embedder`). */
  embedderSetup?: EmbedderSetup;
  /** Where models are pulled to and from: the console may then pull one (`/api/models`). */
  models?: ModelsSetup;
  /** Where the daemon listens and the other Host names it answers (host-check.ts); no check without it. */
  listen?: { hostname: string; allowedHosts: readonly string[] };
  /** `cors` of homed.json or HOMED_CORS_ORIGINS (cors.ts); absent: any origin on the bearer routes. */
  cors?: CorsConfig;
  /** Where woken turns' answers go, and what is muted: `/api/proactive` is absent without it (the console and `homed chat` sinks register on `outbound`). */
  proactive?: { outbound: Outbound; mutes: ProactiveMutes; stopping?: AbortSignal };
};

/** `GET /healthz`: the store answers; the daemon's version. */
export type Health = { ok: true; version: string };

export function createApp(deps: AppDeps): Hono {
  const app = new Hono();
  // First of all: a request for another Host is not for this homed (DNS rebinding, host-check.ts).
  if (deps.listen) app.use("*", hostCheck(deps.listen.hostname, deps.listen.allowedHosts));
  // Then CORS, before auth (a preflight carries no credentials), on the bearer routes only: the
  // console's cookie API under /api stays same-origin (cors.ts says why).
  const cors = corsMiddleware(deps.cors ?? DEFAULT_CORS);
  if (cors) for (const path of ["/v1/*", "/mcp", ...(deps.a2a?.enabled ? [A2A_CARD_PATH, A2A_PATH] : [])]) app.use(path, cors);

  app.get("/healthz", async (c) => {
    // Healthy means the store answers, not merely that the process is up.
    await pingDatabase(deps.store.client);
    return c.json<Health>({ ok: true, version: deps.version });
  });

  app.route("/", consoleRoutes());

  const sessions = new ConsoleSessions(deps.store.client, deps.adminToken);
  // Every body is capped while it is read, each route at what it needs (body-limits.ts). The
  // login routes get theirs before they run; every other route after authentication, so that a
  // caller without the token never gets more than 4 KiB read.
  const limits = bodyLimits();
  app.use("/api/login", limits);
  app.use("/api/logout", limits);
  // Before the auth middleware: logging in is how a browser gets credentials.
  const throttle = deps.throttle ?? new LoginThrottle();
  app.route("/api", loginRoutes({ adminToken: deps.adminToken, sessions, throttle, tokenPath: deps.adminTokenPath, log: deps.log }));
  const keys = new AppKeys(deps.store.client);
  const auth = { token: deps.adminToken, sessions, throttle, log: deps.log, keys };
  app.use("/api/*", requireAuth(auth));
  app.use("/v1/*", requireAuth({ ...auth, scope: "v1" }));
  app.use("/mcp", requireAuth({ ...auth, scope: "mcp" }));
  if (deps.a2a?.enabled) app.use(A2A_PATH, a2aAuth(requireAuth({ ...auth, scope: "a2a" })));
  app.use("*", limits);
  app.route("/api/sessions", sessionRoutes(deps.kernel, deps.log));
  app.route("/api/providers", providerRoutes(deps.kernel, deps.log));
  app.route("/api/audio", audioRoutes(deps.kernel));
  app.route("/api/memory/tools", memoryToolRoutes(deps.kernel));
  app.route("/api/memory/import", importRoutes(deps.kernel.client, deps.kernel.recallEmbedder, deps.log));
  app.route("/api/memory/embedder", embedderRoutes(deps.kernel.engine.embedder, deps.embedderSetup, deps.log));
  if (deps.models) app.route("/api/models", modelsRoutes(deps.models, deps.log));
  app.route("/api/memory", memoryRoutes(deps.kernel.client, deps.kernel.engine.embedder, deps.kernel.recallEmbedder, deps.log));
  app.route(
    "/api/inspect",
    inspectRoutes(
      deps.kernel.client,
      deps.kernel.engine.embedder,
      () => deps.kernel.turnBudget(),
      () => toolSpecTokens(deps.kernel.tools.specs()),
    ),
  );
  app.route("/api/audit", auditRoutes(deps.kernel.client, deps.kernel.recallEmbedder));
  app.route("/api/scenes", sceneRoutes(deps.kernel.client));
  app.route("/api/keys", keyRoutes(keys, deps.log));
  if (deps.doctor) app.route("/api/doctor", doctorRoutes(deps.doctor));
  if (deps.plugins) app.route("/", pluginsRoutes(deps.plugins, deps.log));
  if (deps.proactive) {
    const live = new LiveDeliveries(deps.kernel.sessions);
    deps.proactive.outbound.register(live.sink("console"));
    deps.proactive.outbound.register(live.sink("chat"));
    app.route("/api/proactive", proactiveRoutes(deps.kernel, live, deps.proactive.mutes, deps.proactive.stopping));
  }
  app.route("/v1", openAiRoutes(deps.kernel, deps.log));
  app.route("/mcp", mcpRoutes(deps.kernel));
  if (deps.a2a?.enabled) app.route("/", a2aRoutes(deps.kernel, deps.a2a, deps.log));

  app.notFound((c) => errorResponse(c, "not_found", `No route for ${c.req.method} ${c.req.path}`));
  // The one place an error becomes an answer: its code's row in src/errors/table.ts.
  app.onError(apiErrorHandler(deps.log));
  return app;
}
