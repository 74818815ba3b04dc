/** `homed chat`: talk to a running daemon from the terminal. */
import { defineCommand, stringFlag } from "../command.ts";

export const chatCommand = defineCommand({
  name: "chat",
  summary: "talk to a running daemon from the terminal (-addr, -data or -token, -partner)",
  usage: ["homed chat [-addr HOST:PORT] [-data DIR | -token TOKEN] [-partner NAME]"],
  description: "/new, /sessions, /quit; Ctrl-C cancels the turn in progress, not the program.",
  flags: [
    { name: "token", value: "TOKEN", env: "HOMED_TOKEN", default: "<data>/admin.token", help: "`homed chat`: the daemon's admin token" },
    { name: "partner", value: "NAME", default: "your user name", help: "`homed chat`: who you are to homed (one session per partner)" },
  ],
  run: async ({ args, settings }, io) =>
    (await import("../chat.ts")).runChat({ settings: settings(), token: stringFlag(args, "token") ?? (process.env.HOMED_TOKEN || undefined), partner: stringFlag(args, "partner") }, io),
});
