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

/**
 * A batch is bounded in count and in what it may answer. Measured before the bounds: one 60 KB
 * batch of 369 recalls from an mcp-only key ran them all at once, held the event loop 2.1 s,
 * answered 10.6 MB and added ~600 MB RSS. Now its items run one after another (one recall's work
 * at a time, the loop free between them), at most MAX_BATCH of them, and once the answers hold
 * MAX_BATCH_ANSWER_BYTES the rest answer a clear error instead of running.
 */
export const MAX_BATCH = 32;
export const MAX_BATCH_ANSWER_BYTES = 4 * 1024 * 1024;

async function answerBatch(c: Context, batch: unknown[], context: MemoryToolContext): Promise<Response> {
  const answers: object[] = [];
  let bytes = 0;
  for (const message of batch) {
    if (bytes >= MAX_BATCH_ANSWER_BYTES) {
      const id = (message as { id?: unknown } | null)?.id;
      if (typeof id === "string" || typeof id === "number") {
        answers.push({
          jsonrpc: "2.0",
          id,
          error: { code: ErrorCode.InternalError, message: `Not run: the batch's answers reached ${MAX_BATCH_ANSWER_BYTES} bytes; send the rest in another request` },
        });
      }
      continue;
    }
    const answer = await respondMcp(message, context);
    if (answer === undefined) continue;
    answers.push(answer);
    bytes += JSON.stringify(answer).length;
  }
  return answers.length ? c.json(answers) : c.body(null, 202);
}

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
      if (body.length > MAX_BATCH) {
        return c.json(
          { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: `A batch holds at most ${MAX_BATCH} messages; this one holds ${body.length}: send them in several requests` } },
          400,
        );
      }
      return await answerBatch(c, body, context);
    }
    const one = await respondMcp(body, context);
    return one ? c.json(one) : c.body(null, 202);
  });
  return app;
}
