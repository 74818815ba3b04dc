/**
 * `homed mcp`: homed's MCP server (src/server/mcp-methods.ts: the memory tools, memories as
 * resources, the recall prompt) over stdio, for IDE agents — the same one the daemon serves at
 * `/mcp`. Frames are newline-delimited JSON with the plugin protocol's size cap.
 */
import type { Settings } from "../config/index.ts";
import { openDataEmbedder, openDataStore, OWNER } from "../memory/index.ts";
import { StreamTransport, type Message } from "../plugins/index.ts";
import { respondMcp } from "../server/index.ts";

export async function runMcpServer(settings: Settings): Promise<number> {
  const log = (line: string) => process.stderr.write(`homed mcp: ${line}\n`);
  const store = await openDataStore(settings, (text) => process.stderr.write(text));
  try {
    const active = await openDataEmbedder(settings);
    // The local user's own tool, reading the data folder directly: it sees everything, as the console does.
    const context = { client: store.client, embedder: active.kind === "fallback" ? undefined : active.embedder, access: OWNER };
    const transport = new StreamTransport(process.stdin, process.stdout);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    transport.onerror = (error) => log(error.message);
    transport.onmessage = (value) => {
      respondMcp(value, context)
        .then((answer) => answer && transport.send(answer as Message))
        .catch((error: Error) => log(`cannot answer: ${error.stack ?? error.message}`));
    };
    await transport.start();
    await closed;
    return 0;
  } finally {
    store.close();
  }
}
