/**
 * The daemon's HTTP serving: the runtime's server on a unix socket in a folder private to this
 * process, and the connection guard (connection-guard.ts) on the public address in front of it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveOnUnixSocket, type FetchHandler, type RunningServer } from "../runtime/index.ts";
import { PEER_HEADER, startConnectionGuard } from "./connection-guard.ts";
import type { ConnectionLimits } from "./connection-limits.ts";

export async function serveGuarded(hostname: string, port: number, fetch: FetchHandler, limits: ConnectionLimits): Promise<RunningServer> {
  // mkdtemp makes the folder 0700: no other user can reach the socket and write the peer header.
  // Under the temp folder, not the data folder: a socket path must be short (108 bytes on Linux).
  const folder = mkdtempSync(join(tmpdir(), "homed-http-"));
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  let inner: RunningServer | undefined;
  try {
    inner = serveOnUnixSocket(join(folder, "http.sock"), fetch, PEER_HEADER);
    const guard = await startConnectionGuard(hostname, port, join(folder, "http.sock"), limits);
    const server = inner;
    return {
      port: guard.port,
      hostname,
      async stop(graceMs: number) {
        const started = Date.now();
        guard.stopAccepting();
        await server.stop(graceMs);
        await guard.closeAll(Math.max(100, graceMs - (Date.now() - started)));
        removeFolder();
      },
    };
  } catch (error) {
    await inner?.stop(0);
    removeFolder();
    throw error;
  }
}
