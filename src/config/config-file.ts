/**
 * The optional settings file `<data>/homed.json`: memory thresholds and intervals that are too
 * many for flags. Each section is validated by its owner's zod schema at start; a bad value
 * stops start-up naming the file and the field, rather than degrading memory silently.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { HomedError } from "../errors/index.ts";

export const CONFIG_FILE = "homed.json";

export class ConfigFileError extends HomedError {
  constructor(message: string, options?: ErrorOptions) {
    super("config_file", message, options);
    this.name = "ConfigFileError";
  }
}

/** The parsed file (or `{}` when there is none). */
export function readConfigFile(dataDir: string): { path: string; values: Record<string, unknown> } {
  const path = join(dataDir, CONFIG_FILE);
  if (!existsSync(path)) return { path, values: {} };
  let values: unknown;
  try {
    values = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ConfigFileError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof values !== "object" || values === null || Array.isArray(values)) throw new ConfigFileError(`Cannot read ${path}: expected a JSON object`);
  return { path, values: values as Record<string, unknown> };
}

/** Validates one section of the file with its schema; defaults fill what is absent. */
export function configSection<S extends z.ZodType>(file: { path: string; values: Record<string, unknown> }, name: string, schema: S): z.output<S> {
  const parsed = schema.safeParse(file.values[name] ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new ConfigFileError(`Cannot start: ${file.path}: ${[name, ...issue.path].join(".")}: ${issue.message}`);
}
