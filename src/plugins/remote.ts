/**
 * A plugin that is an MCP server somewhere else, reached over Streamable HTTP (`plugin.json` with
 * `url` and `headers` instead of `command`): the same Peer and McpClient as a child's, over
 * http-transport.ts. It is "gone" when its transport closes (the server unreachable once
 * connected, the session forgotten, or homed stopping it), which its supervisor counts as a crash and retries like one.
 * Intake limits are a child's concern: a remote server only answers homed's own POSTs.
 */
import type { ChildOptions, Dropped, Exit } from "./child.ts";
import type { PluginConnection } from "./connection.ts";
import { StreamableHttpTransport } from "./http-transport.ts";
import { McpClient } from "./mcp-client.ts";
import type { PluginSpec } from "./spec.ts";
import { Peer } from "../protocol/index.ts";

export class RemotePlugin implements PluginConnection {
  readonly peer: Peer;
  readonly client: McpClient;
  readonly exited: Promise<Exit>;
  readonly pid = undefined;
  readonly dropped: Dropped | null = null;
  readonly local = false;
  private exitInfo?: Exit;
  private connected = false;

  constructor(
    readonly spec: PluginSpec,
    options: Pick<ChildOptions, "log" | "maxFrameBytes">,
  ) {
    if (!spec.url) throw new Error(`plugin ${spec.name} names no url`);
    const transport = new StreamableHttpTransport(spec.url, { headers: spec.headers, ...(options.maxFrameBytes ? { maxFrameBytes: options.maxFrameBytes } : {}) });
    options.log.note(`connecting to ${transport.where}`);
    this.peer = new Peer(transport, { defaultTimeoutMs: spec.timeoutMs, log: (line) => options.log.note(line) });
    this.client = new McpClient(this.peer, { timeoutMs: spec.timeoutMs });
    this.exited = this.peer.closedPromise.then(() => (this.exitInfo = { code: null, signal: null }));
    // Once connected, an unreachable server is a plugin that died: closing makes `exited` resolve
    // and the supervisor restart it. During the handshake, the failed request says why instead,
    // and the supervisor's failed start keeps that reason.
    transport.onunreachable = () => {
      if (this.connected) void this.peer.close();
    };
  }

  get exit(): Exit | undefined {
    return this.exitInfo;
  }

  async connect(): Promise<void> {
    await this.peer.start();
    await this.client.connect();
    this.connected = true;
  }

  async stop(): Promise<Exit> {
    await this.peer.close();
    return this.exited;
  }
}
