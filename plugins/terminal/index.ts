/**
 * terminal: real PTYs the agent drives — create, write (input and a key, in order, under one
 * lock), read on demand, resize, close, and watch (opt-in pushes through the shared
 * segment's event ring). A closed or unknown terminal answers `terminal_gone` from every tool.
 */
import { randomUUID } from "node:crypto";
import { spawnPty } from "../../src/runtime/index.ts";
import { definePlugin, defineTool, ToolFailure, z, type PluginShared } from "../sdk/index.ts";
import { KEY_NAMES, stripAnsi } from "./keys.ts";
import { SILENT, TerminalSession } from "./session.ts";

const ConfigSchema = z.object({
  cwd: z.string().min(1),
  shell: z.string().default("/bin/sh"),
  maxTerminals: z.number().int().positive().default(8),
  /** Output kept per terminal for reading, in characters. */
  keepChars: z
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  env: z.record(z.string(), z.string()).optional(),
});
type Config = z.infer<typeof ConfigSchema>;

const TerminalId = z.string().min(1).describe("id from terminal_create");

export const terminalPlugin = definePlugin({
  name: "terminal",
  version: "1.0.0",
  description: "Drive interactive terminals (a real PTY each).",
  provides: ["terminal"],
  // Pushes travel through the segment's ring: without it the plugin refuses to serve.
  sharedMemory: true,
  config: ConfigSchema,
  tools: (config: Config, lifecycle) => {
    const terminals = new Map<string, TerminalSession>();
    // Programs in a PTY live in their own session, out of reach of the group kill the
    // supervisor uses: close them explicitly when the plugin is asked to stop.
    lifecycle.onClose(() => {
      for (const session of terminals.values()) session.close();
      terminals.clear();
    });
    let channel: PluginShared | undefined;
    const gone = (id: string) =>
      new ToolFailure("terminal_gone", `Terminal ${id} is closed or never existed`, {
        terminal: id,
        next_action: "call terminal_create to start a new terminal",
      });
    const live = (id: string) => {
      const session = terminals.get(id);
      if (!session || session.exited) throw gone(id);
      return session;
    };
    const known = (id: string) => {
      const session = terminals.get(id);
      if (!session) throw gone(id);
      return session;
    };
    const state = (s: TerminalSession) => ({ exited: s.exited, ...(s.exited ? { exitCode: s.exitCode ?? null } : {}) });

    return [
      defineTool({
        name: "terminal_create",
        description: "Start a terminal running a shell (or a given command). Output is not pushed: read it, or opt in with terminal_watch.",
        input: z.object({
          command: z.string().optional(),
          args: z.array(z.string()).default([]),
          cols: z.number().int().min(10).max(1000).default(120),
          rows: z.number().int().min(5).max(500).default(40),
        }),
        run: async ({ command, args, cols, rows }, { shared, session }) => {
          channel = shared;
          if (terminals.size >= config.maxTerminals) throw new ToolFailure("too_many_terminals", `Cannot create a terminal: ${config.maxTerminals} are open; close one first`);
          const env = config.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? config.cwd, LANG: process.env.LANG ?? "C.UTF-8" };
          const pty = await spawnPty(command ?? config.shell, args, { cwd: config.cwd, env: { TERM: "xterm-256color", ...env }, cols, rows });
          const id = `t_${randomUUID().slice(0, 8)}`;
          terminals.set(id, new TerminalSession(id, pty, (push) => channel?.pushEvent({ type: "terminal_output", ...(session ? { session } : {}), ...push }), config.keepChars));
          return { terminal: id, pid: pty.pid, cols, rows };
        },
      }),
      defineTool({
        name: "terminal_write",
        description: 'Type into a terminal: input, then a key ({"input":"ls","key":"enter"} runs ls). Both are sent in order under one lock.',
        input: z
          .object({ terminal: TerminalId, input: z.string().optional(), key: z.enum(KEY_NAMES).optional() })
          .refine((a) => a.input !== undefined || a.key !== undefined, "give input, key, or both"),
        run: async ({ terminal, input, key }) => {
          await live(terminal).write(input, key);
          return { terminal, written: (input?.length ?? 0) + (key ? 1 : 0) };
        },
      }),
      defineTool({
        name: "terminal_read",
        description: "Read the output produced since the last read (or since an offset), waiting up to waitMs for some to appear. Escape sequences are removed unless raw is true.",
        input: z.object({
          terminal: TerminalId,
          since: z.number().int().nonnegative().optional(),
          waitMs: z.number().int().nonnegative().max(30_000).default(0),
          raw: z.boolean().default(false),
        }),
        run: async ({ terminal, since, waitMs, raw }) => {
          const session = known(terminal);
          if (since === undefined) await session.waitForOutput(waitMs);
          const { output, offset, dropped } = session.read(since);
          return { terminal, output: raw ? output : stripAnsi(output), offset, dropped, ...state(session) };
        },
      }),
      defineTool({
        name: "terminal_resize",
        description: "Change a terminal's size.",
        input: z.object({ terminal: TerminalId, cols: z.number().int().min(10).max(1000), rows: z.number().int().min(5).max(500) }),
        run: ({ terminal, cols, rows }) => {
          live(terminal).resize(cols, rows);
          return { terminal, cols, rows };
        },
      }),
      defineTool({
        name: "terminal_close",
        description: "Close a terminal and end its processes.",
        input: z.object({ terminal: TerminalId }),
        run: ({ terminal }) => {
          const session = known(terminal);
          terminals.delete(terminal);
          session.close();
          return { terminal, closed: true };
        },
      }),
      defineTool({
        name: "terminal_watch",
        description:
          "Opt in to pushed output: on exit, every N seconds, and/or every N bytes. wake: true (with onExit) makes the exit wake you at once, to tell the person, instead of waiting for their next message. clear: true stops all pushing.",
        input: z.object({
          terminal: TerminalId,
          onExit: z.boolean().optional(),
          everySeconds: z.number().positive().max(3600).optional(),
          everyBytes: z.number().int().positive().optional(),
          wake: z.boolean().optional(),
          clear: z.boolean().optional(),
        }),
        run: ({ terminal, onExit, everySeconds, everyBytes, wake, clear }) => {
          const session = live(terminal);
          const policy = clear
            ? SILENT
            : {
                onExit: onExit ?? session.policy.onExit,
                everyMs: everySeconds !== undefined ? everySeconds * 1000 : session.policy.everyMs,
                everyBytes: everyBytes ?? session.policy.everyBytes,
                wake: wake ?? session.policy.wake,
              };
          session.watch(policy);
          return { terminal, push: policy };
        },
      }),
    ];
  },
});
