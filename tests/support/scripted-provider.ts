/**
 * A scripted OpenAI-compatible provider: a real HTTP server on 127.0.0.1 (port 0) that answers
 * `/v1/chat/completions` from a script — replies, streamed tool calls, errors, delays, hangs —
 * and, like DeepSeek, refuses with HTTP 400 any request whose messages leave a tool_call
 * unanswered. Its sequence check is written independently of homed's, so it is a real oracle.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedToolCall = { id: string; name: string; arguments: string };

export type Step =
  | {
      content?: string;
      reasoning?: string;
      toolCalls?: ScriptedToolCall[];
      /** Delay before answering (or between chunks when streaming). */
      delayMs?: number;
      /** How tool-call indexes appear in the stream: as OpenAI sends them, all 0, or missing. */
      indexes?: "normal" | "repeat-zero" | "omit";
      /** The answer's finish_reason (default: "tool_calls" with tool calls, else "stop"), e.g. "length". */
      finishReason?: string;
    }
  | { status: number; body?: string; retryAfter?: number }
  | { hang: true }
  | { dropConnection: true };

export type Script = Step[] | ((request: ReceivedRequest, n: number) => Step);

export type ReceivedRequest = { body: any; headers: IncomingMessage["headers"] };

export const DEEPSEEK_DANGLING_400 = JSON.stringify({
  error: {
    message: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
    type: "invalid_request_error",
    param: null,
    code: "invalid_request_error",
  },
});

/** The providers' rule, checked independently: returns a reason, or null when the sequence is valid. */
export function danglingToolCall(messages: any[]): string | null {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "tool") {
      let j = i - 1;
      while (j >= 0 && messages[j].role === "tool") j--;
      const owner = messages[j];
      if (owner?.role !== "assistant" || !(owner.tool_calls ?? []).some((c: any) => c.id === m.tool_call_id)) {
        return `messages[${i}]: tool message answers no preceding tool_call`;
      }
    }
    if (m.role !== "assistant" || !m.tool_calls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j].role === "tool"; j++) answered.add(messages[j].tool_call_id);
    const missing = m.tool_calls.filter((c: any) => !answered.has(c.id));
    if (missing.length) return `messages[${i}]: tool_calls ${missing.map((c: any) => c.id).join(",")} not answered`;
  }
  return null;
}

/** One upload to `/v1/audio/transcriptions`, as the provider parsed the multipart form. */
export type ReceivedTranscription = { model: string; bytes: Uint8Array; filename: string; type: string };

/**
 * The provider's audio endpoints, when it has them: `transcribe` answers an upload's text (a
 * number: that HTTP status instead), `speech` the bytes `/v1/audio/speech` answers (audio/mpeg).
 */
export type ScriptedAudio = { transcribe?: (upload: ReceivedTranscription) => string | number; speech?: (input: string) => Uint8Array };

export type ScriptedProvider = {
  /** Base URL to give a client, ending in /v1. */
  url: string;
  requests: ReceivedRequest[];
  /** Uploads to `/v1/audio/transcriptions`, in order. */
  transcriptions: ReceivedTranscription[];
  /** Inputs of `/v1/audio/speech` requests, in order. */
  speeches: { model: string; input: string; voice: string }[];
  /** Requests refused because of a dangling tool call. */
  sequenceErrors: string[];
  /** How many times `GET /v1/models` was asked. */
  modelListings: { count: number };
  close(): Promise<void>;
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function completion(step: Extract<Step, { content?: string }>) {
  const toolCalls = step.toolCalls?.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } }));
  return {
    id: "cmpl-scripted",
    object: "chat.completion",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: step.content ?? null, ...(step.reasoning ? { reasoning_content: step.reasoning } : {}), ...(toolCalls?.length ? { tool_calls: toolCalls } : {}) },
        finish_reason: step.finishReason ?? (toolCalls?.length ? "tool_calls" : "stop"),
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** Splits text into three pieces so streaming is really exercised. */
function pieces(text: string): string[] {
  const n = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += n) out.push(text.slice(i, i + n));
  return out;
}

