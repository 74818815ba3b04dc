/**
 * A plugin as its supervisor holds it: a child process on this machine (`command`, child.ts) or
 * an MCP server reached over Streamable HTTP (`url`, remote.ts). Both speak through a Peer and the
 * same McpClient, end by `stop()`, and resolve `exited` when they are gone, so start-up, tools,
 * hooks, crash counting and restarts are one code path for both.
 */
import { PluginChild, type ChildOptions, type Dropped, type Exit } from "./child.ts";
import type { McpClient } from "./mcp-client.ts";
import { RemotePlugin } from "./remote.ts";
import type { PluginSpec } from "./spec.ts";
import type { Peer } from "../protocol/index.ts";

export interface PluginConnection {
  readonly spec: PluginSpec;
  readonly peer: Peer;
  readonly client: McpClient;
  /** Resolves once the plugin is gone (its process exited, or its server can no longer be reached). */
  readonly exited: Promise<Exit>;
  readonly exit: Exit | undefined;
  /** The process id of a local plugin; undefined for a remote one. */
  readonly pid: number | undefined;
  readonly dropped: Dropped | null;
  /** Why a local plugin was killed for going over its memory or CPU limit (child.ts); undefined otherwise. */
  readonly killedFor?: string | undefined;
  /** Whether the plugin runs on this machine: only such a plugin can share a memory segment. */
  readonly local: boolean;
  /** Starts reading frames and negotiates the protocol. */
  connect(): Promise<void>;
  /** Ends the plugin (a local one's whole process group); resolves once it is gone. */
  stop(graceMs?: number): Promise<Exit>;
}

/** The plugin `spec` describes, not yet connected: a remote server when it names a `url`, else its `command` started as a child. */
export function openPlugin(spec: PluginSpec, options: ChildOptions): PluginConnection {
  return spec.url ? new RemotePlugin(spec, options) : PluginChild.spawn(spec, options);
}
