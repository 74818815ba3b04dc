/**
 * homed's own TCP listener in front of the runtime's HTTP server. Bun's and Deno's serve offer
 * no hook per connection, and an idle timeout that every byte resets: 4,300 connections to
 * `/api/login` sending a byte every 10 s filled the 4,096 open files and every `/healthz` timed
 * out. Here each connection is counted against its client address and against all (over either
 * cap it is answered 429 / 503 and closed at once), its request head must be complete within a
 * deadline no byte extends, its body must keep a minimum rate, and only then do its bytes reach
 * the real server, on a private unix socket, with the client's address in a header
 * (request-framing.ts). Once a request is in, nothing here limits how long its answer takes (an
 * SSE turn, an MCP stream).
 */
import { connect, createServer, type Server, type Socket } from "node:net";
import { ListenError } from "../runtime/index.ts";
import type { ConnectionLimits } from "./connection-limits.ts";
import { RequestFraming, type FramingError } from "./request-framing.ts";

/** The header in which the guard tells the server behind it the client's address. */
export const PEER_HEADER = "x-homed-peer";

export interface ConnectionGuard {
  readonly port: number;
  /** Stops accepting, and closes the connections that have no request in the server. */
  stopAccepting(): void;
  /** Closes every connection left once the server has stopped: at once, or after what is being written (`graceMs` at most). */
  closeAll(graceMs: number): Promise<void>;
}

/** `inHead`: waiting for its first request head, nothing with the server yet (so it can be evicted). */
type Tracked = { client: Socket; upstream: Socket | undefined; inHead: boolean };

const REASONS: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 429: "Too Many Requests", 431: "Request Header Fields Too Large", 503: "Service Unavailable" };

export function startConnectionGuard(hostname: string, port: number, upstreamPath: string, limits: ConnectionLimits): Promise<ConnectionGuard> {
  const perAddress = new Map<string, number>();
  const open = new Set<Tracked>();

  function onConnection(client: Socket) {
    client.on("error", () => client.destroy());
    // Answers are relayed in the pieces the server wrote them: none may wait for an ACK (Nagle).
    client.setNoDelay(true);
    const address = clientAddress(client.remoteAddress);
    const key = capKey(address);
    if (open.size >= limits.maxConnections && !evictOldestInHead(open)) return refuse(client, 503, "too_many_connections", "The server holds as many connections as it can; try again shortly");
    const held = perAddress.get(key) ?? 0;
    if (held >= limits.perClient) return refuse(client, 429, "too_many_connections", `Your address holds ${held} connections, the most one client may`);
    perAddress.set(key, held + 1);
    const tracked: Tracked = { client, upstream: undefined, inHead: true };
    open.add(tracked);
    client.once("close", () => {
      open.delete(tracked);
      const left = (perAddress.get(key) ?? 1) - 1;
      if (left > 0) perAddress.set(key, left);
      else perAddress.delete(key);
    });
    guardConnection(tracked, address, upstreamPath, limits);
  }

  const server: Server = createServer({ allowHalfOpen: false, pauseOnConnect: false }, onConnection);
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(new ListenError(`${hostname}:${port}`, error.code ?? error.message, { cause: error })));
    server.listen({ host: hostname, port, backlog: 1024 }, () => {
      const bound = server.address();
      resolve({
        port: typeof bound === "object" && bound ? bound.port : port,
        stopAccepting() {
          server.close();
          for (const t of open) if (!t.upstream) t.client.destroy();
        },
        async closeAll(graceMs: number) {
          // What the server wrote last may still be on its way to the client: give it graceMs.
          const deadline = Date.now() + graceMs;
          while (open.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
          for (const t of open) {
            t.client.destroy();
            t.upstream?.destroy();
          }
        },
      });
    });
  });
}

