/** serve.ts with `Bun.serve`. */
import type { FetchHandler, ListenTarget, PeerOf, RunningServer } from "./serve.ts";

export function serveWithBun(target: ListenTarget, fetch: FetchHandler, peerOf: PeerOf): RunningServer {
  // bun-types leave idleTimeout out of the unix-socket options, but Bun honours it there too
  // (without it, 10 s: a quiet SSE stream would be cut).
  const listen = ("unixPath" in target ? { unix: target.unixPath } : { hostname: target.hostname, port: target.port }) as { hostname: string; port: number };
  const server = Bun.serve({ ...listen, fetch: (request, bun) => fetch(request, peerOf(request, bun.requestIP(request)?.address)), idleTimeout: 120 });
  return {
    port: server.port ?? 0,
    hostname: "unixPath" in target ? target.unixPath : target.hostname,
    async stop(graceMs: number) {
      const graceful = server.stop(false);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), graceMs);
      });
      const outcome = await Promise.race([graceful.then(() => "done" as const), deadline]);
      clearTimeout(timer);
      if (outcome === "timeout") await server.stop(true);
    },
  };
}
