/**
 * homed's MCP server, transport aside: the memory tools, memories as resources
 * (`homed://memory/<id>`) and a `recall` prompt, one JSON-RPC message at a time. Served over
 * HTTP at `/mcp` (mcp-http.ts) and over stdio by `homed mcp` (src/cli/mcp.ts), so both offer the same.
 */
import { z } from "zod";
import { HomedError } from "../errors/index.ts";
import { MEMORY_TOOLS, openRecord, runMemoryTool, type MemoryToolContext } from "../memory/index.ts";
import { ErrorCode, LEGACY_PROTOCOL_VERSIONS, META, MODERN_PROTOCOL_VERSION } from "../plugins/index.ts";
import { VERSION } from "../version.ts";

const CAPABILITIES = { tools: {}, resources: {}, prompts: {} };
const SERVER_INFO = { name: "homed", version: VERSION };
const INSTRUCTIONS = "homed's long-term memory: recall, open, note, list, forget, injections, stats, doctor; memories as homed://memory/<id>.";

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
    const body = { error: error instanceof HomedError ? error.code : "tool_failed", message: (error as Error).message };
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
        capabilities: CAPABILITIES,
        serverInfo: SERVER_INFO,
        instructions: INSTRUCTIONS,
      };
    }
    // The 2026-07-28 handshake, as homed's plugin SDK answers it.
    case "server/discover":
      return { supportedVersions: [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS], capabilities: CAPABILITIES, instructions: INSTRUCTIONS, _meta: { [META.serverInfo]: SERVER_INFO } };
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
      return {
        resourceTemplates: [{ uriTemplate: `${RESOURCE_PREFIX}{id}`, name: "memory", description: "One memory (fact or event) by id, with its source and history", mimeType: "application/json" }],
      };
    case "resources/read": {
      const { uri } = params(ReadSchema, message);
      if (!uri.startsWith(RESOURCE_PREFIX)) throw new RpcFailure(-32002, `No resource ${uri}: homed's are ${RESOURCE_PREFIX}<id>`);
      const record = await openRecord(context.client, decodeURIComponent(uri.slice(RESOURCE_PREFIX.length)), context.access).catch((error: Error) => {
        throw new RpcFailure(-32002, `No resource ${uri}: ${error.message}`);
      });
      return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(record) }] };
    }
    case "prompts/list":
      return {
        prompts: [{ name: "recall", description: "What homed remembers about a question, as a message to start from", arguments: [{ name: "query", description: "what to recall", required: true }] }],
      };
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
export async function respondMcp(raw: unknown, context: MemoryToolContext): Promise<object | undefined> {
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
