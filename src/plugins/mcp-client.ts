/**
 * The kernel's side of a plugin conversation, spoken in the Model Context Protocol so an
 * ordinary MCP stdio server works unchanged. Two ways in: the 2026-07-28 `server/discover`
 * (stateless, version in every request's `_meta`), tried first, and the `initialize`
 * handshake (up to 2025-11-25) when the server does not know discovery. homed's own
 * additions are `homed/*` methods; a plain MCP server answers "method not found" and is
 * treated as a plugin without them.
 */
import { z } from "zod";
import { ErrorCode, MAX_HOOK_DEADLINE_MS, META, MODERN_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSIONS, RpcError, STAGES, type Peer } from "../protocol/index.ts";

/** Options of one tool call: its deadline, and `_meta` for the server (ignored by plain MCP servers). */
export type CallToolOptions = { timeoutMs?: number; meta?: Record<string, unknown> };

const ImplementationSchema = z.looseObject({ name: z.string(), version: z.string().optional() });
const InitializeResultSchema = z.looseObject({
  protocolVersion: z.string(),
  capabilities: z.record(z.string(), z.unknown()).default({}),
  serverInfo: ImplementationSchema.optional(),
});
const DiscoverResultSchema = z.looseObject({
  supportedVersions: z.array(z.string()),
  capabilities: z.record(z.string(), z.unknown()).default({}),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export const ToolSchema = z.looseObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()).default({ type: "object" }),
});
export type Tool = z.infer<typeof ToolSchema>;
const ListToolsResultSchema = z.looseObject({ tools: z.array(ToolSchema), nextCursor: z.string().optional() });
export const CallToolResultSchema = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })).default([]),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});
export type CallToolResult = z.infer<typeof CallToolResultSchema>;
/** A scene's key as plugins declare it: `chan:NAME` or `chan:NAME/peer:NAME`, no spaces. */
export const SceneKeySchema = z
  .string()
  .max(200)
  .regex(/^chan:[^\s/:]+(\/peer:[^\s/]+)?$/, 'a scene key is "chan:NAME" or "chan:NAME/peer:NAME", e.g. chan:qq/peer:group_1');

/** homed's manifest extension: which facilities a plugin provides and needs. */
export const ManifestSchema = z.object({
  name: z.string().min(1),
  version: z.string().default("0.0.0"),
  provides: z.array(z.string()).default([]),
  requires: z.array(z.string()).default([]),
  /** The plugin wants a shared segment for bulk payloads and events. */
  sharedMemory: z.boolean().default(false),
  /** Kernel stages the plugin wants to take part in (answered through `homed/hook`). */
  hooks: z.array(z.enum(STAGES)).default([]),
  /** The plugin's own deadline per hook answer (the host's default when absent). */
  hookDeadlineMs: z.number().int().positive().max(MAX_HOOK_DEADLINE_MS).optional(),
  /** `fail`: a failed or late hook answer fails the turn instead of being skipped (audits). */
  hookFailure: z.enum(["continue", "fail"]).default("continue"),
  /**
   * Scenes the plugin knows by key, e.g. `chan:qq/peer:group_1` (a channel, and optionally a
   * peer in it): the daemon declares each when the plugin starts, and a declared scene takes its
   * features from the key alone (DESIGN §3 Scenes).
   */
  scenes: z.array(SceneKeySchema).max(100).default([]),
  /**
   * The plugin is a channel (src/protocol/channel.ts): a way to talk to homed whose inbound
   * messages become turns of its own sessions. The channel is named after the plugin.
   */
  channel: z.boolean().default(false),
});
export type Manifest = z.infer<typeof ManifestSchema>;

export type Session = {
  protocol: "discover" | "initialize";
  protocolVersion: string;
  serverInfo?: z.infer<typeof ImplementationSchema>;
  capabilities: Record<string, unknown>;
};

const CLIENT_INFO = { name: "homed", version: "1" };

