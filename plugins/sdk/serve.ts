/**
 * Serves a plugin over stdio: answers the MCP handshake (both `initialize` and the 2026-07-28
 * `server/discover`), `tools/list`, `tools/call`, and homed's `homed/manifest`. Exits its
 * loop when stdin closes, which is how the kernel asks a plugin to stop.
 */
import type { Readable, Writable } from "node:stream";
import { z } from "zod";
import {
  ErrorCode,
  LEGACY_PROTOCOL_VERSIONS,
  META,
  MODERN_PROTOCOL_VERSION,
  Peer,
  RpcError,
  STAGES,
  StreamTransport,
  type HookAnswer,
  type Stage,
  type StageAnswers,
  type StagePayloads,
} from "../../src/protocol/index.ts";
import { PluginShared } from "./shared.ts";
import { describeTool, runTool, type ToolDefinition } from "./tool.ts";
import { serveChannelMethods, type ChannelOpen } from "./channel.ts";

export type PluginDefinition<C extends z.ZodType = z.ZodType> = {
  name: string;
  version: string;
  description: string;
  provides?: string[];
  requires?: string[];
  /** Ask the kernel for a shared segment (bulk payloads, event ring). */
  sharedMemory?: boolean;
  /** Its size, for a built-in (the spec's default, 64 MiB, when absent): each side may place half. */
  sharedMemoryBytes?: number;
  /** Memory and CPU its process tree may use, where the defaults (src/plugins/spec.ts) are too tight. */
  limits?: { memoryMb?: number; cpuSecondsPerMinute?: number };
  /** Settings the kernel passes in HOMED_PLUGIN_CONFIG (JSON), checked before anything runs. */
  config: C;
  /** Kernel stages this plugin takes part in, built once the settings are known. */
  hooks?: (config: z.infer<C>) => StageHooks | Partial<Record<Stage, HookHandler>>;
  /** How long the kernel waits for each hook answer (its default, 2 s, when absent; at most 10 s). */
  hookDeadlineMs?: number;
  /** `fail`: a failed or late answer fails the turn instead of being skipped (an audit that must see every call). */
  hookFailure?: "continue" | "fail";
  /** Scenes this plugin knows by key (`chan:qq/peer:group_1`): declared by the daemon when it starts. */
  scenes?: string[];
  /** Builds the tools once the settings are known; `onClose` registers clean-up for shutdown. */
  tools: (config: z.infer<C>, lifecycle: Lifecycle) => ToolDefinition[] | Promise<ToolDefinition[]>;
  /** Makes the plugin a channel (set by `defineChannel`, channel.ts): called when homed opens it. */
  channel?: ChannelOpen<C>;
};

/** A hook for any stage, its payload untyped (a plugin that treats stages alike). */
export type HookHandler = (payload: unknown, context: { signal: AbortSignal }) => HookAnswer | Promise<HookAnswer>;

/**
 * Hooks by stage, each with its stage's payload and the answers that stage takes: `on_input`
 * may `reply` (short-circuit, no model call), `pre_action` may `inject` text into the model's
 * request, `after_output` may `report` statistics; see StageAnswers.
 */
export type StageHooks = { [S in Stage]?: (payload: StagePayloads[S], context: { signal: AbortSignal }) => StageAnswers[S] | Promise<StageAnswers[S]> };

/**
 * What a plugin's tools get at start: clean-up for shutdown, and the shared segment (attached
 * once the kernel sends `homed/shm_attach`), for pushes made outside any tool call (timers).
 */
export type Lifecycle = { onClose(cleanup: () => void | Promise<void>): void; shared: PluginShared };

export function definePlugin<C extends z.ZodType>(plugin: PluginDefinition<C>): PluginDefinition {
  return plugin as unknown as PluginDefinition;
}

export type ServeOptions = {
  input: Readable;
  output: Writable;
  env: Record<string, string | undefined>;
  log?: (line: string) => void;
  /** Frame cap for what the kernel sends (the transport's default when absent). */
  maxFrameBytes?: number;
  /** Results from this size go through the shared segment, if the plugin has one (default BULK_MIN_BYTES; Infinity: always stdio). */
  bulkMinBytes?: number;
};

const CallParamsSchema = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional(), _meta: z.looseObject({ [META.session]: z.string().optional() }).optional() });
const InitializeParamsSchema = z.looseObject({ protocolVersion: z.string() });
const AttachParamsSchema = z.looseObject({ name: z.string(), size: z.number().int().positive() });
const HookParamsSchema = z.looseObject({ stage: z.enum(STAGES), payload: z.unknown() });
const ReleaseParamsSchema = z.looseObject({ offset: z.number().int().nonnegative(), length: z.number().int().nonnegative() });

/** A plugin's settings are missing or wrong: reported as one line, not a stack. */
export class PluginConfigError extends Error {
  readonly code = "plugin_config";
}

export function readConfig<C extends z.ZodType>(plugin: PluginDefinition<C>, env: Record<string, string | undefined>): z.infer<C> {
  let raw: unknown = {};
  const text = env.HOMED_PLUGIN_CONFIG;
  if (text) {
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new PluginConfigError(`Cannot start plugin ${plugin.name}: HOMED_PLUGIN_CONFIG is not JSON`, { cause: error });
    }
  }
  const parsed = plugin.config.safeParse(raw);
  if (!parsed.success) throw new PluginConfigError(`Cannot start plugin ${plugin.name}: bad config: ${issuesLine(parsed.error)}`);
  return parsed.data;
}

/** Every issue on one line (`root: expected string; maxReadBytes: …`): the error is one line of stderr. */
function issuesLine(error: z.ZodError): string {
  return error.issues.map((issue) => (issue.path.length ? `${issue.path.join(".")}: ${issue.message}` : issue.message)).join("; ");
}

