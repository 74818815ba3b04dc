/**
 * `/api/plugins`: every plugin's state, restart count, last exit and log tail, and a restart
 * by hand (the way out of "failed" after a crash loop). Mounted by the app with
 * `app.route("/", pluginsRoutes(host))`.
 */
import { Hono } from "hono";
import { PluginError, type PluginHost } from "../plugins/index.ts";
import type { Logger } from "../log/index.ts";
import { errorBody } from "./errors.ts";

export function pluginsRoutes(host: PluginHost, log?: Pick<Logger, "info">): Hono {
  const routes = new Hono();

  routes.get("/api/plugins", (c) => c.json({ plugins: host.list() }));

  routes.post("/api/plugins/:name/restart", async (c) => {
    try {
      const plugin = await host.restart(c.req.param("name"));
      log?.info(`audit: plugin ${plugin.name} restarted by hand (now ${plugin.state})`);
      return c.json({ plugin });
    } catch (error) {
      if (error instanceof PluginError && error.code === "unknown_plugin") return c.json(errorBody(error.code, error.message), 404);
      throw error;
    }
  });

  return routes;
}
