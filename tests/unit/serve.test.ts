import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { serve } from "../../src/runtime/index.ts";

describe("serve", () => {
  test("stop lets an in-flight request finish before resolving", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => (entered = resolve));
    const server = serve("127.0.0.1", 0, async () => {
      entered();
      await gate;
      return new Response("finished");
    });
    const response = fetch(`http://127.0.0.1:${server.port}/`).then((r) => r.text());
    await inHandler;
    let stopped = false;
    const stopping = server.stop(4000).then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(stopped, false, "stop resolved while a request was still running");
    release();
    assert.equal(await response, "finished");
    await stopping;
    await assert.rejects(fetch(`http://127.0.0.1:${server.port}/`), "a stopped server must not accept new connections");
  });
});
