/** `homed import FILE`: conversation history into cold context (the command lives in src/memory/). */
import { defineCommand } from "../command.ts";

export const importCommand = defineCommand({
  name: "import",
  summary: "FILE: import conversation history (JSON Lines, one message a line) into cold context",
  usage: ["homed import [-data DIR] [-skip-invalid] FILE"],
  // Its flag (-skip-invalid) is still in config's FLAGS, until the command moves here.
  flags: [],
  takesArguments: true,
  run: async ({ args, rest, settings }, io) => (await import("../../memory/index.ts")).runImportCommand(rest, args, settings(), io),
});
