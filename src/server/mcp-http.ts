/**
 * MCP over Streamable HTTP at `/mcp` (spec 2025-03-26 on): homed's MCP server (mcp-methods.ts,
 * which `homed mcp` serves over stdio) for remote MCP clients. Stateless: every POST carries one
 * JSON-RPC message (or a batch) and gets its answer as JSON; no session id, and GET answers 405 (the spec's way to say there is no server-sent
 * stream), since nothing here pushes. Auth is the app key (scope `mcp`) or the admin token; an
 * app key's calls see its partner's memory as a chat of that partner would.
 */
import { Hono, type Context } from "hono";
import { partnerOf, type MemoryToolContext } from "../memory/index.ts";
import { accessOf } from "./request-access.ts";
import type { Kernel } from "../kernel/index.ts";
import { ErrorCode } from "../plugins/index.ts";
import type { AuthEnv } from "./auth.ts";
import { respondMcp } from "./mcp-methods.ts";

export function mcpRoutes(kernel: Kernel): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const noStream = (c: Context) => c.body(null, 405, { allow: "POST" });
  app.get("/", noStream);
  app.delete("/", noStream);
  app.post("/", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ jsonrpc: "2.0", id: null, error: { code: ErrorCode.ParseError, message: "The request body is not valid JSON" } }, 400);
    }
    const access = accessOf(c);
    const partner = partnerOf(access);
    const context: MemoryToolContext = { client: kernel.client, embedder: kernel.recallEmbedder, access, ...(partner ? { conversation: partner } : {}) };
    if (Array.isArray(body)) {
      const answers = (await Promise.all(body.map((m) => respondMcp(m, context)))).filter((a) => a !== undefined);
      return answers.length ? c.json(answers) : c.body(null, 202);
    }
    const one = await respondMcp(body, context);
    return one ? c.json(one) : c.body(null, 202);
  });
  return app;
}
