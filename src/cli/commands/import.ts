/** `homed import FILE`: conversation history into cold context (the body: src/cli/import.ts). */
import { defineCommand } from "../command.ts";

export const importCommand = defineCommand({
  name: "import",
  summary: "FILE: import conversation history (JSON Lines, one message a line) into cold context",
  usage: ["homed import [-data DIR] [-scope SCOPE] [-skip-invalid] FILE"],
  flags: [
    { name: "skip-invalid", default: "", help: "`homed import`: skip (and report) invalid lines instead of aborting the whole import" },
    {
      name: "scope",
      value: "SCOPE",
      default: "user",
      help: "`homed import`: who may recall the imported history: user (every chat), partner:NAME or project:NAME (only that partner's or project's chats)",
    },
  ],
  takesArguments: true,
  run: async ({ args, rest, settings }, io) => (await import("../import.ts")).runImportCommand(rest, args, settings(), io),
});
