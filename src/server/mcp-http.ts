/**
 * MCP over Streamable HTTP at `/mcp` (spec 2025-03-26 on): the memory tools `homed mcp` serves
 * over stdio, memories as resources (`homed://memory/<id>`) and a `recall` prompt, for remote MCP
 * clients. Stateless: every POST carries one JSON-RPC message (or a batch) and gets its answer
 * as JSON; no session id, and GET answers 405 (the spec's way to say there is no server-sent
 * stream), since nothing here pushes. Auth is the app key (scope `mcp`) or the admin token; an
 * app key's calls see its partner's memory as a chat of that partner would.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { MEMORY_TOOLS, MemoryToolError, openRecord, runMemoryTool, type MemoryToolContext } from "../memory/index.ts";
import type { Kernel } from "../kernel/index.ts";
import { ErrorCode, LEGACY_PROTOCOL_VERSIONS } from "../plugins/index.ts";
import { VERSION } from "../version.ts";
import type { AuthEnv } from "./auth.ts";

const MessageSchema = z.object({ jsonrpc: z.literal("2.0"), id: z.union([z.string(), z.number().int()]).optional(), method: z.string().min(1), params: z.record(z.string(), z.unknown()).optional() });
type Message = z.infer<typeof MessageSchema>;

const RESOURCE_PREFIX = "homed://memory/";
/** Facts listed per resources/list page. */
const PAGE = 50;

class RpcFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const InitializeSchema = z.looseObject({ protocolVersion: z.string() });
const CallSchema = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() });
const ReadSchema = z.object({ uri: z.string() });
const ListSchema = z.looseObject({ cursor: z.string().regex(/^\d+$/).optional() });
const PromptSchema = z.object({ name: z.literal("recall"), arguments: z.object({ query: z.string().min(1).max(2000) }) });

function params<S extends z.ZodType>(schema: S, message: Message): z.output<S> {
  const parsed = schema.safeParse(message.params ?? {});
  if (!parsed.success) throw new RpcFailure(ErrorCode.InvalidParams, `Cannot run ${message.method}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A tool result as MCP carries it: JSON as text and as structured content; failures as data (`isError`). */
async function callTool(name: string, args: unknown, context: MemoryToolContext) {
  try {
    const output = await runMemoryTool(name, args, context);
    return { content: [{ type: "text", text: JSON.stringify(output) }], structuredContent: output };
  } catch (error) {
    const body = { error: error instanceof MemoryToolError ? error.code : "tool_failed", message: (error as Error).message };
    return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body };
  }
}

async function answer(message: Message, context: MemoryToolContext): Promise<unknown> {
  switch (message.method) {
    case "initialize": {
      const asked = InitializeSchema.safeParse(message.params);
      const known = LEGACY_PROTOCOL_VERSIONS as readonly string[];
      return {
        protocolVersion: asked.success && known.includes(asked.data.protocolVersion) ? asked.data.protocolVersion : known[0],
        capabilities: { tools: {}, resources: {}, prompts: {} },
        serverInfo: { name: "homed", version: VERSION },
        instructions: "homed's long-term memory: recall, open, note, list, forget, injections, stats, doctor; memories as homed://memory/<id>.",
      };
    }
    case "ping":
      return {};
    case "tools/list":
      return { tools: MEMORY_TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: z.toJSONSchema(t.input, { io: "input" }) })) };
    case "tools/call": {
      const call = params(CallSchema, message);
      return callTool(call.name, call.arguments, context);
    }
    case "resources/list": {
      const offset = Number(params(ListSchema, message).cursor ?? 0);
      const listed = (await runMemoryTool("memory_list", { layer: "L3", limit: PAGE, offset }, context)) as { items: { id: string; text: string }[] };
      return {
        resources: listed.items.map((m) => ({ uri: `${RESOURCE_PREFIX}${m.id}`, name: m.text.slice(0, 80), description: m.text, mimeType: "application/json" })),
        ...(listed.items.length === PAGE ? { nextCursor: String(offset + PAGE) } : {}),
      };
    }
    case "resources/templates/list":
      return { resourceTemplates: [{ uriTemplate: `${RESOURCE_PREFIX}{id}`, name: "memory", description: "One memory (fact or event) by id, with its source and history", mimeType: "application/json" }] };
    case "resources/read": {
      const { uri } = params(ReadSchema, message);
      if (!uri.startsWith(RESOURCE_PREFIX)) throw new RpcFailure(-32002, `No resource ${uri}: homed's are ${RESOURCE_PREFIX}<id>`);
      const record = await openRecord(context.client, decodeURIComponent(uri.slice(RESOURCE_PREFIX.length))).catch((error: Error) => {
        throw new RpcFailure(-32002, `No resource ${uri}: ${error.message}`);
      });
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(record) }] };
    }
    case "prompts/list":
      return { prompts: [{ name: "recall", description: "What homed remembers about a question, as a message to start from", arguments: [{ name: "query", description: "what to recall", required: true }] }] };
    case "prompts/get": {
      const { arguments: args } = params(PromptSchema, message);
      const found = (await runMemoryTool("memory_recall", { query: args.query }, context)) as { results: { id: string; text: string }[] };
      const lines = found.results.map((r) => `- [${r.id}] ${r.text}`);
      const text = lines.length ? `What homed remembers that bears on "${args.query}":\n${lines.join("\n")}` : `homed remembers nothing that bears on "${args.query}".`;
      return { description: `Memories for: ${args.query}`, messages: [{ role: "user", content: { type: "text", text } }] };
    }
    default:
      throw new RpcFailure(ErrorCode.MethodNotFound, `No method ${message.method}`);
  }
}

/** The JSON-RPC answer to one message, or undefined for a notification (nothing is answered). */
async function respond(raw: unknown, context: MemoryToolContext): Promise<object | undefined> {
  const parsed = MessageSchema.safeParse(raw);
  if (!parsed.success) return { jsonrpc: "2.0", id: null, error: { code: ErrorCode.InvalidRequest, message: `Not a JSON-RPC request: ${z.prettifyError(parsed.error)}` } };
  const message = parsed.data;
  if (message.id === undefined) return undefined;
  try {
    return { jsonrpc: "2.0", id: message.id, result: await answer(message, context) };
  } catch (error) {
    if (!(error instanceof RpcFailure)) throw error;
    return { jsonrpc: "2.0", id: message.id, error: { code: error.code, message: error.message } };
  }
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
    const key = c.get("appKey");
    const partner = key ? (key.partner ?? key.name) : undefined;
    const context: MemoryToolContext = { client: kernel.client, embedder: kernel.recallEmbedder, ...(partner ? { partner, conversation: partner } : {}) };
    if (Array.isArray(body)) {
      const answers = (await Promise.all(body.map((m) => respond(m, context)))).filter((a) => a !== undefined);
      return answers.length ? c.json(answers) : c.body(null, 202);
    }
    const one = await respond(body, context);
    return one ? c.json(one) : c.body(null, 202);
  });
  return app;
}
