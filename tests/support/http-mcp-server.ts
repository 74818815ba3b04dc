/**
 * A real MCP server over Streamable HTTP on 127.0.0.1 (port 0), made with the official MCP SDK
 * (McpServer + StreamableHTTPServerTransport, stateful: one session per client, as most hosted
 * servers are). One tool, `remote_echo`, answers "remote echo: <message>". With `token`, every
 * request without `Authorization: Bearer <token>` is refused 401 (a header homed must send).
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

export type HttpMcpServer = {
  /** The MCP endpoint, e.g. http://127.0.0.1:1234/mcp. */
  url: string;
  /** The messages `remote_echo` was called with, in order. */
  calls: string[];
  /** Sessions the server holds now (a client that closes its session DELETEs it). */
  sessions(): number;
  /** Every header of every request, as received (to show a header reached the server). */
  seenHeaders: IncomingMessage["headers"][];
  close(): Promise<void>;
};

async function readJson(req: IncomingMessage): Promise<unknown> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body ? JSON.parse(body) : undefined;
}

export async function startHttpMcpServer(options: { token?: string } = {}): Promise<HttpMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const calls: string[] = [];
  const seenHeaders: IncomingMessage["headers"][] = [];
  const newSession = async (): Promise<StreamableHTTPServerTransport> => {
    const server = new McpServer({ name: "remote-test", version: "1.0.0" });
    server.registerTool("remote_echo", { description: "Echoes a message from the remote server", inputSchema: { message: z.string() } }, async ({ message }) => {
      calls.push(message);
      return { content: [{ type: "text", text: `remote echo: ${message}` }] };
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    seenHeaders.push(req.headers);
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Unauthorized" } }));
      return;
    }
    const sessionId = req.headers["mcp-session-id"] as string | undefined;
    const body = req.method === "POST" ? await readJson(req) : undefined;
    let transport = sessionId ? transports.get(sessionId) : undefined;
    if (!transport && !sessionId && req.method === "POST" && isInitializeRequest(body)) transport = await newSession();
    if (!transport) {
      res
        .writeHead(sessionId ? 404 : 400, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: sessionId ? "Session not found" : "Bad Request: Server not initialized" } }));
      return;
    }
    await transport.handleRequest(req, res, body);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    seenHeaders,
    sessions: () => transports.size,
    async close() {
      for (const t of transports.values()) await t.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
