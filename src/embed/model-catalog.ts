/**
 * What `homed model pull NAME` knows: where the common sentence encoders are published as ONNX
 * (Hugging Face, the transformers.js conversions), what each is, its size, width and licence,
 * and the homed-embed.json each needs. The same shape is what `homed model pull URL` reads from
 * `URL/homed-model.json`, so a mirror or a private model is described the same way.
 *
 * The checksums of the real files are not in the catalog: they could not be fetched from where
 * this was written. The first download of a file records the sha256 it trusted (and prints it);
 * later pulls are checked against that record.
 */
import { z } from "zod";
import { SentenceConfigSchema } from "./sentence-folder.ts";

export const ModelFileSchema = z.object({
  /** Path under the base URL. */
  path: z
    .string()
    .regex(/^[\w./-]+$/)
    .refine((p) => !p.split("/").includes(".."), "no '..'"),
  /** Name in the model folder. */
  save: z.string().regex(/^[\w.-]+$/),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});

export const ModelEntrySchema = z.object({
  name: z.string().regex(/^[\w.-]+$/),
  about: z.string().default(""),
  /** Approximate download, for the list. */
  size: z.string().default("?"),
  dimension: z.number().int().positive().optional(),
  licence: z.string().default("?"),
  /** Base URL the files' paths are relative to (ends without '/'). */
  baseUrl: z.string().url(),
  files: z.array(ModelFileSchema).min(1),
  config: SentenceConfigSchema.omit({ name: true }),
});
export type ModelEntry = z.output<typeof ModelEntrySchema>;
export type ModelEntryInput = z.input<typeof ModelEntrySchema>;

const hf = (repo: string) => `https://huggingface.co/${repo}/resolve/main`;
const ONNX_FILES = [
  { path: "onnx/model.onnx", save: "model.onnx" },
  { path: "tokenizer.json", save: "tokenizer.json" },
];

export const CATALOG: readonly ModelEntry[] = [
  {
    name: "bge-small-zh-v1.5",
    about: "BAAI's small Chinese retrieval encoder (C-MTEB); CLS pooling, query instruction",
    size: "~95 MB",
    dimension: 512,
    licence: "MIT",
    baseUrl: hf("Xenova/bge-small-zh-v1.5"),
    files: ONNX_FILES,
    config: { pooling: "cls", normalize: true, queryPrefix: "为这个句子生成表示以用于检索相关文章：", passagePrefix: "", maxTokens: 512 },
  },
  {
    name: "bge-small-en-v1.5",
    about: "BAAI's small English retrieval encoder (MTEB); CLS pooling, query instruction",
    size: "~133 MB",
    dimension: 384,
    licence: "MIT",
    baseUrl: hf("Xenova/bge-small-en-v1.5"),
    files: ONNX_FILES,
    config: { pooling: "cls", normalize: true, queryPrefix: "Represent this sentence for searching relevant passages: ", passagePrefix: "", maxTokens: 512 },
  },
  {
    name: "all-MiniLM-L6-v2",
    about: "sentence-transformers' small English encoder (mem0's usual local default); mean pooling",
    size: "~90 MB",
    dimension: 384,
    licence: "Apache-2.0",
    baseUrl: hf("Xenova/all-MiniLM-L6-v2"),
    files: ONNX_FILES,
    config: { pooling: "mean", normalize: true, queryPrefix: "", passagePrefix: "", maxTokens: 256 },
  },
].map((entry) => ModelEntrySchema.parse(entry));

export const catalogEntry = (name: string): ModelEntry | undefined => CATALOG.find((e) => e.name === name);
