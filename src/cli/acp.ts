/**
 * `homed acp`: homed as an agent for editors (Zed and others) over the Agent Client Protocol.
 * The editor runs this command and speaks ACP on its stdin/stdout; every prompt is relayed to the
 * running daemon as a turn in the session (channel "acp", the partner), so what is said in the
 * editor is remembered like any other conversation and the daemon's tools and memory serve it.
 * The protocol is the official `@agentclientprotocol/sdk`'s agent side; homed adds the relay:
 *
 * - `session/prompt`: the answer streams back as `agent_message_chunk` updates, each tool call as
 *   a `tool_call` update and its result as `tool_call_update`; the prompt ends `end_turn`, or
 *   `cancelled`, `max_turn_requests` (the iteration limit) or `refusal` (an `on_input` block).
 * - A shell or terminal tool waits for the editor's `session/request_permission` (the daemon asks
 *   over the turn's stream); a refusal is the call's denial, which the model reads.
 * - `session/cancel` ends the turn (the daemon keeps what was said).
 * - `session/new` `mcpServers`: stdio and HTTP servers (`mcpCapabilities.http`; SSE is refused)
 *   are started for the session by this process and their tools offered in its turns; their
 *   calls pause the daemon's turn and are run here (acp-mcp-servers.ts says why here). They stop
 *   at `session/close`, when the editor closes the connection, or on SIGTERM/SIGINT.
 * Text and resource blocks are read, and an audio block is a voice message (the daemon hears it
 * through its transcription endpoint and keeps it as an audio block); images are refused
 * (`promptCapabilities` says so). The daemon's errors (no provider, not running) are the prompt's
 * JSON-RPC error.
 */
import { randomUUID } from "node:crypto";
import { userInfo } from "node:os";
import { Readable, Writable } from "node:stream";
import { agent, ndJsonStream, PROTOCOL_VERSION, RequestError, type AgentApp, type AgentContext, type ContentBlock, type McpServer, type StopReason, type ToolKind } from "@agentclientprotocol/sdk";
import type { CommandIo, Settings } from "../config/index.ts";
import type { ToolCall } from "../llm/index.ts";
import { VERSION } from "../version.ts";
import { VOICE_MAX_BYTES } from "../kernel/index.ts";
import { EditorMcpServers } from "./acp-mcp-servers.ts";
import { adminToken, daemonBase } from "./chat.ts";
import { readSse } from "./sse.ts";

/** The session channel of editor turns. */
export const ACP_CHANNEL = "acp";

export type AcpDaemon = { base: string; token: string; partner: string };

/** What the daemon's turn stream says, as far as the relay reads it. */
type TurnEventData = { type?: string; id?: string; index?: number; name?: string; arguments?: string; text?: string; result?: string; denied?: boolean };
type PermissionEventData = { request: string; call: { id: string; name: string; arguments: string } };
type DoneData = { stopReason: string; text: string; paused?: { pending: ToolCall[] } };

const STOP_REASONS: Record<string, StopReason> = { cancelled: "cancelled", iteration_limit: "max_turn_requests", blocked: "refusal" };

/** The editor's icon for a tool: what homed's tool names say they do. */
function toolKind(name: string): ToolKind {
  if (/^(shell|terminal|code)_/.test(name)) return "execute";
  if (/fetch|browser/.test(name)) return "fetch";
  if (/recall|search|list|query/.test(name)) return "search";
  if (/read|open/.test(name)) return "read";
  if (/write|note|edit/.test(name)) return "edit";
  if (/forget|delete/.test(name)) return "delete";
  return "other";
}

/** A prompt's voice message, as the daemon's messages route takes it. */
type PromptAudio = { data: string; mime: string; source: "acp" };

/**
 * The prompt as homed's input: text, resource links by their URI, embedded text resources, and
 * one audio block (a voice message, at most VOICE_MAX_BYTES); anything else is refused.
 */
