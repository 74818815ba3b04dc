/**
 * calendar: events in local iCalendar files under the data folder — list a range (recurring
 * events expanded), create, move, delete (a whole series or one occurrence). Time zones and
 * recurrence are ical.js's; zone rules for new events come from timezones-ical-library.
 */
import { definePlugin } from "../sdk/index.ts";
import { ConfigSchema, type Config } from "./config.ts";

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
