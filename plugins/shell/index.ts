/** shell: one-shot commands in a working folder, each with a timeout and an output cap. */
import { definePlugin, defineTool, z } from "../sdk/index.ts";
import { runShell } from "./run.ts";

const ConfigSchema = z.object({
  cwd: z.string().min(1),
  timeoutMs: z.number().int().positive().default(30_000),
  maxOutputBytes: z
    .number()
    .int()
    .positive()
    .default(64 * 1024),
  /** Environment of the commands (the plugin's own allow-listed environment by default). */
  env: z.record(z.string(), z.string()).optional(),
});

export const shellPlugin = definePlugin({
  name: "shell",
  version: "1.0.0",
  description: "Run one-shot shell commands with a timeout and an output cap.",
  provides: ["shell"],
  config: ConfigSchema,
  tools: (config: z.infer<typeof ConfigSchema>) => [
    defineTool({
      name: "shell_run",
      description: "Run a command with /bin/sh -c and return its exit code and (capped) output.",
      input: z.object({
        command: z.string().min(1),
        timeoutMs: z.number().int().positive().max(config.timeoutMs).optional().describe(`at most ${config.timeoutMs}`),
      }),
      run: ({ command, timeoutMs }, { signal }) =>
        runShell(command, {
          cwd: config.cwd,
          timeoutMs: timeoutMs ?? config.timeoutMs,
          maxOutputBytes: config.maxOutputBytes,
          signal,
          ...(config.env ? { env: config.env } : {}),
        }),
    }),
  ],
});
