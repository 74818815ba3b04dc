/**
 * `/api/scenes`: recurring situations with their strength now and at their last recurrence,
 * so the console can draw how each one fades (strength halves every half-life while idle).
 */
import type { Client } from "@libsql/client";
import { Hono } from "hono";
import { DEFAULT_SCENES, listScenes, type Scene } from "../memory/index.ts";

/** `GET /api/scenes`: each scene with its strength now and at its last recurrence. */
export type ScenesAnswer = { now: number; halfLifeMs: number; scenes: (Scene & { strengthAtLastSeen: number })[] };

export function sceneRoutes(client: Client): Hono {
  const app = new Hono();
  app.get("/", async (c) => {
    const now = Date.now();
    const { halfLifeMs } = DEFAULT_SCENES;
    const scenes = await listScenes(client, now);
    return c.json<ScenesAnswer>({
      now,
      halfLifeMs,
      scenes: scenes.map((s) => ({ ...s, strengthAtLastSeen: s.strength / 0.5 ** (Math.max(0, now - s.lastSeen) / halfLifeMs) })),
    });
  });
  return app;
}
