/**
 * `channels` in homed.json: the ways other programs reach homed besides the console, `/v1` and
 * `/mcp`. Each is off until enabled here: opening homed to another agent or a chat network is a
 * choice a person makes, not a default.
 */
import { z } from "zod";
import { QQConfigSchema } from "../channels/qq/index.ts";
import { A2AConfigSchema } from "../server/index.ts";

export const ChannelsConfigSchema = z.object({
  /** Agent2Agent: the agent card and JSON-RPC at `/a2a` (src/server/a2a.ts). */
  a2a: A2AConfigSchema.prefault({}),
  /** QQ through a OneBot 11 implementation's WebSocket (src/channels/qq/). */
  qq: QQConfigSchema.prefault({}),
});
export type ChannelsConfig = z.output<typeof ChannelsConfigSchema>;
