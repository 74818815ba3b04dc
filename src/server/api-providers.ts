/**
 * `/api/providers`: model providers. Keys are write-only: no response carries one. "Test
 * connection" makes one real, tiny call and reports latency and the provider's words verbatim.
 */
import { Hono } from "hono";
import { z } from "zod";
import { ProviderInputSchema, ProviderNotFound, type Kernel, type ProviderTarget } from "../kernel/index.ts";
import { ChatClient, PROVIDER_PRESETS, ProviderError } from "../llm/index.ts";
import { ApiError } from "./errors.ts";
import { parseBody } from "./validate.ts";

const TestSchema = z.union([
  z.object({ id: z.string().min(1) }),
  z.object({ baseUrl: z.url({ protocol: /^https?$/ }), model: z.string().min(1), apiKey: z.string().optional() }),
]);

async function testConnection(target: ProviderTarget) {
  const client = new ChatClient({ baseUrl: target.baseUrl, apiKey: target.apiKey, timeoutMs: 20_000, retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 } });
  const started = performance.now();
  try {
    const result = await client.complete({ model: target.model, messages: [{ role: "user", content: "Reply with the word: ok" }], max_tokens: 5 });
    return { ok: true, latencyMs: Math.round(performance.now() - started), model: target.model, reply: result.message.content };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { ok: false, latencyMs: Math.round(performance.now() - started), model: target.model, error: error.code, status: error.status, message: error.message, body: error.body };
  }
}

export function providerRoutes(kernel: Kernel): Hono {
  const app = new Hono();
  const notFound = (error: unknown) => {
    if (error instanceof ProviderNotFound) throw new ApiError(404, error.code, error.message, { cause: error });
    throw error;
  };

  app.get("/", async (c) => c.json({ providers: await kernel.providers.list(), presets: PROVIDER_PRESETS }));
  app.post("/", async (c) => c.json(await kernel.providers.save(await parseBody(c, ProviderInputSchema)), 201));
  app.put("/:id", async (c) => c.json(await kernel.providers.save(await parseBody(c, ProviderInputSchema), c.req.param("id")).catch(notFound)));
  app.delete("/:id", async (c) => {
    await kernel.providers.remove(c.req.param("id")).catch(notFound);
    return c.body(null, 204);
  });
  app.post("/:id/activate", async (c) => {
    await kernel.providers.activate(c.req.param("id")).catch(notFound);
    return c.json({ providers: await kernel.providers.list() });
  });
  app.post("/test", async (c) => {
    const body = await parseBody(c, TestSchema);
    const target = "id" in body ? await kernel.providers.target(body.id) : { id: "unsaved", ...body };
    if (!target) throw new ApiError(404, "provider_not_found", `No provider with id ${(body as { id: string }).id}`);
    return c.json(await testConnection(target));
  });
  return app;
}
