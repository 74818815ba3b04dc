/**
 * Bun and Deno side by side: a plugin run by the other runtime maps the kernel's shared segment
 * (same layout, each side's own FFI) and moves payloads and events through it. Run under Bun
 * this is a Bun kernel with a Deno plugin; under Deno (`deno task test`), the reverse.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createPluginHost, PluginSpecSchema, type PluginHost } from "../../src/plugins/index.ts";
import { RUNTIME } from "../../src/runtime/index.ts";
import { FIXTURES } from "../plugins/support.ts";
import { OTHER_RUNTIME, scriptCommandUnder } from "../support/runtimes.ts";

describe(`a ${RUNTIME} kernel and a ${OTHER_RUNTIME} plugin`, () => {
  const hosts: PluginHost[] = [];
  after(async () => {
    await Promise.all(hosts.map((h) => h.stopAll()));
  });

  test("share one segment: payloads both ways by reference, events through the ring", async () => {
    const [command, ...args] = scriptCommandUnder(OTHER_RUNTIME, join(FIXTURES, "blob-plugin.ts"));
    const spec = PluginSpecSchema.parse({ name: "blob", command, args, sharedMemoryBytes: 8 << 20, timeoutMs: 30_000 });
    const host = createPluginHost([spec], { graceMs: 500 });
    hosts.push(host);
    await host.start();
    const status = host.status("blob");
    assert.equal(status.state, "running", status.logTail.join("\n"));
    assert.ok(status.sharedMemory && existsSync(`/dev/shm${status.sharedMemory.name}`));
    const shared = host.shared("blob")!;

    const payload = new Uint8Array(3 << 20).fill(9);
    payload[0] = 1;
    const ref = shared.write(payload);
    assert.deepEqual((await host.callTool("blob", "take_shared", { ref })).structuredContent, { length: 3 << 20, first: 1, last: 9 });
    shared.release(ref);

    const made = (await host.callTool("blob", "make_shared", { length: 1 << 20, seed: 5 })).structuredContent as { ref: { offset: number; length: number } };
    const bytes = shared.read(made.ref);
    assert.equal(bytes.length, 1 << 20);
    assert.equal(bytes[0], 5);
    await shared.done(made.ref);

    const events: unknown[] = [];
    const got = new Promise<void>((resolve) =>
      host.onEvent((plugin, event) => {
        events.push([plugin, event]);
        if (events.length === 3) resolve();
      }),
    );
    await host.callTool("blob", "emit", { count: 3 });
    await got;
    assert.deepEqual(events, [
      ["blob", { i: 0, pad: "" }],
      ["blob", { i: 1, pad: "" }],
      ["blob", { i: 2, pad: "" }],
    ]);
    const name = status.sharedMemory.name;
    await host.stopAll();
    assert.equal(existsSync(`/dev/shm${name}`), false, "segment left after stop");
  });
});
