/**
 * The shared segment: the FFI mapping seen by two mappings at once, the layout's bounds and
 * ring, and a real SDK plugin moving payloads both ways, pushing events, and leaving no
 * segment behind after a stop, a crash, or a crashed kernel.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createSegment, listSegments, openSegment, unlinkSegment } from "../../src/runtime/index.ts";
import { createPluginHost, DEFAULT_INTAKE_LIMITS, PluginSpecSchema, type IntakeLimits, SegmentChannel, SegmentError, sweepStaleSegments, type PluginHost } from "../../src/plugins/index.ts";
import { FIXTURES } from "./support.ts";
import { scriptSpec } from "../support/process.ts";

const unique = () => `/homed-test-${process.pid}-${Math.random().toString(36).slice(2)}`;

describe("shared memory (FFI)", () => {
  test("two mappings of one segment see each other's writes; unlink removes the name", () => {
    const name = unique();
    const a = createSegment(name, 1 << 20);
    const b = openSegment(name, 1 << 20);
    a.bytes[12345] = 77;
    assert.equal(b.bytes[12345], 77);
    assert.ok(existsSync(`/dev/shm${name}`));
    assert.throws(() => createSegment(name, 1 << 20), /EEXIST/);
    a.close();
    b.close();
    assert.throws(() => a.bytes, /closed/);
    unlinkSegment(name);
    assert.equal(existsSync(`/dev/shm${name}`), false);
    assert.throws(() => openSegment(name, 1 << 20), /ENOENT/);
  });

  test("a bad name is refused before libc sees it", () => {
    assert.throws(() => createSegment("no-slash", 4096), /Cannot use shared memory name/);
    assert.throws(() => createSegment("/a/b", 4096), /Cannot use shared memory name/);
  });
});

describe("segment layout", () => {
  const pair = (size = 1 << 20, ring = 256) => {
    const bytes = new Uint8Array(size);
    const kernel = new SegmentChannel(bytes, "kernel", true, ring);
    const plugin = new SegmentChannel(bytes, "plugin", false);
    return { kernel, plugin };
  };

  test("each side reads the other's payloads and only inside the other's region", () => {
    const { kernel, plugin } = pair();
    const ref = kernel.write(new TextEncoder().encode("hello"));
    assert.equal(new TextDecoder().decode(plugin.read(ref)), "hello");
    assert.throws(
      () => kernel.read(ref),
      (e: Error) => e instanceof SegmentError && e.code === "bad_reference",
    );
    assert.throws(() => plugin.read({ offset: ref.offset, length: 10 ** 9 }), /outside/);
    assert.throws(() => plugin.read({ offset: -1, length: 1 }), /outside/);
  });

  test("a payload too large for the region is refused; space comes back after release", () => {
    const { kernel } = pair(64 * 1024, 256);
    const big = new Uint8Array(kernel.capacity);
    const ref = kernel.write(big);
    assert.throws(
      () => kernel.write(new Uint8Array(1)),
      (e: Error) => e instanceof SegmentError && e.code === "segment_full",
    );
    kernel.release(ref);
    assert.doesNotThrow(() => kernel.write(big));
  });

  test("events go through the ring in order, across its end, and a full ring counts drops", () => {
    const { kernel, plugin } = pair(1 << 20, 64);
    const enc = (s: string) => new TextEncoder().encode(s);
    const dec = (b: Uint8Array) => new TextDecoder().decode(b);
    for (let round = 0; round < 20; round++) {
      assert.deepEqual(plugin.pushEvent(enc(`event ${round}`)), { written: true, wasEmpty: true });
      assert.equal(plugin.pushEvent(enc(`second ${round}`)).wasEmpty, false);
      assert.deepEqual(kernel.drainEvents().map(dec), [`event ${round}`, `second ${round}`]);
    }
    let written = 0;
    while (plugin.pushEvent(enc("0123456789")).written) written++;
    assert.equal(written, 4);
    assert.equal(kernel.droppedEvents, 1);
    assert.equal(kernel.drainEvents().length, 4);
  });

  test("a corrupt record length does not make the kernel read past what was written", () => {
    const bytes = new Uint8Array(1 << 20);
    const kernel = new SegmentChannel(bytes, "kernel", true, 256);
    const plugin = new SegmentChannel(bytes, "plugin", false);
    plugin.pushEvent(new Uint8Array([1, 2, 3, 4]));
    new DataView(bytes.buffer).setUint32(64, 1_000_000, true);
    assert.deepEqual(kernel.drainEvents(), []);
    assert.equal(kernel.droppedEvents, 1);
  });
});

describe("shared memory with a real plugin", () => {
  const hosts: PluginHost[] = [];
  after(async () => {
    await Promise.all(hosts.map((h) => h.stopAll()));
  });
  const start = async (report?: (level: string, line: string) => void, limits?: IntakeLimits) => {
    const spec = PluginSpecSchema.parse({ name: "blob", ...scriptSpec(join(FIXTURES, "blob-plugin.ts")), sharedMemoryBytes: 8 << 20 });
    const host = createPluginHost([spec], { graceMs: 500, ...(report ? { report } : {}), ...(limits ? { limits } : {}) });
    hosts.push(host);
    await host.start();
    return host;
  };

  test("events a full ring could not take are counted and told in a warning", async () => {
    const warnings: string[] = [];
    // Doorbells beyond the plugin's notification limit must still be heard: a slow machine once
    // rang more than 200 a second here, the last one was dropped and the drops were never told.
    const host = await start((level, line) => level === "warn" && warnings.push(line), { ...DEFAULT_INTAKE_LIMITS, unsolicited: 5 });
    let received = 0;
    host.onEvent(() => received++);
    // 300 events of 20 kB into a 64 KiB ring, pushed faster than the kernel drains: most drop.
    const { written } = (await host.callTool("blob", "emit", { count: 300, size: 20_000 })).structuredContent as { written: number };
    const told = () => warnings.map((l) => /^plugin blob: (\d+) pushed events dropped \(its event ring was full\), (\d+) since it started$/.exec(l)).filter((m) => m !== null);
    const until = Date.now() + 10_000;
    while (Number(told().at(-1)?.[2] ?? 0) < 300 - written && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.ok(written < 300, "the ring overflowed");
    assert.equal(Number(told().at(-1)?.[2]), 300 - written, warnings.join("\n"));
    assert.equal(
      told().reduce((sum, m) => sum + Number(m[1]), 0),
      300 - written,
      "each drop told once",
    );
    assert.equal(received, written);
    assert.equal(host.status("blob").sharedMemory?.droppedEvents, 300 - written);
  });

  test("payloads move both ways by reference; events arrive through the ring", async () => {
    const host = await start();
    const status = host.status("blob");
    assert.equal(status.state, "running", status.logTail.join("\n"));
    assert.ok(status.sharedMemory && existsSync(`/dev/shm${status.sharedMemory.name}`));
    const shared = host.shared("blob")!;

    const payload = new Uint8Array(3 << 20).fill(9);
    payload[0] = 1;
    const ref = shared.write(payload);
    const taken = (await host.callTool("blob", "take_shared", { ref })).structuredContent;
    shared.release(ref);
    assert.deepEqual(taken, { length: 3 << 20, first: 1, last: 9 });

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
  });

  test("the segment is unlinked when the plugin stops and when it crashes", async () => {
    const host = await start();
    const first = host.status("blob").sharedMemory!.name;
    process.kill(host.status("blob").pid!, "SIGKILL");
    await host.waitFor("blob", "backoff");
    assert.equal(existsSync(`/dev/shm${first}`), false, "segment left after a crash");
    await host.restart("blob");
    const second = host.status("blob").sharedMemory!.name;
    assert.notEqual(second, first);
    await host.stopAll();
    assert.equal(existsSync(`/dev/shm${second}`), false, "segment left after stop");
  });

  test("segments of a kernel that died are swept; a live kernel's are kept", () => {
    const dead = `/homed-999999999-files-1`;
    const mine = `/homed-${process.pid}-files-77`;
    createSegment(dead, 4096).close();
    createSegment(mine, 4096).close();
    const removed = sweepStaleSegments((pid) => pid === process.pid);
    assert.ok(removed.includes(dead));
    assert.ok(!listSegments("/homed-").includes(dead));
    assert.ok(listSegments("/homed-").includes(mine));
    unlinkSegment(mine);
  });
});
