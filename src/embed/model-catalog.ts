/**
 * What `homed model pull NAME` knows: where each model is published (a Hugging Face repository
 * pinned to a commit, so the files cannot change under a name), what it is, its size, languages,
 * width and licence, and how homed runs it. Two kinds: a BERT-style sentence encoder (text
 * recall; `config` is the homed-embed.json it needs) and Chinese-CLIP (images and text in one
 * space; installed where `findClipFolder` looks). The same shape is what `homed model pull URL`
 * reads from `URL/homed-model.json`, so a mirror or a private model is described the same way.
 *
 * Checksums: Git LFS files carry their sha256 on the Hub (the LFS pointer's oid), copied here;
 * a small file kept in git has none published, so the first download records the sha256 it
 * trusted (and prints it) and later pulls are checked against that record.
 */
import { z } from "zod";
import { CLIP_FOLDER_NAME } from "./clip-folder.ts";
import { SentenceConfigSchema } from "./sentence-folder.ts";

/** A repository on a Hugging Face–style hub, at one commit: `<endpoint>/<repo>/resolve/<revision>/<path>`. */
export const HubSourceSchema = z.object({
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, "owner/name"),
  revision: z.string().regex(/^[0-9a-f]{40}$|^main$/, "a 40-hex commit (or main)"),
});
export type HubSource = z.output<typeof HubSourceSchema>;

export const ModelFileSchema = z.object({
  /** Path in the repository, or under the base URL. */
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
  /** Another repository than the entry's, for this file (Chinese-CLIP's vocabulary). */
  hub: HubSourceSchema.optional(),
  /** An address outside the Hub, fetched as it is (a licence in the code repository, at a commit). */
  url: z.string().url().optional(),
  /** The licence's text: copied into LICENCE.txt; one that cannot be fetched (from a mirror) is a note, not a failure. */
  licence: z.boolean().default(false),
});
export type ModelFile = z.output<typeof ModelFileSchema>;

export const ModelEntrySchema = z
  .object({
    name: z.string().regex(/^[\w.-]+$/),
    kind: z.enum(["sentence", "clip"]).default("sentence"),
    /** What it is and what it is for, one line. */
    about: z.string().default(""),
    /** Approximate download, for the list. */
    size: z.string().default("?"),
    /** ISO 639-1 codes of the languages it was trained for. */
    languages: z.array(z.string()).default([]),
    dimension: z.number().int().positive().optional(),
    licence: z.string().default("?"),
    /** Where the licence is stated upstream (copied into the folder's LICENCE.txt note). */
    licenceUrl: z.string().url().optional(),
    /** What else the licence note must say (an export published under another tag than its weights). */
    licenceNote: z.string().optional(),
    /** The repository the files come from, at a pinned commit. */
    hub: HubSourceSchema.optional(),
    /** Base URL the files' paths are relative to (ends without '/'): a `homed-model.json` folder. */
    baseUrl: z.string().url().optional(),
    /** Folder under the models directory (default: the name); CLIP's is where homed looks for it. */
    folder: z
      .string()
      .regex(/^[\w.-]+$/)
      .optional(),
    files: z.array(ModelFileSchema).min(1),
    config: SentenceConfigSchema.omit({ name: true }).optional(),
  })
  .refine((e) => e.kind !== "sentence" || e.config, { message: "a sentence encoder needs its config", path: ["config"] })
  .refine((e) => e.baseUrl || e.files.every((f) => f.url ?? f.hub ?? e.hub), { message: "each file needs a hub repository or a url, or the entry a baseUrl", path: ["files"] });
export type ModelEntry = z.output<typeof ModelEntrySchema>;
export type ModelEntryInput = z.input<typeof ModelEntrySchema>;

/** Folder name under the models directory. */
export const installFolder = (entry: ModelEntry): string => entry.folder ?? entry.name;

/** transformers.js conversions (Xenova/*): the fp32 export in onnx/, the WordPiece vocabulary in tokenizer.json. */
const xenova = (repo: string, revision: string, licence?: { path: string; url: string }) => ({
  hub: { repo, revision },
  files: [{ path: "onnx/model.onnx", save: "model.onnx" }, { path: "tokenizer.json", save: "tokenizer.json" }, ...(licence ? [{ ...licence, save: licence.path, licence: true }] : [])],
});

/** The licence texts, from the code repositories at a commit (the Hub repositories carry none). */
const CHINESE_CLIP_LICENCE = { path: "MIT-LICENSE.txt", url: "https://raw.githubusercontent.com/OFA-Sys/Chinese-CLIP/86888d8f894d13d9fcc9c32e5f53ec31ee8dbc74/MIT-LICENSE.txt" };
const BGE_LICENCE = { path: "LICENSE", url: "https://raw.githubusercontent.com/FlagOpen/FlagEmbedding/c086741f5e117b7b8ce1745ea00b6c262f281a01/LICENSE" };

