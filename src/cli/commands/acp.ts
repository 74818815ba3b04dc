/** `homed acp`: homed as an agent for editors (Zed…) over the Agent Client Protocol on stdio. */
import { defineCommand, stringFlag } from "../command.ts";

export const acpCommand = defineCommand({
  name: "acp",
  summary: "serve the Agent Client Protocol on stdio for an editor, relaying to the running daemon",
  usage: ["homed acp [-addr HOST:PORT] [-data DIR | -token TOKEN] [-partner NAME]"],
  description:
    "An editor (Zed and others) runs this command as its agent; every prompt is a turn of the running daemon in session (acp, partner). Shell and terminal tools ask the editor first. -token and -partner work as for homed chat (the token from -data, the partner your user name).",
  // -token and -partner are `homed chat`'s flags, read the same way here.
  flags: [],
  run: async ({ args, settings }, io) =>
    (await import("../acp.ts")).runAcp({ settings: settings(), token: stringFlag(args, "token") ?? (process.env.HOMED_TOKEN || undefined), partner: stringFlag(args, "partner") }, io),
});
