/**
 * browser: a real headless Chromium (the machine's, via playwright-core) the model drives —
 * open a page, read it (Readability, as web_fetch), click and type by what is visible or by a
 * CSS selector, take a screenshot (an image block), close. One browser for the plugin, started
 * on first use and closed when idle; tabs are separate contexts.
 */
import { definePlugin } from "../sdk/index.ts";
import { ConfigSchema, type Config } from "./config.ts";

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