/** Chinese-CLIP ViT-B/16 as the official script (cn_clip/deploy/pytorch_to_onnx.py) exports it, fp16 with external weights. */
const CHINESE_CLIP_ONNX = { repo: "eisneim/cn-clip_vit-b-16", revision: "0ab0e0ce47e796c2b98d2e3cc4d1190c9b3d426d" };
/** Its tokenizer's vocabulary, from the authors' own repository (the commit that uploaded it). */
const CHINESE_CLIP_VOCAB = { repo: "OFA-Sys/chinese-clip-vit-base-patch16", revision: "7e73595040fe9356e6c892252acd6325a00c21ae" };

export const CATALOG: readonly ModelEntry[] = [
  {
    name: "chinese-clip-vit-b16",
    kind: "clip",
    about: "Chinese-CLIP ViT-B/16 (OFA-Sys): photos and text in one vector space, so a photo is found by words; text too when no sentence encoder is installed",
    size: "~382 MB",
    languages: ["zh", "en"],
    dimension: 512,
    licence: "MIT",
    licenceNote:
      "The Chinese-CLIP repository (OFA-Sys/Chinese-CLIP, its code and released checkpoints) is under the MIT licence below; the Hub repositories the files come from (eisneim/cn-clip_vit-b-16, OFA-Sys/chinese-clip-vit-base-patch16's family) are tagged Apache-2.0.",
    licenceUrl: "https://github.com/OFA-Sys/Chinese-CLIP/blob/86888d8f894d13d9fcc9c32e5f53ec31ee8dbc74/MIT-LICENSE.txt",
    hub: CHINESE_CLIP_ONNX,
    folder: CLIP_FOLDER_NAME,
    files: [
      { path: "vit-b-16.txt.fp16.onnx", save: "vit-b-16.txt.fp16.onnx", sha256: "31cde86ac026826e46b65a2cac931ccc9d387f53a881c776b3bb15e5b2460cd5" },
      { path: "vit-b-16.txt.fp16.onnx.extra_file", save: "vit-b-16.txt.fp16.onnx.extra_file", sha256: "42cafb2217d7cba53b23f51ff4deacad4a322c120c4e32b5a4630dd5c83767a2" },
      { path: "vit-b-16.img.fp16.onnx", save: "vit-b-16.img.fp16.onnx", sha256: "2a26f4fa948071b8fac2f8e63c87d8f798238e5e618eeee55621fdaf166541c5" },
      { path: "vit-b-16.img.fp16.onnx.extra_file", save: "vit-b-16.img.fp16.onnx.extra_file", sha256: "41ca7f726a18f3dcd678178c5fe4effbb6036fafd6743742112d9ee797ea54cf" },
      { path: "vocab.txt", save: "vocab.txt", hub: CHINESE_CLIP_VOCAB },
      { ...CHINESE_CLIP_LICENCE, save: "MIT-LICENSE.txt", licence: true },
    ],
  },
  {
    name: "bge-small-zh-v1.5",
    about: "BAAI's small Chinese retrieval encoder (C-MTEB), reads English too; CLS pooling, query instruction",
    size: "~95 MB",
    languages: ["zh", "en"],
    dimension: 512,
    licence: "MIT",
    licenceUrl: "https://github.com/FlagOpen/FlagEmbedding/blob/c086741f5e117b7b8ce1745ea00b6c262f281a01/LICENSE",
    ...xenova("Xenova/bge-small-zh-v1.5", "d990a82dec71c3c1cec53fc9870f2bc97a52f492", BGE_LICENCE),
    config: { pooling: "cls", normalize: true, queryPrefix: "为这个句子生成表示以用于检索相关文章：", passagePrefix: "", maxTokens: 512 },
  },
  {
    name: "bge-small-en-v1.5",
    about: "BAAI's small English retrieval encoder (MTEB); CLS pooling, query instruction",
    size: "~133 MB",
    languages: ["en"],
    dimension: 384,
    licence: "MIT",
    licenceUrl: "https://github.com/FlagOpen/FlagEmbedding/blob/c086741f5e117b7b8ce1745ea00b6c262f281a01/LICENSE",
    ...xenova("Xenova/bge-small-en-v1.5", "main", BGE_LICENCE),
    config: { pooling: "cls", normalize: true, queryPrefix: "Represent this sentence for searching relevant passages: ", passagePrefix: "", maxTokens: 512 },
  },
  {
    name: "all-MiniLM-L6-v2",
    about: "sentence-transformers' small English encoder (mem0's usual local default); mean pooling",
    size: "~90 MB",
    languages: ["en"],
    dimension: 384,
    licence: "Apache-2.0",
    licenceUrl: "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2",
    ...xenova("Xenova/all-MiniLM-L6-v2", "main"),
    config: { pooling: "mean", normalize: true, queryPrefix: "", passagePrefix: "", maxTokens: 256 },
  },
].map((entry) => ModelEntrySchema.parse(entry));

export const catalogEntry = (name: string): ModelEntry | undefined => CATALOG.find((e) => e.name === name);
