/**
 * browser: a real headless Chromium (the machine's, via playwright-core) the model drives —
 * open a page, read it (Readability, as web_fetch), click and type by what is visible or by a
 * CSS selector, take a screenshot (an image block), close. One browser for the plugin, started
 * on first use and closed when idle; tabs are separate contexts.
 */
import { definePlugin, z } from "../sdk/index.ts";

const ConfigSchema = z.object({
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

export const browserPlugin = definePlugin({
  name: "browser",
  version: "1.0.0",
  description: "Drive a real headless Chromium: open, read, click, type, screenshot, close.",
  provides: ["browser"],
  // Chromium is several processes (220 MB with one tab) and renders in bursts on several cores.
  limits: { memoryMb: 2048, cpuSecondsPerMinute: 120 },
  config: ConfigSchema,
  // The tools (and their libraries) load in this plugin's process only, when it starts.
  tools: async (config: Config, lifecycle) => (await import("./tools.ts")).browserTools(config, lifecycle),
});
