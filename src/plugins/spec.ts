/** How to launch a plugin: validated at the boundary (plugin.json files, built-in table). */
import { z } from "zod";
import { PeerIdSchema } from "../protocol/index.ts";

/**
 * What one plugin's process tree (the plugin and everything it starts) may use before it is killed
 * and counted as a crash (process-tree-guard.ts says how they are measured). The same defaults for
 * built-in and external plugins; a built-in that needs more says so in its definition, an
 * external one in its plugin.json (`"limits": { "memoryMb": 512 }`). Strict: a misspelt name
 * ("memoryMB") is refused rather than silently leaving the default.
 */
export const PluginLimitsSchema = z.strictObject({
  /** Resident memory (VmRSS summed over the tree), in MiB. */
  memoryMb: z.number().int().min(16).max(1_048_576).default(1024),
  /**
   * CPU time (user + system, summed over the tree) in any minute, in seconds: 60 is one core busy
   * the whole minute. 50 lets work come in bursts and stops a loop that never ends.
   */
  cpuSecondsPerMinute: z
    .number()
    .positive()
    .max(60 * 1024)
    .default(50),
});
export type PluginLimits = z.infer<typeof PluginLimitsSchema>;

export const PluginSpecSchema = z.object({
  name: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "lower-case letters, digits, - and _"),
  /** The program to start (a local plugin); a plugin names this or `url`, not both. */
  command: z.string().min(1).optional(),
  args: z.array(z.string()).default([]),
  /** A remote MCP server's Streamable HTTP endpoint (a remote plugin: nothing is started). */
  url: z.url({ protocol: /^https?$/, error: "an http:// or https:// URL of the server's MCP endpoint" }).optional(),
  /** Headers of every request to `url` (an API key): sent, never logged or shown. */
  headers: z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "a header name"), z.string()).default({}),
  /** Extra environment for the child; nothing else of the kernel's environment leaks through. */
  env: z.record(z.string(), z.string()).default({}),
  /** Names of the kernel's variables this plugin may also see (e.g. a token it needs). */
  inheritEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).default([]),
  cwd: z.string().optional(),
  /** Facilities this plugin offers and needs (used for start-up order). */
  provides: z.array(z.string()).default([]),
  requires: z.array(z.string()).default([]),
  /** Deadline of each call to this plugin when the caller gives none. */
  timeoutMs: z.number().int().positive().default(30_000),
  /** Size of the shared segment, for plugins whose manifest asks for one (tmpfs fills lazily). */
  sharedMemoryBytes: z
    .number()
    .int()
    .min(1024 * 1024)
    .default(64 * 1024 * 1024),
  /**
   * A channel plugin's peers → partner names (`{"123456": "alice"}`), so a person is one partner
   * across channels; a peer not named here is the partner `<plugin>_<peer>`. The host's to decide,
   * never the plugin's (src/channels/plugin-channels.ts).
   */
  partners: z.record(PeerIdSchema, z.string().min(1).max(200)).default({}),
  /** Memory and CPU its process tree may use (a local plugin; nothing is measured of a remote one). */
  limits: PluginLimitsSchema.prefault({}),
});
export type PluginSpec = z.infer<typeof PluginSpecSchema>;

/** Why a spec cannot be started, or null: it names a program to run or a server to reach, exactly one. */
export function pluginTargetProblem(spec: Pick<PluginSpec, "command" | "url">): string | null {
  if (spec.command && spec.url) return 'give either "command" (a program to start) or "url" (a remote MCP server), not both';
  if (!spec.command && !spec.url) return 'give "command" (a program to start) or "url" (a remote MCP server\'s Streamable HTTP endpoint)';
  return null;
}
export type PluginSpecInput = z.input<typeof PluginSpecSchema>;

/** Variables a child may inherit: enough to find programs and speak the user's locale, no secrets. */
export const INHERITED_ENV = ["HOME", "LANG", "LC_ALL", "LOGNAME", "PATH", "SHELL", "TERM", "TMPDIR", "TZ", "USER"] as const;

export function childEnvironment(spec: PluginSpec, parent: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of [...INHERITED_ENV, ...spec.inheritEnv]) {
    const value = parent[key];
    // Exported shell functions ("() {…") are skipped: they are a known injection path.
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return { ...env, ...spec.env };
}
