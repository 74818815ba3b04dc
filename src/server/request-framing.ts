/**
 * Where each HTTP/1.1 request in a client's byte stream begins and ends (RFC 9112 framing: the
 * head up to its empty line, then a Content-Length or chunked body), so the connection guard
 * (connection-guard.ts) knows which deadline applies while bytes trickle in: the head's, the
 * body's, or none while the answer is written (a long SSE stream must not be cut).
 *
 * Bytes pass through unchanged but for one thing: the head gets the header that tells the real
 * server who the client is (`peerHeader`), any copy the client sent being dropped, because the
 * real server only sees the guard's private socket. Framing homed would not read the same way
 * as the server behind it (a Content-Length with a Transfer-Encoding, obsolete line folding, a
 * coding other than chunked last) is refused, so the two never disagree on where a request ends.
 */

/** A head larger than this is refused (431); both runtimes' servers allow less. */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A chunk-size line or a trailer section larger than this is refused (400). */
const MAX_CHUNK_LINE_BYTES = 4096;

export type Phase = "head" | "body" | "answer";

export type FramingError = { status: 400 | 431; message: string };

const CRLFCRLF = Buffer.from("\r\n\r\n");

/** What one push produced: bytes for the server, in order, and whether a head or body began. */
export type Pushed = { forward: Buffer[]; error?: FramingError; headStarted: boolean; bodyStarted: boolean };

type Body = { kind: "length"; left: number } | { kind: "chunked"; state: "size" | "data" | "data-end" | "trailer"; left: number; line: Buffer };

export class RequestFraming {
  /** `head` until a request's head is complete; `body` while its body comes; `answer` after. */
  phase: Phase = "head";
  private head: Buffer = Buffer.alloc(0);
  private body: Body | undefined;
  private readonly peerLine: string;
  private readonly peerBytes: Buffer;
  /** Names that make a head worth reading line by line; a head without them is forwarded as is. */
  private readonly framingHeaders: string[];

  constructor(
    private readonly peerHeader: string,
    peerAddress: string,
  ) {
    this.peerLine = `${peerHeader}: ${peerAddress}`;
    this.peerBytes = Buffer.from(`${this.peerLine}\r\n`, "latin1");
    this.framingHeaders = ["content-length", "transfer-encoding", peerHeader.toLowerCase()];
  }

  push(chunk: Buffer): Pushed {
    const out: Pushed = { forward: [], headStarted: false, bodyStarted: false };
    let rest = chunk;
    while (rest.length > 0 && !out.error) {
      if (this.phase === "answer") {
        this.phase = "head";
        out.headStarted = true;
      }
      rest = this.phase === "head" ? this.pushHead(rest, out) : this.pushBody(rest, out);
    }
    return out;
  }

  private pushHead(chunk: Buffer, out: Pushed): Buffer {
    // Empty lines before a request line are allowed (RFC 9112 §2.2) and dropped.
    let bytes = this.head.length === 0 ? skipLeadingNewlines(chunk) : chunk;
    if (bytes.length === 0) return bytes;
    const searchFrom = Math.max(0, this.head.length - 3);
    this.head = this.head.length === 0 ? bytes : Buffer.concat([this.head, bytes]);
    const end = this.head.indexOf(CRLFCRLF, searchFrom);
    if (end < 0) {
      if (this.head.length > MAX_HEAD_BYTES) out.error = { status: 431, message: "The request head is too large" };
      return Buffer.alloc(0);
    }
    if (end > MAX_HEAD_BYTES) {
      out.error = { status: 431, message: "The request head is too large" };
      return Buffer.alloc(0);
    }
    const whole = this.head;
    bytes = whole.subarray(end + 4);
    this.head = Buffer.alloc(0);
    const head = whole.subarray(0, end).toString("latin1");
    const lower = head.toLowerCase();
    let body: Body | undefined;
    if (!this.framingHeaders.some((name) => lower.includes(name)) && !/\n[ \t]/.test(head)) {
      // Most heads (a GET, a fetch without body): no line to read, the peer line goes in as bytes.
      const lineEnd = whole.indexOf(0x0a) + 1;
      out.forward.push(whole.subarray(0, lineEnd), this.peerBytes, whole.subarray(lineEnd, end + 4));
    } else {
      const parsed = this.readHead(head);
      if ("status" in parsed) {
        out.error = parsed;
        return Buffer.alloc(0);
      }
      out.forward.push(Buffer.from(`${parsed.head}\r\n\r\n`, "latin1"));
      body = parsed.body;
    }
    this.body = body;
    if (this.body) {
      this.phase = "body";
      out.bodyStarted = true;
    } else this.phase = "answer";
    return bytes;
  }

