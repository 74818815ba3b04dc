/**
 * The `models` section of homed.json: `mirror`, a Hugging Face mirror to pull from (see
 * model-source.ts), and `catalog`, entries of the catalog's shape that add to the built-in
 * catalog or replace one of its entries by name — a private model, or a built-in one whose
 * files an organisation re-exported (its own checksums, the same layout).
 */
import { z } from "zod";
import { configSection, readConfigFile } from "../config/index.ts";
import { CATALOG, ModelEntrySchema, type ModelEntry } from "./model-catalog.ts";

export const ModelsSectionSchema = z
  .object({
    mirror: z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, "expected an http:// or https:// URL")
      .optional(),
    catalog: z.array(ModelEntrySchema).default([]),
  })
  .strict();
export type ModelsSection = z.output<typeof ModelsSectionSchema>;

/** The section, validated (a bad value is an error naming the file and the field). */
export function readModelsSection(dataDir: string): ModelsSection {
  const file = readConfigFile(dataDir);
  return configSection(file, "models", ModelsSectionSchema);
}

/** The built-in catalog with homed.json's entries added or put in place of a built-in one of the same name. */
export function catalogOf(section: ModelsSection): ModelEntry[] {
  const own = new Map(section.catalog.map((entry) => [entry.name, entry]));
  return [...CATALOG.map((entry) => own.get(entry.name) ?? entry), ...section.catalog.filter((entry) => !CATALOG.some((e) => e.name === entry.name))];
}
