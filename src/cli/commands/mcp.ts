/** `homed mcp`: the memory tools as an MCP stdio server, for IDE agents. */
import { defineCommand } from "../command.ts";

export const mcpCommand = defineCommand({
  name: "mcp",
  summary: "serve the memory tools as an MCP stdio server (for IDE agents), on -data's database",
  usage: ["homed mcp [-data DIR]"],
  flags: [],
  run: async ({ settings }) => (await import("../mcp.ts")).runMcpServer(settings()),
});