/**
 * Builds the plugin's tools from its settings. Settings that parse can still be unusable (a
 * root folder that does not exist): that is a settings problem too, reported as one line.
 */
async function startTools<C extends z.ZodType>(plugin: PluginDefinition<C>, config: z.infer<C>, lifecycle: Lifecycle): Promise<ToolDefinition[]> {
  try {
    return await plugin.tools(config, lifecycle);
  } catch (error) {
    throw new PluginConfigError(`Cannot start plugin ${plugin.name}: ${(error as Error).message}`, { cause: error });
  }
}

/** Serves a plugin on this process's stdin and stdout, its log on stderr, until stdin closes (an external plugin's whole main). */
export function serveStdio(plugin: PluginDefinition): Promise<void> {
  return servePlugin(plugin, { input: process.stdin, output: process.stdout, env: process.env, log: (line) => process.stderr.write(`${line}\n`) });
}

/** Runs the plugin until its input closes. */
export async function servePlugin(plugin: PluginDefinition, options: ServeOptions): Promise<void> {
  const log = options.log ?? (() => {});
  const cleanups: (() => void | Promise<void>)[] = [];
  const config = readConfig(plugin, options.env);
  const transport = new StreamTransport(options.input, options.output, options.maxFrameBytes ? { maxFrameBytes: options.maxFrameBytes } : {});
  const peer = new Peer(transport, { log });
  const shared = new PluginShared(peer);
  const lifecycle: Lifecycle = { onClose: (cleanup) => void cleanups.push(cleanup), shared };
  const tools = new Map((await startTools(plugin, config, lifecycle)).map((t) => [t.name, t]));
  const hooks = plugin.hooks?.(config) ?? {};
  const serverInfo = { name: plugin.name, version: plugin.version };
  const capabilities = { tools: {} };

  peer.handle("initialize", (params) => {
    const asked = InitializeParamsSchema.safeParse(params);
    const known = LEGACY_PROTOCOL_VERSIONS as readonly string[];
    // Answer with the client's version when we speak it, else our newest (the client decides).
    const protocolVersion = asked.success && known.includes(asked.data.protocolVersion) ? asked.data.protocolVersion : known[0];
    return { protocolVersion, capabilities, serverInfo, instructions: plugin.description };
  });
  peer.handle("server/discover", () => ({
    supportedVersions: [MODERN_PROTOCOL_VERSION, ...LEGACY_PROTOCOL_VERSIONS],
    capabilities,
    instructions: plugin.description,
    _meta: { [META.serverInfo]: serverInfo },
  }));
  peer.handle("ping", () => ({}));
  // A plugin that needs its channel must not run without it: silently losing every push is
  // worse than failing start-up where the kernel can see and report it.
  const needChannel = () => {
    if (plugin.sharedMemory && !shared.attached) {
      throw new RpcError(ErrorCode.InternalError, `Cannot serve ${plugin.name}: its shared-memory channel was not registered (homed/shm_attach)`);
    }
  };
  peer.handle("tools/list", () => {
    needChannel();
    return { tools: [...tools.values()].map(describeTool) };
  });
  peer.handle("tools/call", async (params, context) => {
    needChannel();
    const parsed = CallParamsSchema.safeParse(params);
    if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `Cannot call a tool: ${z.prettifyError(parsed.error)}`);
    const call = parsed.data;
    const tool = tools.get(call.name);
    if (!tool) return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: "unknown_tool", message: `No tool named ${call.name}` }) }] };
    return runTool(tool, call.arguments, { ...context, shared, session: call._meta?.[META.session] }, { ...(options.bulkMinBytes !== undefined ? { bulkMinBytes: options.bulkMinBytes } : {}), log });
  });
  peer.handle("homed/manifest", () => ({
    name: plugin.name,
    version: plugin.version,
    provides: plugin.provides ?? [],
    requires: plugin.requires ?? [],
    sharedMemory: plugin.sharedMemory ?? false,
    hooks: Object.keys(hooks),
    ...(plugin.hookDeadlineMs ? { hookDeadlineMs: plugin.hookDeadlineMs } : {}),
    ...(plugin.hookFailure ? { hookFailure: plugin.hookFailure } : {}),
    ...(plugin.scenes?.length ? { scenes: plugin.scenes } : {}),
    ...(plugin.channel ? { channel: true } : {}),
  }));
  if (plugin.channel) serveChannelMethods(peer, plugin.channel, config, lifecycle, log);
  peer.handle("homed/hook", (params, context) => {
    const parsed = HookParamsSchema.safeParse(params);
    if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `Cannot run hook: ${z.prettifyError(parsed.error)}`);
    const handler = hooks[parsed.data.stage] as HookHandler | undefined;
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, `${plugin.name} has no ${parsed.data.stage} hook`);
    return handler(parsed.data.payload, context);
  });
  peer.handle("homed/shm_attach", (params) => {
    const parsed = AttachParamsSchema.safeParse(params);
    if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, `Cannot attach shared memory: ${z.prettifyError(parsed.error)}`);
    shared.attach(parsed.data.name, parsed.data.size);
    return {};
  });
  peer.on("homed/shm_release", (params) => {
    const parsed = ReleaseParamsSchema.safeParse(params);
    if (parsed.success) shared.release(parsed.data);
    else log(`Cannot release shared memory: ${z.prettifyError(parsed.error)}`);
  });

  await peer.start();
  await peer.closedPromise;
  // The kernel closed our stdin: end what the tools started before the process goes.
  for (const cleanup of cleanups) await cleanup();
  shared.detach();
}
