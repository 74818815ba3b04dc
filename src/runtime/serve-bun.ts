/** serve.ts with `Bun.serve`. */
import type { FetchHandler, RunningServer } from "./serve.ts";

export function serveWithBun(hostname: string, port: number, fetch: FetchHandler): RunningServer {
  const server = Bun.serve({ hostname, port, fetch: (request, bun) => fetch(request, { remoteAddress: bun.requestIP(request)?.address }), idleTimeout: 120 });
  return {
    port: server.port ?? port,
    hostname,
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
