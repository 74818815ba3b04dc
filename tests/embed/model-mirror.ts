/**
 * A model mirror on loopback for pull tests: serves files by path with HTTP Range (206 and
 * Content-Range, as the Hub and its mirrors do), records each request, and drops chosen
 * connections halfway through the body once, after the half has reached the client.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type ModelMirror = {
  base: string;
  files: Map<string, Uint8Array>;
  dropOnce: Set<string>;
  /** Paths whose body stops halfway for this many milliseconds before the rest comes (a slow link). */
  stall: Map<string, number>;
  requests: { path: string; range?: string; absolute: boolean }[];
  close(): Promise<void>;
};

export async function startModelMirror(): Promise<ModelMirror> {
  const files = new Map<string, Uint8Array>();
  const dropOnce = new Set<string>();
  const stall = new Map<string, number>();
  const requests: ModelMirror["requests"] = [];
  const server = createServer((req: IncomingMessage, res) => {
    // A proxy is asked with the absolute URL (GET http://host/path); a server with the path.
    const absolute = /^https?:\/\//.test(req.url ?? "");
    const path = absolute ? new URL(req.url!).pathname : (req.url ?? "");
    requests.push({ path, range: req.headers.range, absolute });
    const body = files.get(path);
    if (!body) return void res.writeHead(404).end();
    const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1] ?? 0);
    const rest = body.subarray(from);
    res.writeHead(from > 0 ? 206 : 200, { "content-length": rest.byteLength, ...(from > 0 ? { "content-range": `bytes ${from}-${body.byteLength - 1}/${body.byteLength}` } : {}) });
    if (dropOnce.delete(path)) {
      res.write(rest.subarray(0, rest.byteLength >> 1), () => setTimeout(() => res.destroy(), 100));
      return;
    }
    const pause = stall.get(path);
    if (pause) {
      res.write(rest.subarray(0, rest.byteLength >> 1), () => setTimeout(() => res.end(rest.subarray(rest.byteLength >> 1)), pause));
      return;
    }
    res.end(rest);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    files,
    dropOnce,
    stall,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Kept-alive connections would hold close() until they time out (minutes under Deno).
        server.closeAllConnections();
      }),
  };
}
