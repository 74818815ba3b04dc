/**
 * The daemon's HTTP serving: the runtime's server on a unix socket in a folder private to this
 * process, and the connection guard (connection-guard.ts) on the public address in front of it.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serveOnUnixSocket, type FetchHandler, type RunningServer } from "../runtime/index.ts";
import { PEER_HEADER, startConnectionGuard } from "./connection-guard.ts";
import type { ConnectionLimits } from "./connection-limits.ts";

/** `homed-http-<pid>-XXXXXX` under the temp folder: the pid says whose it is. */
const FOLDER_PREFIX = "homed-http-";

export async function serveGuarded(hostname: string, port: number, fetch: FetchHandler, limits: ConnectionLimits): Promise<RunningServer> {
  removeFoldersOfDeadDaemons(tmpdir());
  // mkdtemp makes the folder 0700: no other user can reach the socket and write the peer header.
  // Under the temp folder, not the data folder: a socket path must be short (108 bytes on Linux).
  const folder = mkdtempSync(join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
  const socketPath = join(folder, "http.sock");
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  let inner: RunningServer | undefined;
  try {
    inner = serveOnUnixSocket(socketPath, fetch, PEER_HEADER);
    const guard = await startConnectionGuard(hostname, port, socketPath, limits);
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
    // A grace, not 0: with no connection the stop is immediate, and aborting a Deno server that is
    // already shutting down throws BadResource from inside Deno (the start failure's line was lost).
    await inner?.stop(1000);
    removeFolder();
    throw error;
  }
}

/** A daemon killed (-9) cannot remove its socket folder: the next start removes those of this user whose process is gone. */
export function removeFoldersOfDeadDaemons(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(/^homed-http-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    const path = join(dir, name);
    try {
      if (statSync(path).uid === process.getuid?.()) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed meanwhile, or not ours to read: left as it is.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
