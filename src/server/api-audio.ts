/**
 * `/api/audio`: a voice message's recording played back in the console (the audio block's bytes,
 * by the id its message part names), and an answer spoken through the configured
 * `/audio/speech` endpoint (ProviderStore.audioTarget). Admin and console only, as all of /api.
 */
import { Hono } from "hono";
import { z } from "zod";
import { HomedError } from "../errors/index.ts";
import type { Kernel } from "../kernel/index.ts";
import { speak } from "../llm/index.ts";
import { audioBlock } from "../store/index.ts";
import { parseBody } from "./validate.ts";

/** OpenAI's `/audio/speech` takes up to 4096 characters of input. */
const SpeechSchema = z.object({ text: z.string().trim().min(1).max(4096) });

export function audioRoutes(kernel: Kernel): Hono {
  const app = new Hono();

  app.get("/:id", async (c) => {
    const block = await audioBlock(kernel.client, c.req.param("id"));
    if (!block) throw new HomedError("not_found", `No audio block ${c.req.param("id")}`);
    return c.body(block.bytes as Uint8Array<ArrayBuffer>, 200, { "content-type": block.mime, "cache-control": "private, max-age=86400" });
  });

  app.post("/speech", async (c) => {
    const { text } = await parseBody(c, SpeechSchema);
    const target = await kernel.providers.audioTarget("speech");
    if (!target) throw new HomedError("not_found", "No provider has a speech model (speechModel): the console speaks with the browser's voice instead");
    const spoken = await speak(target, text);
    return c.body(spoken.bytes as Uint8Array<ArrayBuffer>, 200, { "content-type": spoken.mime });
  });
  return app;
}
