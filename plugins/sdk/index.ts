/** The plugin SDK: define tools with zod schemas and serve them over stdio as an MCP server. */
export { defineTool, ImageOutput, TextBytes, ToolFailure, type ToolDefinition, type ToolContext, type ToolOutput } from "./tool.ts";
export { definePlugin, servePlugin, serveStdio, readConfig, type PluginDefinition, type ServeOptions, type Lifecycle, type HookHandler, type StageHooks } from "./serve.ts";
export { PluginShared } from "./shared.ts";
export type { StagePayloads, StageAnswers } from "../../src/protocol/index.ts";
export { BULK_MIN_BYTES, INLINE_MAX_BYTES } from "../../src/protocol/index.ts";
export { z } from "zod";
export { JsonListFile } from "./json-list-file.ts";
export { defineChannel, SEND_TIMEOUT_MS, type ChannelDefinition, type ChannelHost, type ChannelOpen, type DeliverHandler, type SendOptions } from "./channel.ts";
export type { InboundMessage, InboundAnswer, Delivery, ChannelImage } from "../../src/protocol/index.ts";
