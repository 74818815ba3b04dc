/**
 * A scripted OpenAI-compatible `/embeddings` server on 127.0.0.1, port 0. Each request is
 * answered by the next step of a script; every request is recorded. A step may hold its answer
 * until the test releases it, which is how "slow" is made without sleeping.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { hashEmbed } from "../../src/embed/index.ts";

export type Recorded = { path: string; headers: IncomingMessage["headers"]; body: { model: string; input: string[] } };
export type Step = (request: Recorded, response: ServerResponse, server: ScriptedServer) => void | Promise<void>;

/** Answers like a real model: deterministic vectors of `dimension` numbers, optionally unnormalised and reversed. */
export function answer(dimension = 512, options: { reverse?: boolean; scale?: number } = {}): Step {
  return (request, response) => {
    let data = request.body.input.map((text, index) => ({
      object: "embedding",
      index,
      embedding: Array.from(hashEmbed(text, dimension), (v) => v * (options.scale ?? 3)),
    }));
    if (options.reverse) data = data.reverse();
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ object: "list", data, model: request.body.model }));
  };
}

/**
 * Answers like a model that knows paraphrases: a text naming a phrase of a group gets that
 * group's direction (a fixed pseudo-random unit vector of `dimension` numbers), so two texts that
 * share no word can be neighbours; a text naming none gets its character-gram hash.
 */
export function paraphrases(dimension: number, groups: readonly (readonly string[])[]): Step {
  const directions = groups.map((_, g) => hashEmbed(`paraphrase group ${g}`, dimension));
  const embed = (text: string) => {
    const g = groups.findIndex((phrases) => phrases.some((p) => text.toLowerCase().includes(p)));
    return Array.from(g < 0 ? hashEmbed(text, dimension) : directions[g]!);
  };
  return (request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ object: "list", data: request.body.input.map((text, index) => ({ object: "embedding", index, embedding: embed(text) })) }));
  };
}

export function status(code: number, text = "scripted failure"): Step {
  return (_request, response) => {
    response.writeHead(code, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: text } }));
  };
}

export type ScriptedServer = {
  baseUrl: string;
  requests: Recorded[];
  /** Steps still to play; the last step repeats when the script runs out. */
  script: Step[];
  /** Answers waiting for `releaseAll` (see `hold`). */
  held: (() => void)[];
  releaseAll(): void;
  close(): Promise<void>;
};

export async function startScriptedServer(script: Step[]): Promise<ScriptedServer> {
  const requests: Recorded[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded: Recorded = { path: req.url ?? "", headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) };
    requests.push(recorded);
    const step = state.script.length > 1 ? state.script.shift()! : state.script[0]!;
    await step(recorded, res, state);
  });
  const state: ScriptedServer = {
    baseUrl: "",
    requests,
    script,
    held: [],
    releaseAll: () => {
      for (const release of state.held.splice(0)) release();
    },
    close: () =>
      new Promise((resolve) => {
        state.releaseAll();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

/** A step that keeps the client waiting until `server.releaseAll()`, then answers with `then`. */
export function hold(then: Step): Step {
  return (request, response, server) =>
    new Promise<void>((resolve) => {
      server.held.push(() => {
        if (!response.destroyed) void then(request, response, server);
        resolve();
      });
    });
}
