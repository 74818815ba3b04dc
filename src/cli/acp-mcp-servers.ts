/**
 * The MCP servers an editor passes in ACP `session/new` (Zed passes its configured ones so), run
 * for that session by `homed acp` itself and offered to the model as that session's tools.
 *
 * Why here, in the editor's process, and not in the daemon: ACP means them to run on the editor's
 * side — a stdio server is a program on the editor's machine, with the editor's environment and
 * working folder, and an HTTP one a URL the editor can reach (a daemon elsewhere may not). homed's
 * turns already take caller-run tools: `POST /api/sessions/:id/messages` with `tools` offers them
 * beside homed's, a round that calls one pauses the turn (`client_tools`, the same pause /v1's
 * function tools use, kernel/paused-turns.ts), and `toolResults` resumes it. So the daemon never
 * starts an editor's program, and the servers live exactly as long as the ACP session.
 *
 * Each server is a plugin connection (plugins/connection.ts): a stdio one is a child in its own
 * process group, so `close()` ends whatever it started; an HTTP one speaks Streamable HTTP with
 * the editor's headers. A tool is offered as `<server>__<tool>` so two servers' tools, and homed's
 * own, cannot be confused.
 */
import type { McpServer } from "@agentclientprotocol/sdk";
import type { ToolSpec } from "../llm/index.ts";
import { LogRing, openPlugin, PluginSpecSchema, type CallToolResult, type PluginConnection, type Tool } from "../plugins/index.ts";

/** A call's answer when the server names no content: the model still gets a result for its call. */
const EMPTY_RESULT = "(the tool returned nothing)";
/** OpenAI-compatible tool names: letters, digits, `_` and `-`, at most 64. */
const toolName = (server: string, tool: string) => `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
/** A server's name as a plugin name (lower-case, digits, `-`, `_`). */
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/^[^a-z0-9]+/, "")
    .slice(0, 40) || "mcp";

/** What the model reads of a tool's result: its text parts, other parts named, an error marked as such. */
export function resultText(result: CallToolResult): string {
  const parts = result.content.map((p) => (p.type === "text" && typeof p.text === "string" ? p.text : `[${p.type} content]`));
  if (!parts.length && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join("\n") || EMPTY_RESULT;
  return result.isError ? `Error: ${text}` : text;
}

export class EditorMcpServers {
  private readonly byName = new Map<string, { connection: PluginConnection; tool: Tool }>();
  private readonly offered: ToolSpec[] = [];

  private constructor(private readonly servers: { connection: PluginConnection; tools: Tool[] }[]) {
    for (const { connection, tools } of servers) {
      for (const tool of tools) {
        const name = toolName(connection.spec.name, tool.name);
        if (this.byName.has(name)) continue;
        this.byName.set(name, { connection, tool });
        this.offered.push({ type: "function", function: { name, description: tool.description ?? tool.title ?? tool.name, parameters: tool.inputSchema } });
      }
    }
  }

  /**
   * Starts and connects every server (at once) and lists its tools. A server that cannot start
   * fails the whole call with its name and reason, after stopping the others: a session that
   * silently lacks a server the editor configured is what this replaces.
   */
  static async start(servers: readonly McpServer[], cwd: string, report: (line: string) => void): Promise<EditorMcpServers> {
    const taken = new Set<string>();
    const connections = servers.map((server) => {
      let name = slug(server.name);
      for (let n = 2; taken.has(name); n++) name = `${slug(server.name).slice(0, 36)}_${n}`;
      taken.add(name);
      const pairs = (list: { name: string; value: string }[]) => Object.fromEntries(list.map((p) => [p.name, p.value]));
      const spec = PluginSpecSchema.parse(
        "command" in server ? { name, command: server.command, args: server.args, env: pairs(server.env), cwd } : { name, url: server.url, headers: pairs(server.headers) },
      );
      const log = new LogRing(100);
      return { label: server.name, connection: openPlugin(spec, { log, report: (line) => report(`mcp server ${server.name}: ${line}`) }), log };
    });
    const started = await Promise.allSettled(
      connections.map(async ({ connection }) => {
        await connection.connect();
        return { connection, tools: await connection.client.listTools() };
      }),
    );
    const failed = started.flatMap((s, i) => (s.status === "rejected" ? [{ ...connections[i]!, error: s.reason as Error }] : []));
    if (failed.length) {
      await Promise.all(connections.map(({ connection }) => connection.stop()));
      const why = failed.map((f) => `${f.label}: ${f.error.message}${f.log.lastOutput ? ` (its last words: ${f.log.lastOutput})` : ""}`).join("; ");
      throw new Error(`Cannot start the session's MCP servers: ${why}`);
    }
    return new EditorMcpServers(started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : [])));
  }

  /** The servers' tools, as the model is offered them. */
  get tools(): ToolSpec[] {
    return this.offered;
  }

  /** Runs one of the offered tools; what the model reads as its result (errors included, never thrown). */
  async call(name: string, argumentsJson: string): Promise<{ text: string; failed: boolean }> {
    const found = this.byName.get(name);
    if (!found) return { text: `Error: no tool named ${name} in this session's MCP servers`, failed: true };
    let args: Record<string, unknown>;
    try {
      args = argumentsJson.trim() ? (JSON.parse(argumentsJson) as Record<string, unknown>) : {};
    } catch (error) {
      return { text: `Error: the arguments are not JSON (${(error as Error).message})`, failed: true };
    }
    try {
      const result = await found.connection.client.callTool(found.tool.name, args);
      return { text: resultText(result), failed: result.isError === true };
    } catch (error) {
      return { text: `Error: ${(error as Error).message}`, failed: true };
    }
  }

  /** Stops every server (a stdio one's whole process group); resolves once they are gone. */
  async close(): Promise<void> {
    await Promise.all(this.servers.map(({ connection }) => connection.stop()));
  }
}
