/**
 * Settings of a homed process, resolved from flags, then environment, then defaults, and
 * validated once here with zod; everything inside trusts the result.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { z } from "zod";
import { UsageError, type ParsedArgs } from "./flags.ts";

const AddrSchema = z
  .string()
  .regex(/^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/, "expected HOST:PORT, e.g. 127.0.0.1:8080")
  .transform((addr, ctx) => {
    const cut = addr.lastIndexOf(":");
    const port = Number(addr.slice(cut + 1));
    if (port > 65535) ctx.addIssue({ code: "custom", message: `port ${port} is out of range (0-65535)` });
    return { hostname: addr.slice(0, cut).replace(/^\[|\]$/g, ""), port };
  });

const DbUrlSchema = z.string().regex(/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/)/, "expected file:PATH, libsql://HOST, http(s)://HOST or ws(s)://HOST");

const count = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Mirrors the embedder's settings (src/embed/select.ts) without importing a higher layer. */
const EmbedSettingsSchema = z.object({
  modelsDir: z.string().min(1),
  /** Where packaged models are installed (`homed-models-<name>`), searched after modelsDir. */
  systemModelsDir: z.string().min(1).optional(),
  /** A Hugging Face–style endpoint `homed model pull` fetches catalog models from. */
  mirror: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, "expected an http:// or https:// URL")
    .optional(),
  threads: count(1, 64),
  http: z
    .object({
      baseUrl: z.string().regex(/^https?:\/\/[^\s]+$/, "expected an http:// or https:// URL"),
      model: z.string().min(1, "-embed-url needs -embed-model NAME"),
      dimension: count(1, 65536).optional(),
      apiKey: z.string().optional(),
      keyFile: z.string().optional(),
      queryBudgetMs: count(1, 600_000),
    })
    .optional(),
});

export const SettingsSchema = z.object({
  dataDir: z.string().min(1),
  listen: AddrSchema,
  dbUrl: DbUrlSchema,
  dbAuthToken: z.string().optional(),
  /** With a `file:` dbUrl: that file is an embedded replica of this libSQL server. */
  dbSyncUrl: z
    .string()
    .regex(/^(libsql:\/\/|https?:\/\/)/, "expected the libsql:// or http(s):// URL of a libSQL server")
    .optional(),
  logLevel: z.enum(["debug", "info", "warn", "error"]),
  embed: EmbedSettingsSchema,
});

export type Settings = z.output<typeof SettingsSchema>;

export type Environment = Record<string, string | undefined>;

export function defaultDataDir(env: Environment): string {
  const base = env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share");
  return join(base, "homed");
}

/** Where `homed-models-<name>` packages install their model (the seeds' /usr/lib/homed/models/<name>). */
export const SYSTEM_MODELS_DIR = "/usr/lib/homed/models";

const FIELD_FLAGS: Record<string, string> = {
  listen: "-addr",
  dbUrl: "-db",
  dbSyncUrl: "-sync-url",
  logLevel: "-log-level",
  dataDir: "-data",
  "embed.modelsDir": "-models",
  "embed.threads": "-embed-threads",
  "embed.mirror": "HOMED_MODELS_MIRROR or HF_ENDPOINT",
  "embed.http.baseUrl": "-embed-url",
  "embed.http.model": "-embed-model",
  "embed.http.dimension": "-embed-dim",
  "embed.http.queryBudgetMs": "-embed-timeout",
};

function embedInput(pick: (flag: string, envName: string) => string | undefined, dataDir: string, env: Environment) {
  const url = pick("embed-url", "HOMED_EMBED_URL");
  const model = pick("embed-model", "HOMED_EMBED_MODEL");
  if (model && !url) throw new UsageError("-embed-model needs -embed-url URL");
  const keyFile = pick("embed-key-file", "HOMED_EMBED_KEY_FILE");
  return {
    modelsDir: resolve(pick("models", "HOMED_MODELS") ?? join(dataDir, "models")),
    systemModelsDir: resolve(env.HOMED_SYSTEM_MODELS || SYSTEM_MODELS_DIR),
    // HF_ENDPOINT is huggingface_hub's own variable (hf-mirror.com documents it), so one setting serves both.
    mirror: env.HOMED_MODELS_MIRROR || env.HF_ENDPOINT || undefined,
    threads: pick("embed-threads", "HOMED_EMBED_THREADS") ?? "1",
    http: url
      ? {
          baseUrl: url,
          model: model ?? "",
          dimension: pick("embed-dim", "HOMED_EMBED_DIM") || undefined,
          apiKey: env.HOMED_EMBED_API_KEY || undefined,
          keyFile: keyFile ? resolve(keyFile) : undefined,
          queryBudgetMs: pick("embed-timeout", "HOMED_EMBED_TIMEOUT_MS") ?? "1200",
        }
      : undefined,
  };
}

export function resolveSettings(args: ParsedArgs, env: Environment): Settings {
  const pick = (flag: string, envName: string): string | undefined => {
    const fromFlag = args.flags.get(flag);
    if (typeof fromFlag === "string") return fromFlag;
    return env[envName] || undefined;
  };
  const dataDir = resolve(pick("data", "HOMED_DATA") ?? defaultDataDir(env));
  const parsed = SettingsSchema.safeParse({
    dataDir,
    listen: pick("addr", "HOMED_ADDR") ?? "127.0.0.1:8080",
    dbUrl: pick("db", "HOMED_DB") ?? `file:${join(dataDir, "homed.db")}`,
    dbAuthToken: env.HOMED_DB_AUTH_TOKEN || undefined,
    dbSyncUrl: pick("sync-url", "HOMED_DB_SYNC_URL"),
    logLevel: pick("log-level", "HOMED_LOG_LEVEL") ?? "info",
    embed: embedInput(pick, dataDir, env),
  });
  if (parsed.success && parsed.data.dbSyncUrl && !parsed.data.dbUrl.startsWith("file:")) {
    throw new UsageError("invalid -sync-url: an embedded replica needs -db file:PATH (the local copy)");
  }
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = FIELD_FLAGS[issue.path.join(".")] ?? FIELD_FLAGS[String(issue.path[0])];
    throw new UsageError(`invalid ${field ?? String(issue.path[0])}: ${issue.message}`);
  }
  return parsed.data;
}
