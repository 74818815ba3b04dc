/**
 * serve.ts with `Deno.serve`. `shutdown()` lets in-flight requests finish; aborting the signal
 * given at start closes every connection, which is the forced stop after the grace period (an
 * SSE stream left open would otherwise hold the daemon's exit forever).
 */
import { deno } from "./deno-api.ts";
import type { FetchHandler, ListenTarget, PeerOf, RunningServer } from "./serve.ts";

export function serveWithDeno(target: ListenTarget, fetch: FetchHandler, peerOf: PeerOf): RunningServer {
  const force = new AbortController();
  const listen = "unixPath" in target ? { path: target.unixPath, transport: "unix" as const } : { hostname: target.hostname, port: target.port };
  // onListen: without it Deno prints "Listening on ..." to stdout, which is the command's output.
  // Over a unix socket Deno names the scheme `http+unix:`, so `new URL(request.url).origin` is "null"
  // (the A2A card's URL was "null/a2a"): the request is what the client sent over HTTP.
  const viaUnix = "unixPath" in target;
  const asSent = (request: Request) => (viaUnix && request.url.startsWith("http+unix:") ? new Request(`http:${request.url.slice("http+unix:".length)}`, request) : request);
  const server = deno().serve({ ...listen, signal: force.signal, onListen: () => {} }, (request, info) => {
    const sent = asSent(request);
    return fetch(sent, peerOf(sent, info.remoteAddr.hostname));
  });
  return {
    port: server.addr.port ?? 0,
    hostname: "unixPath" in target ? target.unixPath : target.hostname,
    async stop(graceMs: number) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), graceMs);
      });
      const outcome = await Promise.race([server.shutdown().then(() => "done" as const), deadline]);
      clearTimeout(timer);
      if (outcome === "timeout") {
        force.abort();
        await server.finished;
      }
    },
  };
}
