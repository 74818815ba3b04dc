/**
 * `/api/providers`: model providers. Keys are write-only: no response carries one. "Test
 * connection" makes one real, tiny call and reports latency and the provider's words verbatim;
 * "models" lists what the provider offers.
 */
import { Hono } from "hono";
import { z } from "zod";
import { ApiKeySchema, BaseUrlSchema, ProviderInputSchema, type Kernel, type ProviderInput, type ProviderTarget, type ProviderView } from "../kernel/index.ts";
import { ChatClient, listModels, PROVIDER_PRESETS, ProviderError, type ProviderPreset, type ResolvedWindow } from "../llm/index.ts";
import type { Logger } from "../log/index.ts";
import { HomedError } from "../errors/index.ts";
import { parseBody } from "./validate.ts";
import { auditBy } from "./auth.ts";

const TestSchema = z.union([z.object({ id: z.string().min(1) }), z.object({ baseUrl: BaseUrlSchema, model: z.string().min(1), apiKey: ApiKeySchema.optional() })]);

/** A saved provider (its stored key), or a base URL and key being typed into the form. */
const ModelsSchema = z.union([z.object({ id: z.string().min(1) }), z.object({ baseUrl: BaseUrlSchema, apiKey: ApiKeySchema.optional() })]);

/** `GET /api/providers` (and `POST /:id/activate`, without the presets). */
export type ProvidersAnswer = { providers: ProviderView[]; presets: readonly ProviderPreset[] };
/** `POST /api/providers/models`: the provider's model ids, or its error verbatim. */
export type ModelsAnswer = { ok: true; models: string[] } | { ok: false; error: string; status?: number; message: string };
/**
 * `POST /api/providers/test`: one tiny real call, with its latency and the provider's words; on
 * success also the context window turns will be sized to, and where it comes from.
 */
export type TestAnswer =
  | { ok: true; latencyMs: number; model: string; reply: unknown; contextWindow: ResolvedWindow }
  | { ok: false; latencyMs: number; model: string; error: string; status?: number; message: string; body?: unknown };
export type ProviderInputBody = ProviderInput;

async function testConnection(target: ProviderTarget, windowOf: (target: ProviderTarget) => Promise<ResolvedWindow>): Promise<TestAnswer> {
  const client = new ChatClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, timeoutMs: 20_000, retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 } });
  const started = performance.now();
  try {
    const result = await client.complete({ model: target.model, messages: [{ role: "user", content: "Reply with the word: ok" }], max_tokens: 5 });
    const latencyMs = Math.round(performance.now() - started);
    return { ok: true, latencyMs, model: target.model, reply: result.message.content, contextWindow: await windowOf(target) };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { ok: false, latencyMs: Math.round(performance.now() - started), model: target.model, error: error.code, status: error.status, message: error.message, body: error.body };
  }
}

/** How an audit line names a provider: never its key, only whether one was given. */
function describeProvider(p: ProviderView, input?: ProviderInput): string {
  const key = input?.apiKey === undefined ? "" : input.apiKey === "" ? ", key cleared" : ", key set";
  return `${p.id} (${JSON.stringify(p.name)}: ${p.baseUrl}, model ${p.model}${key})`;
}

export function providerRoutes(kernel: Kernel, log?: Pick<Logger, "audit">): Hono {
  const app = new Hono();

  app.get("/", async (c) => c.json<ProvidersAnswer>({ providers: await kernel.providers.list(), presets: PROVIDER_PRESETS }));
  app.post("/", async (c) => {
    const input = await parseBody(c, ProviderInputSchema);
    const saved = await kernel.providers.save(input);
    log?.audit({ event: "provider_added", ...auditBy(c), outcome: "ok", detail: `provider added: ${describeProvider(saved, input)}` });
    return c.json(saved, 201);
  });
  app.put("/:id", async (c) => {
    const input = await parseBody(c, ProviderInputSchema);
    const saved = await kernel.providers.save(input, c.req.param("id"));
    log?.audit({ event: "provider_changed", ...auditBy(c), outcome: "ok", detail: `provider changed: ${describeProvider(saved, input)}` });
    return c.json(saved);
  });
  app.delete("/:id", async (c) => {
    await kernel.providers.remove(c.req.param("id"));
    log?.audit({ event: "provider_removed", ...auditBy(c), outcome: "ok", detail: `provider removed: ${c.req.param("id")}` });
    return c.body(null, 204);
  });
  app.post("/:id/activate", async (c) => {
    await kernel.providers.activate(c.req.param("id"));
    const providers = await kernel.providers.list();
    const active = providers.find((p) => p.id === c.req.param("id"));
    log?.audit({ event: "provider_activated", ...auditBy(c), outcome: "ok", detail: `provider activated: ${active ? describeProvider(active) : c.req.param("id")}` });
    return c.json({ providers });
  });
  /** The provider's model list, or its error verbatim (like Test connection, a 200 either way). */
  app.post("/models", async (c) => {
    const body = await parseBody(c, ModelsSchema);
    const target = "id" in body ? await kernel.providers.target(body.id) : body;
    if (!target) throw new HomedError("provider_not_found", `No provider with id ${(body as { id: string }).id}`);
    try {
      return c.json<ModelsAnswer>({ ok: true, models: await listModels(target.baseUrl, target.apiKey) });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      return c.json<ModelsAnswer>({ ok: false, error: error.code, status: error.status, message: error.message });
    }
  });
  app.post("/test", async (c) => {
    const body = await parseBody(c, TestSchema);
    const target = "id" in body ? await kernel.providers.target(body.id) : { id: "unsaved", ...body };
    if (!target) throw new HomedError("provider_not_found", `No provider with id ${(body as { id: string }).id}`);
    return c.json(await testConnection(target, (t) => kernel.contextWindows.resolve(t)));
  });
  return app;
}
