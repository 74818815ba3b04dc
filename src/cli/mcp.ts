/**
 * `homed mcp`: homed's memory tools as an MCP stdio server, for IDE agents. Served with the
 * plugin SDK, so it speaks the same protocol versions as homed's plugins.
 */
import type { Settings } from "../config/index.ts";
import { MEMORY_TOOLS } from "../memory/index.ts";
import { openDataEmbedder, openDataStore } from "../memory/command-io.ts";
import { VERSION } from "../version.ts";
import { definePlugin, defineTool, servePlugin, z } from "../../plugins/sdk/index.ts";

export async function runMcpServer(settings: Settings): Promise<number> {
  const store = await openDataStore(settings, (text) => process.stderr.write(text));
  try {
    const active = await openDataEmbedder(settings);
    const context = { client: store.client, embedder: active.kind === "fallback" ? undefined : active.embedder };
    const plugin = definePlugin({
      name: "homed-memory",
      version: VERSION,
      description: "homed's long-term memory: recall, open, note, list, forget, injections, stats, doctor.",
      config: z.object({}),
      tools: () => MEMORY_TOOLS.map((tool) => defineTool({ name: tool.name, description: tool.description, input: tool.input, run: (args) => tool.run(args, context) })),
    });
    await servePlugin(plugin, { input: process.stdin, output: process.stdout, env: {}, log: (line) => process.stderr.write(`${line}\n`) });
    return 0;
  } finally {
    store.close();
  }
}
