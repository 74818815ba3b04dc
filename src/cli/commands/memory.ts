/** `homed memory TOOL [ARG | JSON]`: the memory tools on -data's database. */
import { defineCommand } from "../command.ts";

export const memoryCommand = defineCommand({
  name: "memory",
  summary: "<recall|open|note|list|forget|injections|stats|doctor> [ARG | JSON]: the memory tools on -data's database",
  usage: ["homed memory <recall|open|note|list|forget|injections|stats|doctor> [ARG | JSON]"],
  description: "A single plain argument fills the tool's main field; a JSON object gives all arguments. Prints the result as JSON.",
  flags: [],
  takesArguments: true,
  run: async ({ rest, settings }, io) => (await import("../memory.ts")).runMemoryCommand(rest, settings(), io.stdout, io.stderr),
});