  /** The head with the peer header put in, and how its body is framed (none: no body). */
  private readHead(head: string): { head: string; body: Body | undefined } | FramingError {
    const lines = head.split("\r\n");
    const kept = [lines[0]!, this.peerLine];
    const lengths: string[] = [];
    const codings: string[] = [];
    const ownHeader = this.peerHeader.toLowerCase();
    for (const line of lines.slice(1)) {
      if (line.startsWith(" ") || line.startsWith("\t")) return { status: 400, message: "Obsolete header line folding is not accepted" };
      const colon = line.indexOf(":");
      if (colon <= 0) return { status: 400, message: "A header line has no name" };
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === ownHeader) continue;
      if (name === "content-length") lengths.push(...value.split(",").map((v) => v.trim()));
      if (name === "transfer-encoding") codings.push(...value.split(",").map((v) => v.trim().toLowerCase()));
      kept.push(line);
    }
    const framed = { head: kept.join("\r\n") };
    if (codings.length > 0) {
      if (lengths.length > 0) return { status: 400, message: "A request cannot have both Content-Length and Transfer-Encoding" };
      if (codings.at(-1) !== "chunked") return { status: 400, message: "Transfer-Encoding must end with chunked" };
      return { ...framed, body: { kind: "chunked", state: "size", left: 0, line: Buffer.alloc(0) } };
    }
    if (lengths.length === 0) return { ...framed, body: undefined };
    if (!lengths.every((v) => /^\d{1,15}$/.test(v) && v === lengths[0])) return { status: 400, message: "The Content-Length is not one number" };
    const length = Number(lengths[0]);
    return { ...framed, body: length > 0 ? { kind: "length", left: length } : undefined };
  }

  private pushBody(chunk: Buffer, out: Pushed): Buffer {
    const body = this.body!;
    if (body.kind === "length") {
      const taken = Math.min(body.left, chunk.length);
      out.forward.push(chunk.subarray(0, taken));
      body.left -= taken;
      if (body.left === 0) this.endBody();
      return chunk.subarray(taken);
    }
    let at = 0;
    while (at < chunk.length && this.phase === "body") {
      if (body.state === "data") {
        const taken = Math.min(body.left, chunk.length - at);
        at += taken;
        body.left -= taken;
        if (body.left === 0) body.state = "data-end";
        continue;
      }
      // size, data-end and trailer are lines: read up to the next LF.
      const lf = chunk.indexOf(0x0a, at);
      const piece = chunk.subarray(at, lf < 0 ? chunk.length : lf + 1);
      at += piece.length;
      body.line = body.line.length === 0 ? piece : Buffer.concat([body.line, piece]);
      if (body.line.length > MAX_CHUNK_LINE_BYTES) {
        out.error = { status: 400, message: "A chunk line is too long" };
        return Buffer.alloc(0);
      }
      if (lf < 0) break;
      const line = body.line.toString("latin1").replace(/\r?\n$/, "");
      body.line = Buffer.alloc(0);
      if (body.state === "data-end") {
        if (line !== "") {
          out.error = { status: 400, message: "A chunk is longer than its size says" };
          return Buffer.alloc(0);
        }
        body.state = "size";
      } else if (body.state === "size") {
        const size = line.split(";")[0]!.trim();
        if (!/^[0-9a-fA-F]{1,12}$/.test(size)) {
          out.error = { status: 400, message: "A chunk size is not hexadecimal" };
          return Buffer.alloc(0);
        }
        body.left = Number.parseInt(size, 16);
        body.state = body.left === 0 ? "trailer" : "data";
      } else if (line === "") this.endBody();
    }
    out.forward.push(chunk.subarray(0, at));
    return chunk.subarray(at);
  }

  private endBody(): void {
    this.body = undefined;
    this.phase = "answer";
  }
}

function skipLeadingNewlines(chunk: Buffer): Buffer {
  let at = 0;
  while (at < chunk.length && (chunk[at] === 0x0d || chunk[at] === 0x0a)) at++;
  return at === 0 ? chunk : chunk.subarray(at);
}
