/** A tiny sentence encoder folder in a temp dir, laid out like a published ONNX export. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tinyVocab } from "../fixtures/make-tiny-clip.ts";
import { tinySentenceModel } from "../fixtures/make-tiny-sentence.ts";
import { testDir } from "../support/temp-dir.ts";

export function tinySentenceFolder(config: Record<string, unknown>, options: { vocab?: "vocab.txt" | "tokenizer.json"; modelsDir?: string; name?: string } = {}): string {
  const dir = join(options.modelsDir ?? testDir("homed-sentence-"), options.name ?? "tiny-sentence");
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", "model.onnx"), tinySentenceModel());
  if (options.vocab === "tokenizer.json") {
    const vocab = Object.fromEntries(tinyVocab().map((token, id) => [token, id]));
    writeFileSync(join(dir, "tokenizer.json"), JSON.stringify({ version: "1.0", model: { type: "WordPiece", unk_token: "[UNK]", vocab } }));
  } else writeFileSync(join(dir, "vocab.txt"), `${tinyVocab().join("\n")}\n`);
  writeFileSync(join(dir, "homed-embed.json"), JSON.stringify({ name: "tiny-sentence", ...config }));
  return dir;
}
