/**
 * calendar: events in local iCalendar files under the data folder — list a range (recurring
 * events expanded), create, move, delete (a whole series or one occurrence). Time zones and
 * recurrence are ical.js's; zone rules for new events come from timezones-ical-library.
 */
import { definePlugin, z } from "../sdk/index.ts";

const ConfigSchema = z.object({
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

export const calendarPlugin = definePlugin({
  name: "calendar",
  version: "1.0.0",
  description: "Keep a calendar in iCalendar files: list a range, create, move and delete events.",
  provides: ["calendar"],
  // Reminders are pushed through the segment's ring.
  sharedMemory: true,
  config: ConfigSchema,
  // The tools (and their libraries) load in this plugin's process only, when it starts.
  tools: async (config: Config, lifecycle) => (await import("./tools.ts")).calendarTools(config, lifecycle),
});
