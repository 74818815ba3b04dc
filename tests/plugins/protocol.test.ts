/** The RPC protocol over the in-memory pair and the frame reader: no processes involved. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { ErrorCode, type FrameError, LineFramer, MemoryTransport, Peer, type RpcError, StreamTransport } from "../../src/plugins/index.ts";

function linked(options: { timeoutMs?: number } = {}) {
  const [a, b] = MemoryTransport.pair();
  const logA: string[] = [];
  const logB: string[] = [];
  const client = new Peer(a, { defaultTimeoutMs: options.timeoutMs ?? 5000, log: (m) => logA.push(m) });
  const server = new Peer(b, { log: (m) => logB.push(m) });
  return { a, b, client, server, logA, logB };
}

describe("peer", () => {
  test("a request gets the handler's result; an unknown method gets -32601", async () => {
    const { client, server } = linked();
    server.handle("add", (params) => (params as { x: number; y: number }).x + (params as { y: number }).y);
    await Promise.all([client.start(), server.start()]);
    assert.equal(await client.request("add", { x: 2, y: 3 }), 5);
    await assert.rejects(client.request("nope"), (e: RpcError) => e.code === ErrorCode.MethodNotFound);
  });

  test("a handler that throws becomes an error answer, not a crash", async () => {
    const { client, server } = linked();
    server.handle("boom", () => {
      throw new Error("kaput");
    });
    await Promise.all([client.start(), server.start()]);
    await assert.rejects(client.request("boom"), (e: RpcError) => e.code === ErrorCode.InternalError && /kaput/.test(e.message));
  });

  test("every call has a deadline: a silent peer yields a timeout, and the callee is told to cancel", async () => {
    const { client, server } = linked();
    let cancelled = false;
    server.handle("slow", (_params, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => ((cancelled = true), resolve(null)))));
    await Promise.all([client.start(), server.start()]);
    await assert.rejects(client.request("slow", {}, { timeoutMs: 50 }), (e: RpcError) => e.code === ErrorCode.RequestTimeout);
    await new Promise((r) => setImmediate(r));
    assert.equal(cancelled, true);
  });

  test("closing the connection fails open requests at once", async () => {
    const { client, server } = linked();
    server.handle("never", () => new Promise(() => {}));
    await Promise.all([client.start(), server.start()]);
    const pending = client.request("never", {}, { timeoutMs: 60_000 });
    await server.close();
    await assert.rejects(pending, (e: RpcError) => e.code === ErrorCode.ConnectionClosed);
    await assert.rejects(client.request("x"), (e: RpcError) => e.code === ErrorCode.ConnectionClosed);
  });

  test("invalid frames: answered -32600 when they carry an id, dropped and logged otherwise", async () => {
    const { a, b, client, server, logB } = linked();
    await Promise.all([client.start(), server.start()]);
    const answers: unknown[] = [];
    a.onmessage = (v) => answers.push(v);
    b.receive({ jsonrpc: "2.0", id: 7, method: 42 });
    b.receive([1, 2, 3]);
    b.receive({ jsonrpc: "1.0", method: "x" });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      answers.map((m) => (m as { id: unknown; error: { code: number } }).error.code),
      [ErrorCode.InvalidRequest],
    );
    assert.equal((answers[0] as { id: number }).id, 7);
    assert.equal(logB.length, 3);
    // An answer to nothing we asked is dropped with a reason, not thrown.
    b.receive({ jsonrpc: "2.0", id: 999, result: 1 });
    await new Promise((r) => setImmediate(r));
    assert.match(logB.join("\n"), /no open request with id 999/);
  });
});

describe("line framer", () => {
  const collect = (max?: number) => {
    const frames: unknown[] = [];
    const dropped: FrameError[] = [];
    const framer = new LineFramer(
      (v) => frames.push(v),
      (e) => dropped.push(e),
      max,
    );
    return { framer, frames, dropped };
  };
  const bytes = (s: string) => new TextEncoder().encode(s);

  test("frames split across chunks and several per chunk are read in order", () => {
    const { framer, frames } = collect();
    framer.push(bytes('{"a":1}\n{"b"'));
    framer.push(bytes(':"中'));
    framer.push(bytes('文"}\r\n\n{"c":3}\n'));
    assert.deepEqual(frames, [{ a: 1 }, { b: "中文" }, { c: 3 }]);
  });

  test("a multi-byte character split between chunks survives", () => {
    const { framer, frames } = collect();
    const all = bytes('{"t":"你好"}\n');
    framer.push(all.subarray(0, 9));
    framer.push(all.subarray(9));
    assert.deepEqual(frames, [{ t: "你好" }]);
  });

  test("an oversized frame is dropped whole and the next frame is read", () => {
    const { framer, frames, dropped } = collect(32);
    framer.push(bytes(`{"big":"${"x".repeat(20)}`));
    framer.push(bytes("x".repeat(40)));
    // The rest of the oversized line looks like a frame of its own: it must not be read as one.
    framer.push(bytes('{"a":1}\n{"ok":true}\n'));
    assert.deepEqual(frames, [{ ok: true }]);
    assert.deepEqual(
      dropped.map((d) => d.reason),
      ["oversized"],
    );
  });

  test("a frame of exactly the cap is accepted", () => {
    const { framer, frames } = collect(9);
    framer.push(bytes('{"a":123}\n'));
    assert.deepEqual(frames, [{ a: 123 }]);
  });

  test("a line that is not JSON is dropped with its reason", () => {
    const { framer, frames, dropped } = collect();
    framer.push(bytes('hello world\n{"x":1}\n'));
    assert.deepEqual(frames, [{ x: 1 }]);
    assert.equal(dropped[0]?.reason, "malformed");
    assert.match(dropped[0]!.message, /hello world/);
  });

  test("the stream transport writes one line per message and reads them back", async () => {
    const wire = new PassThrough();
    const sink = new PassThrough();
    const writer = new StreamTransport(new PassThrough(), wire);
    const reader = new StreamTransport(wire, sink);
    const got: unknown[] = [];
    reader.onmessage = (v) => got.push(v);
    await reader.start();
    await writer.send({ jsonrpc: "2.0", method: "note", params: { text: "a\nb" } });
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(got, [{ jsonrpc: "2.0", method: "note", params: { text: "a\nb" } }]);
  });
});
