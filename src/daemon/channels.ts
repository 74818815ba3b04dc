/**
 * `channels` in homed.json: the ways other programs reach homed besides the console, `/v1` and
 * `/mcp`. Each is off until enabled here: opening homed to another agent or a chat network is a
 * choice a person makes, not a default.
 */
import { z } from "zod";
import { builtinSpec, QQConfigSchema } from "../../plugins/index.ts";
import type { PluginSpec } from "../plugins/index.ts";
import { A2AConfigSchema } from "../server/index.ts";

export const ChannelsConfigSchema = z.object({
  /** Agent2Agent: the agent card and JSON-RPC at `/a2a` (src/server/a2a.ts). */
  a2a: A2AConfigSchema.prefault({}),
  /** QQ through a OneBot 11 implementation's WebSocket: the built-in channel plugin plugins/qq/. */
  qq: QQConfigSchema.prefault({}),
});
export type ChannelsConfig = z.output<typeof ChannelsConfigSchema>;

/**
 * The built-in channel plugins `channels` enables (QQ), each launched like a built-in plugin with
 * its settings; who is who (`partners`) goes to the spec, the host's side, not to the plugin.
 */
export function channelPluginSpecs(channels: ChannelsConfig, self: readonly string[]): PluginSpec[] {
  if (!channels.qq.enabled) return [];
  const { enabled: _, partners, ...settings } = channels.qq;
  return [{ ...builtinSpec("qq", self, settings), partners }];
}
