/**
 * `/api/plugins`: every plugin's state, restart count, last exit and log tail, the events they
 * pushed lately (`/api/plugins/events`), and a restart
 * by hand (the way out of "failed" after a crash loop). Mounted by the app with
 * `app.route("/", pluginsRoutes(host))`.
 */
import { Hono } from "hono";
import type { PluginHost, PluginStatus, PushedEvent } from "../plugins/index.ts";
import type { Logger } from "../log/index.ts";
import { auditBy } from "./auth.ts";

/** `GET /api/plugins` and `GET /api/plugins/events`. */
export type PluginsAnswer = { plugins: PluginStatus[] };
export type PluginEventsAnswer = { events: PushedEvent[] };

export function pluginsRoutes(host: PluginHost, log?: Pick<Logger, "audit">): Hono {
  const routes = new Hono();

  routes.get("/api/plugins", (c) => c.json<PluginsAnswer>({ plugins: host.list() }));

  /** What plugins pushed through their event rings lately, newest first. */
  routes.get("/api/plugins/events", (c) => c.json<PluginEventsAnswer>({ events: host.recentEvents() }));

  routes.post("/api/plugins/:name/restart", async (c) => {
    // An unknown name is a PluginError `unknown_plugin`: a 404 from the app's error handler.
    const plugin = await host.restart(c.req.param("name"));
    log?.audit({ event: "plugin_restarted", ...auditBy(c), outcome: "ok", detail: `plugin ${plugin.name} restarted by hand (now ${plugin.state})` });
    return c.json({ plugin });
  });

  return routes;
}
