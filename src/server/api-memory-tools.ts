/**
 * `/api/memory/tools`: the memory tools over HTTP — the same definitions the model calls.
 * `GET` lists them with their argument schemas; `POST /:name` runs one with a JSON body.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { Kernel } from "../kernel/index.ts";
import { HomedError } from "../errors/index.ts";
import { MEMORY_TOOLS, OWNER, runMemoryTool } from "../memory/index.ts";

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
        throw new HomedError("invalid_json", "The request body is not valid JSON", { cause: error });
      }
    }
    // A MemoryToolError (unknown_tool, invalid_arguments) or RecordError (not_found, ambiguous)
    // is answered by the app's error handler from its code.
    return c.json(await runMemoryTool(c.req.param("name"), args, { client: kernel.client, embedder: kernel.recallEmbedder, access: OWNER }));
  });
  return app;
}