export class McpClient {
  private session?: Session;

  constructor(
    private readonly peer: Peer,
    private readonly options: { timeoutMs?: number } = {},
  ) {}

  get info(): Session | undefined {
    return this.session;
  }

  /** Negotiates the protocol; the peer must already be started. */
  async connect(): Promise<Session> {
    this.session = (await this.discover()) ?? (await this.initialize());
    return this.session;
  }

  async listTools(): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = ListToolsResultSchema.parse(await this.call("tools/list", cursor ? { cursor } : {}));
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  }

  async callTool(name: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<CallToolResult> {
    return CallToolResultSchema.parse(await this.call("tools/call", { name, arguments: args, ...(options.meta ? { _meta: options.meta } : {}) }, options.timeoutMs));
  }

  /** homed's manifest, or null for a plain MCP server that does not know the extension. */
  async manifest(): Promise<Manifest | null> {
    try {
      const parsed = ManifestSchema.safeParse(await this.call("homed/manifest", {}));
      // The rule broken, in words, for the plugin's author (not zod's JSON of issues).
      if (!parsed.success) throw new Error(`its homed/manifest is invalid: ${z.prettifyError(parsed.error)}`);
      return parsed.data;
    } catch (error) {
      if (error instanceof RpcError && error.code === ErrorCode.MethodNotFound) return null;
      throw error;
    }
  }

  /** A request in the negotiated protocol (modern requests carry version and identity in `_meta`). */
  call(method: string, params: Record<string, unknown> = {}, timeoutMs = this.options.timeoutMs): Promise<unknown> {
    const withMeta = this.session?.protocol === "discover" ? { ...params, _meta: { ...modernMeta(), ...(params._meta as object) } } : params;
    return this.peer.request(method, withMeta, { timeoutMs });
  }

  private async discover(): Promise<Session | null> {
    let raw: unknown;
    try {
      raw = await this.peer.request("server/discover", { _meta: modernMeta() }, { timeoutMs: this.options.timeoutMs });
    } catch (error) {
      // Any answer that is an error means "not a 2026-07-28 server": fall back to the handshake.
      // No answer at all (timeout, closed) is a broken plugin and is not retried another way.
      if (error instanceof RpcError && error.code !== ErrorCode.RequestTimeout && error.code !== ErrorCode.ConnectionClosed) return null;
      throw error;
    }
    const result = DiscoverResultSchema.safeParse(raw);
    if (!result.success || !result.data.supportedVersions.includes(MODERN_PROTOCOL_VERSION)) return null;
    const serverInfo = ImplementationSchema.safeParse(result.data._meta?.[META.serverInfo]);
    return {
      protocol: "discover",
      protocolVersion: MODERN_PROTOCOL_VERSION,
      capabilities: result.data.capabilities,
      ...(serverInfo.success ? { serverInfo: serverInfo.data } : {}),
    };
  }

  private async initialize(): Promise<Session> {
    const raw = await this.peer.request("initialize", { protocolVersion: LEGACY_PROTOCOL_VERSIONS[0], capabilities: {}, clientInfo: CLIENT_INFO }, { timeoutMs: this.options.timeoutMs });
    const result = InitializeResultSchema.parse(raw);
    if (!(LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(result.protocolVersion)) {
      throw new RpcError(ErrorCode.InvalidParams, `Cannot connect: server speaks protocol ${result.protocolVersion}, which homed does not`);
    }
    await this.peer.notify("notifications/initialized");
    return {
      protocol: "initialize",
      protocolVersion: result.protocolVersion,
      capabilities: result.capabilities,
      ...(result.serverInfo ? { serverInfo: result.serverInfo } : {}),
    };
  }
}

function modernMeta() {
  return { [META.protocolVersion]: MODERN_PROTOCOL_VERSION, [META.clientInfo]: CLIENT_INFO, [META.clientCapabilities]: {} };
}
