/** The browser plugin's settings (homed.json's `plugins.browser`), apart from the plugin so its tools can take their type without importing the plugin's entry. */
import { z } from "../sdk/index.ts";

export const ConfigSchema = z.object({
  /** The browser to drive (default: the first of /usr/bin/chromium and its usual names). */
  executablePath: z.string().min(1).optional(),
  /** Per navigation and per action, as web_fetch's time limit. */
  timeoutMs: z.number().int().positive().default(15_000),
  /** HTML read from a page at most, as web_fetch's byte limit. */
  maxBytes: z
    .number()
    .int()
    .positive()
    .default(2 * 1024 * 1024),
  maxChars: z.number().int().positive().default(40_000),
  /** The browser closes after this long without a call (open with one tab: 220 MB, the sum of its processes' VmRSS in bench/plugins/tools.ts). */
  idleMs: z
    .number()
    .int()
    .positive()
    .default(5 * 60_000),
  maxTabs: z.number().int().positive().default(4),
  width: z.number().int().min(320).max(3840).default(1280),
  height: z.number().int().min(240).max(2160).default(800),
});
export type Config = z.infer<typeof ConfigSchema>;