/** One client connection: its deadlines, and its bytes to the server once a head is complete. */
function guardConnection(tracked: Tracked, address: string, upstreamPath: string, limits: ConnectionLimits): void {
  const { client } = tracked;
  const framing = new RequestFraming(PEER_HEADER, address);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let bodyStart = 0;
  let bodyBytes = 0;
  const expire = (why: "head" | "body") => () => {
    // Nothing of this request has reached the server: the client may be told why.
    if (why === "head" && !tracked.upstream) return answerAndClose(client, { status: 408, message: "The request head did not arrive in time" });
    client.destroy();
    tracked.upstream?.destroy();
  };
  const arm = (ms: number, why: "head" | "body") => {
    clearTimeout(timer);
    timer = setTimeout(expire(why), Math.max(0, ms));
  };
  // The first head's deadline runs from the accept: a connection that says nothing is closed too.
  arm(limits.headTimeoutMs, "head");
  // A client gone is gone for the server too: a turn it was streaming is cancelled (only a
  // failing write or a closed socket tells the server; a half-close does not).
  client.once("close", () => {
    clearTimeout(timer);
    tracked.upstream?.destroy();
  });

  const upstream = () => {
    if (tracked.upstream) return tracked.upstream;
    const socket = connect({ path: upstreamPath });
    tracked.upstream = socket;
    socket.on("error", () => socket.destroy());
    socket.once("close", () => {
      // The server ended the connection (idle keep-alive, or a stop): the client's ends after
      // what was written, and is closed for good if the client does not close its side.
      if (client.destroyed) return;
      client.end();
      const linger = setTimeout(() => client.destroy(), limits.headTimeoutMs);
      client.once("close", () => clearTimeout(linger));
    });
    socket.pipe(client, { end: true });
    return socket;
  };

  client.on("data", (chunk: Buffer) => {
    const pushed = framing.push(chunk);
    if (pushed.error) {
      tracked.upstream?.destroy();
      return answerAndClose(client, pushed.error);
    }
    for (const bytes of pushed.forward) {
      if (bytes.length === 0) continue;
      const socket = upstream();
      if (!socket.write(bytes) && !client.isPaused()) {
        client.pause();
        socket.once("drain", () => client.resume());
      }
    }
    // Only before its first request: a later head may follow an answer still streaming.
    tracked.inHead = framing.phase === "head" && !tracked.upstream;
    if (framing.phase === "answer") {
      clearTimeout(timer);
      timer = undefined;
    } else if (framing.phase === "head") {
      if (pushed.headStarted) arm(limits.headTimeoutMs, "head");
    } else {
      if (pushed.bodyStarted) {
        bodyStart = Date.now();
        bodyBytes = 0;
      }
      bodyBytes += chunk.length;
      // A trickle buys almost nothing: each byte adds 1/minBodyBytesPerSecond of a second.
      const deadline = bodyStart + limits.bodyTimeoutMs + (bodyBytes * 1000) / limits.minBodyBytesPerSecond;
      arm(deadline - Date.now(), "body");
    }
  });
}

/**
 * At the total cap, a new client takes the place of the connection that has waited longest for
 * its first request head (`open` iterates oldest first): many addresses trickling heads then only churn
 * among themselves until each one's deadline, instead of keeping everyone else out. Connections
 * with a request in the server, or kept alive after one, are never evicted.
 */
function evictOldestInHead(open: Set<Tracked>): boolean {
  for (const t of open) {
    if (!t.inHead || t.client.destroyed) continue;
    t.client.destroy();
    t.upstream?.destroy();
    open.delete(t);
    return true;
  }
  return false;
}

function answerAndClose(socket: Socket, error: FramingError | { status: 408; message: string }): void {
  const code = error.status === 408 ? "request_timeout" : error.status === 431 ? "too_large" : "bad_request";
  refuse(socket, error.status, code, error.message);
}

/**
 * A whole answer in homed's error shape, then the connection closed: it holds its file no
 * longer than the write takes (the client may see a reset instead if it had sent more).
 */
function refuse(socket: Socket, status: number, error: string, message: string): void {
  const body = JSON.stringify({ error, message });
  const head = `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
  socket.end(head + body, () => socket.destroy());
}

/** The address as the server and login throttle know it: an IPv4 client without its `::ffff:` prefix. */
export function clientAddress(remote: string | undefined): string {
  if (!remote) return "unknown";
  return remote.startsWith("::ffff:") && remote.includes(".") ? remote.slice("::ffff:".length) : remote;
}

/** What one client is counted as: an IPv4 address, or an IPv6 /64 (one subscriber gets a whole /64). */
export function capKey(address: string): string {
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.split("%")[0]!.split("::");
  const front = head === "" ? [] : head.split(":");
  const back = tail === undefined || tail === "" ? [] : tail.split(":");
  const groups = tail === undefined ? front : [...front, ...Array(Math.max(0, 8 - front.length - back.length)).fill("0"), ...back];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || "0", 16).toString(16))
    .join(":")}::/64`;
}