function streamChunks(step: Extract<Step, { content?: string }>): object[] {
  const chunk = (delta: object, finish: string | null = null) => ({ id: "cmpl-scripted", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
  const chunks: object[] = [chunk({ role: "assistant" })];
  for (const p of pieces(step.reasoning ?? "")) chunks.push(chunk({ reasoning_content: p }));
  for (const p of pieces(step.content ?? "")) chunks.push(chunk({ content: p }));
  (step.toolCalls ?? []).forEach((call, i) => {
    const index = step.indexes === "omit" ? {} : { index: step.indexes === "repeat-zero" ? 0 : i };
    chunks.push(chunk({ tool_calls: [{ ...index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }));
    for (const p of pieces(call.arguments)) {
      // Continuations carry no id: only the index (or, when omitted, position) ties them to their call.
      chunks.push(chunk({ tool_calls: [{ ...index, function: { arguments: p } }] }));
    }
  });
  chunks.push(chunk({}, step.finishReason ?? (step.toolCalls?.length ? "tool_calls" : "stop")));
  chunks.push({ id: "cmpl-scripted", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  return chunks;
}

async function readBody(req: IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body;
}

/** The raw bytes of a request. */
async function readBytes(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `models`: the entries its `GET /v1/models` lists (default: one, `scripted-model`, with no window). */
export async function startScriptedProvider(script: Script, audio: ScriptedAudio = {}, options: { models?: object[] } = {}): Promise<ScriptedProvider> {
  const requests: ReceivedRequest[] = [];
  const sequenceErrors: string[] = [];
  const transcriptions: ReceivedTranscription[] = [];
  const speeches: ScriptedProvider["speeches"] = [];
  const modelListings = { count: 0 };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === "/v1/audio/transcriptions" && req.method === "POST" && audio.transcribe) {
      // Parsed as OpenAI parses it: a multipart form with `file` and `model`.
      const form = await new Response(new Uint8Array(await readBytes(req)), { headers: { "content-type": req.headers["content-type"] ?? "" } }).formData();
      const file = form.get("file");
      const model = form.get("model");
      if (!(file instanceof Blob) || typeof model !== "string") {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "file and model are required", type: "invalid_request_error" } }));
        return;
      }
      const upload = { model, bytes: new Uint8Array(await file.arrayBuffer()), filename: (file as File).name, type: file.type };
      transcriptions.push(upload);
      const text = audio.transcribe(upload);
      if (typeof text === "number") res.writeHead(text, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `scripted ${text}` } }));
      else res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text }));
      return;
    }
    if (req.url === "/v1/audio/speech" && req.method === "POST" && audio.speech) {
      const body = JSON.parse(await readBody(req));
      speeches.push({ model: body.model, input: body.input, voice: body.voice });
      res.writeHead(200, { "content-type": "audio/mpeg" }).end(audio.speech(body.input));
      return;
    }
    if (req.url === "/v1/models") {
      modelListings.count++;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: options.models ?? [{ id: "scripted-model", object: "model" }] }));
      return;
    }
    if (req.url !== "/v1/chat/completions" || req.method !== "POST") {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(await readBody(req));
    const received = { body, headers: req.headers };
    requests.push(received);
    const dangling = danglingToolCall(body.messages ?? []);
    if (dangling) {
      sequenceErrors.push(dangling);
      res.writeHead(400, { "content-type": "application/json" }).end(DEEPSEEK_DANGLING_400);
      return;
    }
    const n = requests.length - 1;
    const step = typeof script === "function" ? script(received, n) : script[n];
    if (!step) {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `script has no step ${n}` } }));
      return;
    }
    if ("hang" in step) return; // never answers; the client must time out or be cancelled
    if ("dropConnection" in step) {
      req.socket.destroy();
      return;
    }
    if ("status" in step) {
      res.writeHead(step.status, { "content-type": "application/json", ...(step.retryAfter ? { "retry-after": String(step.retryAfter) } : {}) });
      res.end(step.body ?? JSON.stringify({ error: { message: `scripted ${step.status}` } }));
      return;
    }
    if (!body.stream) {
      if (step.delayMs) await sleep(step.delayMs);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(completion(step)));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    for (const chunk of streamChunks(step)) {
      if (res.destroyed) return;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      if (step.delayMs) await sleep(step.delayMs);
    }
    res.end("data: [DONE]\n\n");
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    transcriptions,
    speeches,
    sequenceErrors,
    modelListings,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