function promptInput(blocks: ContentBlock[]): { text: string; audio?: PromptAudio } {
  const audio = blocks.filter((b) => b.type === "audio");
  if (audio.length > 1) throw RequestError.invalidParams({ block: "audio" }, "homed takes one audio block (a voice message) per prompt");
  const voice = audio[0];
  if (voice && Math.floor((voice.data.length * 3) / 4) > VOICE_MAX_BYTES) {
    throw RequestError.invalidParams({ block: "audio" }, `The audio block is over ${VOICE_MAX_BYTES / 1024 / 1024} MiB, the most homed takes for a voice message`);
  }
  const parts = blocks.flatMap((b) => {
    if (b.type === "text") return [b.text];
    if (b.type === "resource_link") return [`[${b.name}](${b.uri})`];
    if (b.type === "resource" && "text" in b.resource) return [`${b.resource.uri}:\n${b.resource.text}`];
    if (b.type === "audio") return [];
    throw RequestError.invalidParams({ block: b.type }, `homed reads text, resources and audio only; this prompt has a ${b.type} block`);
  });
  const text = parts.join("\n").trim();
  if (!text && !voice) throw RequestError.invalidParams(undefined, "The prompt has no text");
  return { text, ...(voice ? { audio: { data: voice.data, mime: voice.mimeType, source: "acp" as const } } : {}) };
}

const parseArguments = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return { arguments: text };
  }
};

