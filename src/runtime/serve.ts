/**
 * HTTP serving behind one small interface, so the server code never touches `Bun.serve` or
 * `Deno.serve` (serve-bun.ts, serve-deno.ts).
 */
import { HomedError } from "../errors/index.ts";
import { serveWithBun } from "./serve-bun.ts";
import { serveWithDeno } from "./serve-deno.ts";
import { RUNTIME } from "./which.ts";

/** What the server knows of the request's peer; an app receives it as its env (Hono's `c.env`). */
export type PeerInfo = { remoteAddress?: string };

export type FetchHandler = (request: Request, peer: PeerInfo) => Response | Promise<Response>;

/** A TCP address, or a unix socket's path (where a trusted proxy in front says who the peer is). */
export type ListenTarget = { hostname: string; port: number } | { unixPath: string };

/** The peer of a request, from the request and the address the runtime's server saw (none on a unix socket). */
export type PeerOf = (request: Request, socketAddress: string | undefined) => PeerInfo;

export interface RunningServer {
  /** The port actually bound (useful with port 0). */
  readonly port: number;
  readonly hostname: string;
  /**
   * Stops accepting new connections and resolves when in-flight requests have finished,
   * or forcibly closes what is left after `graceMs`.
   */
  stop(graceMs: number): Promise<void>;
}

/** Thrown when the address cannot be bound; `errno` says why (e.g. EADDRINUSE). */
export class ListenError extends HomedError {
  constructor(
    readonly address: string,
    readonly errno: string,
    options?: ErrorOptions,
  ) {
    super("listen", `Cannot listen on ${address}: ${describeListenCode(errno)}`, options);
    this.name = "ListenError";
  }
}

function describeListenCode(code: string): string {
  switch (code) {
    case "EADDRINUSE":
      return "address already in use (is another homed running? pick another with -addr)";
    case "EACCES":
      return "permission denied (ports below 1024 need privileges)";
    case "EADDRNOTAVAIL":
      return "address not available on this machine";
    default:
      return code;
  }
}

/** Serves `fetch` on hostname:port (0: any free port) with the runtime's own HTTP server. */
export function serve(hostname: string, port: number, fetch: FetchHandler): RunningServer {
  return serveOn({ hostname, port }, fetch, (_request, socketAddress) => ({ remoteAddress: socketAddress }));
}

/**
 * Serves `fetch` on a unix socket for a proxy in front of it (src/server/connection-guard.ts),
 * which puts the client's address in the header `peerHeader` of every request it forwards.
 * Only that proxy can reach the socket (it is in a folder private to the process's user).
 */
export function serveOnUnixSocket(path: string, fetch: FetchHandler, peerHeader: string): RunningServer {
  return serveOn({ unixPath: path }, fetch, (request) => ({ remoteAddress: request.headers.get(peerHeader) ?? undefined }));
}

function serveOn(target: ListenTarget, fetch: FetchHandler, peerOf: PeerOf): RunningServer {
  try {
    return RUNTIME === "bun" ? serveWithBun(target, fetch, peerOf) : serveWithDeno(target, fetch, peerOf);
  } catch (error) {
    // Both runtimes give a bind failure a Node-style `code` (EADDRINUSE...).
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new ListenError("unixPath" in target ? target.unixPath : `${target.hostname}:${target.port}`, code, { cause: error });
  }
}
