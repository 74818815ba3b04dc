/**
 * `/api/memory/tools`: the memory tools over HTTP — the same definitions the model calls.
 * `GET` lists them with their argument schemas; `POST /:name` runs one with a JSON body.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Kernel } from "../kernel/index.ts";
import { MEMORY_TOOLS, MemoryToolError, RecordError, runMemoryTool } from "../memory/index.ts";
import { ApiError } from "./errors.ts";

export function memoryToolRoutes(kernel: Kernel): Hono {
  const app = new Hono();
  app.get("/", (c) => c.json({ tools: MEMORY_TOOLS.map((t) => ({ name: t.name, description: t.description, input: z.toJSONSchema(t.input, { io: "input" }) })) }));
  app.post("/:name", async (c) => {
    let args: unknown = {};
    const text = await c.req.text();
    if (text.trim()) {
      try {
        args = JSON.parse(text);
      } catch (error) {
        throw new ApiError(400, "invalid_json", "The request body is not valid JSON", { cause: error });
      }
    }
    try {
      return c.json(await runMemoryTool(c.req.param("name"), args, { client: kernel.client, embedder: kernel.recallEmbedder }));
    } catch (error) {
      if (error instanceof MemoryToolError) throw new ApiError(error.code === "unknown_tool" ? 404 : 400, error.code, error.message, { cause: error });
      if (error instanceof RecordError) throw new ApiError(error.code === "not_found" ? 404 : 409, error.code, error.message, { cause: error });
      throw error;
    }
  });
  return app;
}