/** homed's agent over ACP, relaying to the daemon at `daemon.base`. */
export function acpAgent(daemon: AcpDaemon, report: (line: string) => void = () => {}): AgentApp & { closeAll(): Promise<void> } {
  const headers = { authorization: `Bearer ${daemon.token}`, "content-type": "application/json" };
  const call = async (path: string, init: RequestInit = {}): Promise<Response> => {
    let response: Response;
    try {
      response = await fetch(`${daemon.base}${path}`, { ...init, headers });
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw RequestError.internalError({ daemon: daemon.base }, `Cannot reach homed at ${daemon.base}: ${(error as Error).message} (is the daemon running?)`);
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
      throw RequestError.internalError({ error: body.error }, `homed answered ${response.status}: ${body.message ?? response.statusText}`);
    }
    return response;
  };
  /** ACP sessions → homed's session of (acp, partner) and the session's MCP servers; prompts in progress, to cancel. */
  const sessions = new Map<string, { homed: string; servers: EditorMcpServers | undefined }>();
  const running = new Map<string, AbortController>();

  /**
   * One prompt: a turn of the daemon, and while it pauses for calls to the session's MCP servers,
   * those calls run here (each shown to the editor as a tool call) and their results resume it.
   */
  async function relayTurn(
    sessionId: string,
    homedSession: string,
    input: ReturnType<typeof promptInput>,
    servers: EditorMcpServers | undefined,
    client: AgentContext,
    signal: AbortSignal,
  ): Promise<StopReason> {
    const update = (u: Record<string, unknown>) => client.notify("session/update", { sessionId, update: u as never });
    const tools = servers?.tools.length ? { tools: servers.tools } : {};
    let body: Record<string, unknown> = { ...(input.text ? { content: input.text } : {}), ...(input.audio ? { audio: input.audio } : {}), ask: true, ...tools };
    for (;;) {
      const done = await relayRound(sessionId, homedSession, body, client, signal);
      if (typeof done === "string") return done;
      const toolResults = [];
      for (const call of done.paused?.pending ?? []) {
        await update({
          sessionUpdate: "tool_call",
          toolCallId: call.id,
          title: call.function.name,
          kind: toolKind(call.function.name),
          status: "in_progress",
          rawInput: parseArguments(call.function.arguments),
        });
        const { text, failed } = servers ? await servers.call(call.function.name, call.function.arguments) : { text: "Error: this session has no MCP servers", failed: true };
        if (signal.aborted) return "cancelled";
        await update({ sessionUpdate: "tool_call_update", toolCallId: call.id, status: failed ? "failed" : "completed", content: [{ type: "content", content: { type: "text", text } }] });
        toolResults.push({ tool_call_id: call.id, content: text });
      }
      body = { toolResults, ask: true, ...tools };
    }
  }

  /** One request to the daemon's turn stream: how the prompt ended, or the turn paused for the session's MCP tools. */
  async function relayRound(sessionId: string, homedSession: string, body: Record<string, unknown>, client: AgentContext, signal: AbortSignal): Promise<StopReason | DoneData> {
    const update = (u: Record<string, unknown>) => client.notify("session/update", { sessionId, update: u as never });
    const announced = new Set<string>();
    const announce = async (id: string, name: string, args: string) => {
      if (announced.has(id)) return;
      announced.add(id);
      await update({ sessionUpdate: "tool_call", toolCallId: id, title: name, kind: toolKind(name), status: "in_progress", rawInput: parseArguments(args) });
    };
    /** The round's calls as the model streams them: deltas of one call share an index. */
    const byIndex = new Map<number, { id?: string; name?: string; arguments: string }>();
    try {
      // Inside the try: a cancel can come before the daemon's answer has begun (its headers come with the first event).
      const response = await call(`/api/sessions/${homedSession}/messages`, { method: "POST", body: JSON.stringify(body), signal });
      for await (const message of readSse(response.body!)) {
        const data = JSON.parse(message.data) as unknown;
        if (message.event === "content") {
          await update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: (data as TurnEventData).text ?? "" } });
        } else if (message.event === "tool_call") {
          const delta = data as TurnEventData;
          const pending = byIndex.get(delta.index ?? 0) ?? { arguments: "" };
          pending.id ??= delta.id;
          pending.name ??= delta.name;
          pending.arguments += delta.arguments ?? "";
          byIndex.set(delta.index ?? 0, pending);
        } else if (message.event === "iteration") {
          byIndex.clear();
        } else if (message.event === "permission") {
          const { request, call: asked } = data as PermissionEventData;
          await announce(asked.id, asked.name, asked.arguments);
          const answer = await client.request("session/request_permission", {
            sessionId,
            toolCall: { toolCallId: asked.id, title: asked.name, kind: toolKind(asked.name), status: "pending", rawInput: parseArguments(asked.arguments) },
            options: [
              { optionId: "allow", name: "Allow", kind: "allow_once" },
              { optionId: "reject", name: "Reject", kind: "reject_once" },
            ],
          });
          const allow = answer.outcome.outcome === "selected" && answer.outcome.optionId === "allow";
          const reason = answer.outcome.outcome === "cancelled" ? "the prompt was cancelled" : "refused in the editor";
          await call(`/api/sessions/${homedSession}/permissions/${request}`, { method: "POST", body: JSON.stringify({ allow, reason }) });
        } else if (message.event === "tool_result") {
          const result = data as TurnEventData;
          await announce(result.id!, result.name!, [...byIndex.values()].find((c) => c.id === result.id)?.arguments ?? "");
          await update({
            sessionUpdate: "tool_call_update",
            toolCallId: result.id,
            status: result.denied ? "failed" : "completed",
            content: [{ type: "content", content: { type: "text", text: result.result ?? "" } }],
          });
        } else if (message.event === "done") {
          const done = data as DoneData;
          if (done.stopReason === "client_tools" && done.paused?.pending.length) return done;
          return STOP_REASONS[done.stopReason] ?? "end_turn";
        } else if (message.event === "error") {
          const error = data as { error: string; message: string };
          throw RequestError.internalError({ error: error.error }, `${error.error}: ${error.message}`);
        }
      }
    } catch (error) {
      if (signal.aborted) return "cancelled";
      throw error;
    }
    if (signal.aborted) return "cancelled";
    throw RequestError.internalError(undefined, "homed's answer ended before the turn did");
  }

  /** Ends a session's prompt in progress and stops its MCP servers. */
  async function closeSession(sessionId: string): Promise<void> {
    running.get(sessionId)?.abort();
    const session = sessions.get(sessionId);
    sessions.delete(sessionId);
    await session?.servers?.close();
  }

  const app = agent({ name: "homed" })
    .onRequest("initialize", () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: false,
        promptCapabilities: { image: false, audio: true, embeddedContext: true },
        // stdio servers are always taken (ACP requires it); HTTP ones too; SSE (deprecated in MCP) is not.
        mcpCapabilities: { http: true, sse: false },
        sessionCapabilities: { close: {} },
      },
      authMethods: [],
      agentInfo: { name: "homed", title: "homed", version: VERSION },
    }))
    .onRequest("session/new", async ({ params }) => {
      const servers = await startServers(params.mcpServers, params.cwd);
      try {
        const session = (await (await call("/api/sessions", { method: "POST", body: JSON.stringify({ channel: ACP_CHANNEL, partner: daemon.partner }) })).json()) as { id: string };
        const sessionId = randomUUID();
        sessions.set(sessionId, { homed: session.id, servers });
        return { sessionId };
      } catch (error) {
        await servers?.close();
        throw error;
      }
    })
    .onRequest("session/prompt", async ({ params, client }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw RequestError.sessionNotFound(params.sessionId);
      const input = promptInput(params.prompt);
      const controller = new AbortController();
      running.get(params.sessionId)?.abort();
      running.set(params.sessionId, controller);
      try {
        return { stopReason: await relayTurn(params.sessionId, session.homed, input, session.servers, client, controller.signal) };
      } finally {
        if (running.get(params.sessionId) === controller) running.delete(params.sessionId);
      }
    })
    .onRequest("session/close", async ({ params }) => {
      if (!sessions.has(params.sessionId)) throw RequestError.sessionNotFound(params.sessionId);
      await closeSession(params.sessionId);
      return {};
    })
    .onNotification("session/cancel", ({ params }) => {
      // Closing the turn's stream is how the daemon is told: it cancels the turn, keeping what was said.
      running.get(params.sessionId)?.abort();
    });

  /** The session's MCP servers started, or undefined when it has none; a bad or failing one is the request's error. */
  async function startServers(servers: readonly McpServer[], cwd: string): Promise<EditorMcpServers | undefined> {
    if (!servers.length) return undefined;
    const sse = servers.find((s) => "type" in s && s.type === "sse");
    if (sse) throw RequestError.invalidParams({ server: sse.name }, `homed takes stdio and HTTP MCP servers, not SSE (its mcpCapabilities say sse: false): ${sse.name}`);
    try {
      return await EditorMcpServers.start(servers, cwd, report);
    } catch (error) {
      throw RequestError.invalidParams({ mcpServers: servers.map((s) => s.name) }, (error as Error).message);
    }
  }

  return Object.assign(app, { closeAll: () => Promise.all([...sessions.keys()].map(closeSession)).then(() => {}) });
}

export type AcpOptions = { settings: Settings; token?: string; partner?: string };

/** Serves ACP on this process's stdin/stdout until the editor closes them. */
export async function runAcp(options: AcpOptions, io: Pick<CommandIo, "stderr">): Promise<number> {
  const daemon = { base: daemonBase(options.settings), token: adminToken(options), partner: options.partner ?? userInfo().username };
  const stream = ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>);
  const homed = acpAgent(daemon, (line) => io.stderr(`${line}\n`));
  // The sessions' MCP servers go with this process, however it ends: the editor closing the
  // connection, or a signal (the editor quitting).
  // `process.on`, not `once`: under Deno a `once` signal listener is never called, and the signal
  // then kills homed acp with its servers left running (seen in the acp test under Deno).
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void homed.closeAll().finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  const connection = homed.connect(stream);
  await connection.closed;
  await homed.closeAll();
  return 0;
}
