/**
 * The daemon's serving through the connection guard, in process: the handler learns the client's
 * real address (the login throttle counts by it) and not one the client wrote, and a stop lets a
 * request in flight finish, then leaves no socket folder behind.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConnectionLimitsSchema, resolveConnectionLimits, serveGuarded } from "../../src/server/index.ts";
import { removeFoldersOfDeadDaemons } from "../../src/server/guarded-serve.ts";
import { testDir } from "../support/temp-dir.ts";

const limits = resolveConnectionLimits(ConnectionLimitsSchema.parse({}), 4096);

/** A request with `connection: close` sent from local address `from`; the raw answer. */
function requestFrom(port: number, from: string, headers = ""): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress: from }, () => socket.write(`GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n${headers}connection: close\r\n\r\n`));
    let text = "";
    socket.on("data", (d) => (text += d));
    socket.on("error", reject);
    socket.on("close", () => resolve(text));
  });
}

const socketFolders = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith("homed-http-")));

describe("serving through the connection guard", () => {
  test("the handler sees the client's address, not one the client wrote in the guard's header", async () => {
    const server = await serveGuarded("127.0.0.1", 0, (_request, peer) => new Response(`peer=${peer.remoteAddress}`), limits);
    try {
      assert.match(await requestFrom(server.port, "127.0.0.2"), /peer=127\.0\.0\.2$/);
      assert.match(await requestFrom(server.port, "127.0.0.3", "X-Homed-Peer: 10.9.8.7\r\n"), /peer=127\.0\.0\.3$/);
    } finally {
      await server.stop(1000);
    }
  });

  test("stop lets an in-flight request finish, refuses new connections and removes the socket folder", async () => {
    const before = socketFolders();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const server = await serveGuarded(
      "127.0.0.1",
      0,
      async () => {
        entered();
        await gate;
        return new Response("finished");
      },
      limits,
    );
    const folder = [...socketFolders()].find((name) => !before.has(name));
    assert.ok(folder, "the unix socket's folder exists while serving");
    const answer = requestFrom(server.port, "127.0.0.1");
    await inHandler;
    let stopped = false;
    const stopping = server.stop(4000).then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(stopped, false, "stop resolved while a request was still running");
    release();
    assert.match(await answer, /finished$/);
    await stopping;
    await assert.rejects(fetch(`http://127.0.0.1:${server.port}/`), "a stopped server must not accept new connections");
    assert.equal(existsSync(join(tmpdir(), folder)), false, "the socket folder is removed");
  });

  test("a start removes the socket folders of daemons that are gone (killed -9), and only those", () => {
    const dir = testDir();
    const gone = spawnSync("true").pid;
    const names = [`homed-http-${gone}-aB3dE9`, `homed-http-${process.pid}-xY7zQ1`, `homed-http-${process.ppid}-pP0aR3`, "homed-http-notapid", "other-folder"];
    for (const name of names) mkdirSync(join(dir, name));
    removeFoldersOfDeadDaemons(dir);
    assert.deepEqual(readdirSync(dir).sort(), names.slice(1).sort());
  });
});
