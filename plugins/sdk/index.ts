/** The plugin SDK: define tools with zod schemas and serve them over stdio as an MCP server. */
export { defineTool, ImageOutput, ToolFailure, type ToolDefinition, type ToolContext, type ToolOutput } from "./tool.ts";
export { definePlugin, servePlugin, readConfig, type PluginDefinition, type ServeOptions, type Lifecycle, type HookHandler } from "./serve.ts";
export { PluginShared } from "./shared.ts";
export { z } from "zod";
export { JsonListFile } from "./json-list-file.ts";
