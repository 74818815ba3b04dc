/**
 * `homed embed [-data DIR] [-models DIR] [--image FILE] [--json] [TEXT]`: prints which embedder
 * is in use, why, and the vector, so a user can check a model folder by hand. With --json
 * stdout is one object `{"model","dim","embedder","reason","vector"}`; when the fallback stands
 * in for a broken model the reason also goes to stderr, so it is seen even when stdout is piped.
 */
import { readFileSync } from "node:fs";
import { UsageError, type ParsedArgs, type Settings } from "../config/index.ts";
import { openEmbedder } from "./select.ts";

export type EmbedCommandIo = { stdout(text: string): void; stderr(text: string): void };

function readImage(path: string): Uint8Array {
  try {
    return new Uint8Array(readFileSync(path));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`Cannot read image ${path}: ${reason}`);
  }
}

export async function runEmbedCommand(rest: string[], args: ParsedArgs, settings: Settings, io: EmbedCommandIo): Promise<number> {
  const imageFlag = args.flags.get("image");
  const imagePath = typeof imageFlag === "string" ? imageFlag : undefined;
  const text = rest.join(" ");
  if (imagePath && text) throw new UsageError("homed embed takes TEXT or --image FILE, not both");
  if (!imagePath && !text) throw new UsageError('homed embed needs TEXT or --image FILE, e.g. homed embed "我爱北京"');
  const image = imagePath ? readImage(imagePath) : undefined;

  const active = await openEmbedder(settings.embed);
  const { embedder } = active;
  try {
    if (active.degraded) io.stderr(`homed: ${active.reason}\n`);
    let vector: Float32Array | undefined;
    if (image) {
      if (!embedder.embedImages) {
        io.stderr(`homed: Cannot embed an image: ${embedder.modelId} has no image encoder (${active.reason})\n`);
        return 1;
      }
      [vector] = await embedder.embedImages([image]);
    } else {
      [vector] = await embedder.embedTexts([text]);
    }
    const values = Array.from(vector!);
    if (args.flags.has("json")) {
      io.stdout(`${JSON.stringify({ model: embedder.modelId, dim: values.length, embedder: active.kind, reason: active.reason, vector: values })}\n`);
    } else {
      io.stdout(
        [
          `embedder: ${active.kind} (${embedder.modelId})`,
          `why:      ${active.reason}`,
          `input:    ${image ? `image ${imagePath}` : JSON.stringify(text)}`,
          `dim:      ${values.length}`,
          `vector:   [${values.map((v) => v.toFixed(6)).join(", ")}]`,
          "",
        ].join("\n"),
      );
    }
    return 0;
  } finally {
    await embedder.close?.();
  }
}
