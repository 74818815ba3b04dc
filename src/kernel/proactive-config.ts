/**
 * `proactive` in homed.json: where the turns homed starts itself go when their event names no
 * session, and how often followed feeds may speak.
 */
import { z } from "zod";

export const ProactiveConfigSchema = z.object({
  /**
   * The session that receives events naming none (a reminder or feed set up outside any turn —
   * by hand in the plugin's files, or by an MCP client). Unset (the default): such an event is
   * logged and shown in the console's plugin events, and no turn receives it.
   */
  homeSession: z.string().min(1).max(100).optional(),
  /** How often followed feeds (rss, `push: true`) are checked: at most one turn per feed this often. */
  feedIntervalSeconds: z.number().positive().max(86_400).default(1800),
});
export type ProactiveConfig = z.output<typeof ProactiveConfigSchema>;
