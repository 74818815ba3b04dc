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

const DbUrlSchema = z
  .string()
  .regex(/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/)/, "expected file:PATH, libsql://HOST, http(s)://HOST or ws(s)://HOST");

export const SettingsSchema = z.object({
  dataDir: z.string().min(1),
  listen: AddrSchema,
  dbUrl: DbUrlSchema,
  dbAuthToken: z.string().optional(),
  logLevel: z.enum(["debug", "info", "warn", "error"]),
});

export type Settings = z.output<typeof SettingsSchema>;

export type Environment = Record<string, string | undefined>;

export function defaultDataDir(env: Environment): string {
  const base = env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share");
  return join(base, "homed");
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
    logLevel: pick("log-level", "HOMED_LOG_LEVEL") ?? "info",
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = { listen: "-addr", dbUrl: "-db", logLevel: "-log-level", dataDir: "-data" }[String(issue.path[0])];
    throw new UsageError(`invalid ${field ?? String(issue.path[0])}: ${issue.message}`);
  }
  return parsed.data;
}
