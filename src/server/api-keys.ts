/**
 * `/api/keys`: the console's side of per-app API keys (the command line's is `homed key`). Only
 * the admin reaches it (an app key never opens `/api`); a new key is in the creating answer and
 * nowhere else, ever. Each change is an audit line naming the key, never the key itself.
 */
import { Hono } from "hono";
import type { Logger } from "../log/index.ts";
import { KeyInputSchema, KeyNameSchema, type AppKey, type AppKeys } from "./app-keys.ts";
import { parseBody } from "./validate.ts";
import { auditBy } from "./auth.ts";
import { HomedError } from "../errors/index.ts";

/** `GET /api/keys`; `POST` answers the new key once, beside its listing. */
export type KeysAnswer = { keys: AppKey[] };
export type NewKeyAnswer = AppKey & { key: string };

export function keyRoutes(keys: AppKeys, log?: Pick<Logger, "audit">): Hono {
  const app = new Hono();
  app.get("/", async (c) => c.json<KeysAnswer>({ keys: await keys.list() }));
  app.post("/", async (c) => {
    const input = await parseBody(c, KeyInputSchema);
    const { key, view } = await keys.create(input);
    log?.audit({ event: "app_key_created", ...auditBy(c), outcome: "ok", detail: `app key '${view.name}' created (partner ${view.partner ?? view.name}, scopes ${view.scopes.join(",")})` });
    return c.json<NewKeyAnswer, 201>({ ...view, key }, 201);
  });
  app.delete("/:name", async (c) => {
    const name = KeyNameSchema.safeParse(c.req.param("name"));
    if (!name.success) throw new HomedError("key_not_found", `No key named '${c.req.param("name")}'`);
    await keys.revoke(name.data);
    log?.audit({ event: "app_key_revoked", ...auditBy(c), outcome: "ok", detail: `app key '${name.data}' revoked` });
    return c.body(null, 204);
  });
  return app;
}
