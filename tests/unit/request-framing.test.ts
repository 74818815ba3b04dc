/**
 * Request framing as the connection guard reads it: where heads and bodies end (so the right
 * deadline applies), the peer header the server trusts, and framing refused rather than read
 * differently from the server behind (request smuggling).
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { capKey, clientAddress } from "../../src/server/connection-guard.ts";
import { MAX_HEAD_BYTES, RequestFraming } from "../../src/server/request-framing.ts";

const framing = () => new RequestFraming("x-homed-peer", "10.0.0.7");

/** Pushes `text` one byte at a time (the worst split), collecting what would be forwarded. */
function byteByByte(f: RequestFraming, text: string): { forwarded: string; phases: string[]; error?: number } {
  let forwarded = "";
  const phases: string[] = [];
  for (const byte of Buffer.from(text, "latin1")) {
    const out = f.push(Buffer.from([byte]));
    if (out.error) return { forwarded, phases, error: out.error.status };
    forwarded += Buffer.concat(out.forward).toString("latin1");
    if (phases.at(-1) !== f.phase) phases.push(f.phase);
  }
  return { forwarded, phases };
}

describe("request framing", () => {
  test("the head gets the client's address, any copy the client sent is dropped", () => {
    const out = framing().push(Buffer.from("GET / HTTP/1.1\r\nHost: a\r\nX-Homed-Peer: 1.2.3.4\r\n\r\n"));
    assert.equal(Buffer.concat(out.forward).toString(), "GET / HTTP/1.1\r\nx-homed-peer: 10.0.0.7\r\nHost: a\r\n\r\n");
  });

  test("a Content-Length body, then a pipelined request: head, body, answer, head again", () => {
    const f = framing();
    const { forwarded, phases } = byteByByte(f, "POST /a HTTP/1.1\r\ncontent-length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\n");
    assert.deepEqual(phases, ["head", "body", "answer", "head"]);
    assert.equal(forwarded, "POST /a HTTP/1.1\r\nx-homed-peer: 10.0.0.7\r\ncontent-length: 5\r\n\r\nhello");
  });

  test("a chunked body ends at its last chunk and trailers, split anywhere", () => {
    const body = "5;ext=1\r\nhello\r\n3\r\nabc\r\n0\r\ntrailer: x\r\n\r\n";
    for (const push of [
      (f: RequestFraming, t: string) => byteByByte(f, t),
      (f: RequestFraming, t: string) => ({ forwarded: Buffer.concat(f.push(Buffer.from(t)).forward).toString(), phases: [f.phase] }),
    ]) {
      const f = framing();
      const { forwarded } = push(f, `POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n${body}`);
      assert.equal(f.phase, "answer");
      assert.ok(forwarded.endsWith(body), "the body is forwarded as it came");
    }
    const f = framing();
    byteByByte(f, "POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n");
    assert.equal(f.phase, "body", "no last chunk yet");
  });

  test("a request without a body is answered at once; a bodiless one with Content-Length: 0 too", () => {
    for (const head of ["GET / HTTP/1.1\r\n\r\n", "POST / HTTP/1.1\r\ncontent-length: 0\r\n\r\n"]) {
      const f = framing();
      f.push(Buffer.from(head));
      assert.equal(f.phase, "answer");
    }
  });

  test("framing the server could read differently is refused with 400", () => {
    for (const head of [
      "POST / HTTP/1.1\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n",
      "POST / HTTP/1.1\r\ncontent-length: 5\r\ncontent-length: 6\r\n\r\n",
      "POST / HTTP/1.1\r\ncontent-length: -1\r\n\r\n",
      "POST / HTTP/1.1\r\ntransfer-encoding: chunked, gzip\r\n\r\n",
      "GET / HTTP/1.1\r\nx-a: 1\r\n folded\r\n\r\n",
    ]) {
      assert.equal(framing().push(Buffer.from(head)).error?.status, 400, head);
    }
    const f = framing();
    f.push(Buffer.from("POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n"));
    assert.equal(f.push(Buffer.from("zz\r\n")).error?.status, 400, "a chunk size that is not hex");
  });

  test("a head larger than the most allowed is refused with 431, even before it ends", () => {
    const out = framing().push(Buffer.from(`GET / HTTP/1.1\r\nx-big: ${"a".repeat(MAX_HEAD_BYTES)}`));
    assert.equal(out.error?.status, 431);
  });

  test("client addresses: IPv4 without its mapped prefix; an IPv6 client counted by its /64", () => {
    assert.equal(clientAddress("::ffff:127.0.0.1"), "127.0.0.1");
    assert.equal(capKey("127.0.0.1"), "127.0.0.1");
    assert.equal(capKey("2001:db8:1:2:aaaa::1"), capKey("2001:db8:1:2:bbbb:cccc:dddd:eeee"));
    assert.notEqual(capKey("2001:db8:1:2::1"), capKey("2001:db8:1:3::1"));
    assert.equal(capKey("::1"), "0:0:0:0::/64");
  });
});
