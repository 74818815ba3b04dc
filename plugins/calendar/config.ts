/** The calendar plugin's settings (homed.json's `plugins.calendar`), apart from the plugin so its tools can take their type without importing the plugin's entry. */
import { z } from "../sdk/index.ts";

export const ConfigSchema = z.object({
  dir: z.string().min(1),
  /** Zone for wall-clock times given without one (default: the machine's). */
  timezone: z
    .string()
    .min(1)
    .default(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"),
  maxRangeDays: z.number().int().positive().default(400),
  maxOccurrences: z.number().int().positive().default(500),
  /** How often upcoming events are looked for, when reminders are on. */
  checkSeconds: z.number().positive().default(60),
});
export type Config = z.infer<typeof ConfigSchema>;
